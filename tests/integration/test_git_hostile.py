"""Git as untrusted input, through the real front ends: a git that hangs, floods or hands over a generated
file is one warning, in bounded time and memory, and no process of the run waits on a git the run gave up on.

Each fake ``git`` is a shell script first on PATH. The subprocesses' ``timeout=`` only detects a hang (a
run that never ends); no test asserts a duration.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers.git import NOW, PYPROJECT, clone, commit, needs_git, nested, new_repo, three_days
from tests.helpers.reports import ladder

pytestmark = needs_git

HANG_DETECTOR = 120  # seconds: far past anything the runs below do; reaching it means a run hung


def _fake_git(tmp_path: Path, pattern: str, action: str) -> tuple[str, Path]:
    """A PATH whose git logs each call ("<pid> <args>") and runs ``action`` for arguments matching the shell
    ``pattern``; other calls go to the real git."""
    real = shutil.which("git")
    bin_dir, calls = tmp_path / "fakebin", tmp_path / "git-calls.txt"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text(f'#!/bin/sh\necho "$$ $*" >> "{calls}"\ncase "$*" in\n  {pattern}) {action} ;;\n'
                    f'  *) exec "{real}" "$@" ;;\nesac\n')
    fake.chmod(0o755)
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}", calls


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie nobody reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.fixture
def project(tmp_path):
    """A project with a red unit in three files, inside a work tree (``.git`` is all the cheap test looks at)."""
    root = tmp_path / "shop"
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    for n in range(3):
        (root / "src" / f"m{n}.py").write_text(nested(f"f{n}", 6))
    return root


FLAKE8_SPAWN = textwrap.dedent(
    """
    import multiprocessing, sys
    multiprocessing.set_start_method("spawn")  # workers run the plugin's option parsing again
    from flake8.main.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)

LADDER = shutil.which("ladder", path=os.path.dirname(sys.executable)) or shutil.which("ladder")
FRONT_ENDS = {
    "ladder check": [LADDER, "check", "--no-record"],
    "flake8 -j 2 (spawn)": [sys.executable, "-c", FLAKE8_SPAWN, "--select", "LAD", "-j", "2", "--ladder-no-record",
                            "src"],
    # pytest-benchmark, where installed, runs git itself, unbounded: not ours to test
    "pytest --ladder -n 2": [sys.executable, "-m", "pytest", "--ladder", "-n", "2", "-p", "no:cacheprovider",
                             "-p", "no:benchmark", "-q", "--ladder-no-record"],
}


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_a_hanging_git_is_one_warning_and_asked_once(project, tmp_path, front_end):
    """git hangs (its child too, holding the pipe): the call is cut at LADDER_GIT_TIMEOUT, git and its child
    are killed, and no process of the run (flake8's spawned workers, xdist's) asks git again."""
    pids = tmp_path / "children.txt"
    path, calls = _fake_git(tmp_path, "*", f'sleep 1000 & echo $! >> "{pids}"; wait')
    env = {**os.environ, "PATH": path, "LADDER_GIT_TIMEOUT": "1", "LADDER_NOW": NOW, "LADDER_NO_CACHE": "1"}
    done = subprocess.run(FRONT_ENDS[front_end], cwd=project, capture_output=True, text=True, env=env,
                          timeout=HANG_DETECTOR)
    said = done.stdout + done.stderr
    assert said.count("did not finish in 1 s") == 1 and "Traceback" not in said, said
    assert "LADDER_GIT_TIMEOUT" in said
    assert len(calls.read_text().splitlines()) == 1, calls.read_text()  # the one call that timed out
    assert not [pid for pid in map(int, pids.read_text().split()) if _alive(pid)]  # git's child is gone too


MEASURED = textwrap.dedent(
    """
    import resource, subprocess, sys
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=120)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)  # KiB: the largest process, ladder itself
    """
)

FLOOD = "head -c 200000000"  # 200 MB, the size of a generated monster of a history


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return three_days(new_repo(tmp_path_factory.mktemp("hostile") / "shop"))


@pytest.mark.parametrize("pattern, action, said", [
    ("*", f"yes | {FLOOD}", "git rev-parse gave more than"),  # the first question answered with endless lines
    ("*", f"yes | {FLOOD} >&2; exit 1", "git rev-parse failed: y;"),  # endless complaints
    ('*" log -z "*', f"yes | {FLOOD}", "git log gave output that does not parse"),  # a field that never ends
    ("*--batch", f"{FLOOD} /dev/zero", "git cat-file --batch gave output that does not parse"),  # nor a header
])
def test_a_flooding_git_is_one_warning_in_bounded_memory(history, tmp_path, pattern, action, said):
    fresh = clone(history, tmp_path / "clone")
    path, _ = _fake_git(tmp_path, pattern, action)
    done = subprocess.run([sys.executable, "-c", MEASURED, LADDER, "check", "--no-record"], cwd=fresh, text=True,
                          capture_output=True, timeout=HANG_DETECTOR,
                          env={**os.environ, "PATH": path, "LADDER_NOW": NOW, "LADDER_NO_CACHE": "1"})
    peak = done.stdout.rstrip("\n").rsplit("\n", 1)[-1]
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("ladder: warning: git") == 1 and f"ladder: warning: git: {said}" in done.stderr, done.stderr
    assert int(peak) < 300 * 1024, f"ladder peaked at {int(peak) // 1024} MiB"


def test_a_generated_file_over_the_blob_limit_is_not_read_and_said_once(tmp_path):
    """A 1.2 MB generated module changed on three days: its past versions are not read (not the history
    anyone means), and that is said once, naming the file."""
    repo = new_repo(tmp_path / "shop")
    filler = "".join(f"# generated row {n:06d} " + "x" * 60 + "\n" for n in range(15000))
    for day, depth in (("2026-11-01", 6), ("2026-11-02", 7), ("2026-11-03", 8)):
        commit(repo, {"src/shop/generated.py": nested("table", depth) + filler}, f"{day}T10:00:00Z")
    path, calls = _fake_git(tmp_path, "never", ":")
    done = ladder(["check", "--no-record"], repo, LADDER_NOW=NOW, LADDER_NO_CACHE="1", PATH=path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("src/shop/generated.py") == 1 and "1 MiB" in done.stderr, done.stderr
    assert "cat-file --batch\n" not in calls.read_text()  # no blob content asked for


@pytest.mark.parametrize("front_end", ["ladder check", "flake8 -j 2 (spawn)"])
def test_what_a_failing_git_says_reaches_the_terminal_cleaned(project, tmp_path, front_end):
    """git's last error line is quoted in the warning: an escape sequence or a bidi override in it is removed
    by every front end (flake8's warnings too), not printed raw."""
    path, _ = _fake_git(tmp_path, "*rev-parse*", "printf 'fatal: \\033]0;pwned\\007\\342\\200\\256evil\\n' >&2; exit 128")
    done = subprocess.run(FRONT_ENDS[front_end], cwd=project, capture_output=True, text=True, timeout=HANG_DETECTOR,
                          env={**os.environ, "PATH": path, "LADDER_NOW": NOW, "CI": ""})
    assert "ladder: warning: git" in done.stderr, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr and "\u202e" not in done.stderr
