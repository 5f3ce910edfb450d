"""The one lock (``ladderdir.lock``) and the one locked JSON-lines append (``ladderdir.append``).

Contention is real: a second process holds the lock (ours, or filelock's, which on POSIX is the
same ``flock``) and says so on a pipe; the test acts while it holds it, then lets it go. Nothing
waits on a clock to line the two up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.ladderdir.append import append_line, json_line, lock_of
from ladder_plugins.ladderdir.lock import held, taken

from tests.helpers.paths import REPO

ROOT = REPO

#: holds the lock argv[1] (with ladder's lock, or filelock's) until a line comes on stdin
HOLDER = """
import sys
from pathlib import Path
if sys.argv[2] == "filelock":
    from filelock import FileLock
    guard = FileLock(sys.argv[1]); guard.acquire(timeout=30); got = True
else:
    from ladder_plugins.ladderdir.lock import taken
    context = taken(Path(sys.argv[1]), 30); got = context.__enter__()
print("held" if got else "not held", flush=True)
sys.stdin.readline()
"""

#: appends argv[3] lines of argv[2] characters to argv[1], as many processes would at once
APPENDER = """
import sys
from pathlib import Path
from ladder_plugins.ladderdir.append import append_line
name, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for n in range(count):
    assert append_line(Path(name), {"who": sys.argv[4], "n": n, "text": "x" * size}, timeout=30, sync=False)
"""


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}


class Holder:
    """A second process holding ``lock`` until :meth:`release`."""

    def __init__(self, lock: Path, how: str = "ladder") -> None:
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), how], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=_env())
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "held"

    def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        assert self.process.wait(timeout=60) == 0

    def __enter__(self) -> "Holder":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.release()


pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the holder's protocol uses POSIX pipes")


def test_a_free_lock_is_taken_at_once_and_made_if_missing(tmp_path):
    lock = tmp_path / "x.lock"
    with taken(lock, 0) as got:
        assert got and lock.is_file()
    with held(lock, "x"):
        pass


@pytest.mark.parametrize("how", ["ladder", "filelock"])
def test_a_lock_another_process_holds_is_not_taken_until_it_lets_go(tmp_path, how):
    lock = tmp_path / "x.lock"
    with Holder(lock, how) as holder:
        with taken(lock, 0) as got:
            assert not got
        with taken(lock, 0.05) as got:
            assert not got
        holder.release()
    with taken(lock, 0) as got:
        assert got


def test_held_says_what_was_left_unchanged_when_the_lock_is_held(tmp_path):
    lock = tmp_path / "state.json.lock"
    said = r"the state file is locked by another process for more than 0\.05 s .*nothing was changed"
    with Holder(lock), pytest.raises(LadderError, match=said):
        with held(lock, "the state file", timeout=0.05):
            raise AssertionError("the block must not run")


def test_held_says_when_its_lock_cannot_be_made(tmp_path):
    with pytest.raises(LadderError, match="its lock .* cannot be made"):
        with held(tmp_path / "missing" / "x.lock", "x"):
            pass


def test_a_waiting_writer_gets_the_lock_once_the_holder_lets_go(tmp_path):
    path = tmp_path / "j.jsonl"
    holder = Holder(lock_of(path))
    results: list = []
    writer = threading.Thread(target=lambda: results.append(append_line(path, {"id": "w"}, timeout=60)))
    writer.start()
    holder.release()  # whether the writer was already waiting or not, it must write exactly once
    writer.join(timeout=60)
    assert results == [True] and [json.loads(line) for line in path.read_text().splitlines()] == [{"id": "w"}]


def test_a_held_lock_writes_nothing_and_says_so(tmp_path):
    path = tmp_path / "j.jsonl"
    with Holder(lock_of(path)):
        assert append_line(path, {"id": "a"}, timeout=0) is False
    assert not path.exists()


def test_two_processes_appending_at_once_lose_no_line_and_tear_none(tmp_path):
    path = tmp_path / "captures.jsonl"
    writers = [subprocess.Popen([sys.executable, "-c", APPENDER, str(path), "70000", "40", who], env=_env())
               for who in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert sorted((e["who"], e["n"]) for e in lines) == sorted((w, n) for w in "ab" for n in range(40))


def test_a_torn_last_line_costs_that_line_only(tmp_path):
    path = tmp_path / "j.jsonl"
    path.write_bytes(b'{"id": "torn", "wh')
    assert append_line(path, {"id": "next"}, timeout=0, sync=True)
    assert path.read_bytes().splitlines() == [b'{"id": "torn", "wh', b'{"id": "next"}']


def test_a_line_is_utf8_and_a_lone_surrogate_is_escaped_not_an_error(tmp_path):
    assert json_line({"t": "bär"}) == '{"t": "bär"}\n'.encode("utf-8")
    path = tmp_path / "j.jsonl"
    assert append_line(path, {"t": "again \ud800"}, timeout=0)
    assert json.loads(path.read_bytes()) == {"t": "again \ud800"}


def test_only_a_regular_file_is_written_and_never_through_a_symlink(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        append_line(fifo, {"id": "a"}, timeout=0)
    (tmp_path / "elsewhere.jsonl").write_text("")
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(OSError):
        append_line(link, {"id": "a"}, timeout=0)
    assert (tmp_path / "elsewhere.jsonl").read_text() == ""
