"""Git's output is untrusted: what does not parse is a clear failure, never another exception."""

from __future__ import annotations

import io
import os
import shlex
import shutil
from pathlib import Path

import pytest

from ladder_plugins.history.commits import Change, Commits, _parse_log, clamp_time
from ladder_plugins.history.git import Repository, _parse_batch
from ladder_plugins.history.gitprocess import GitUnavailable, run

from tests.helpers.git import NOW, clone, needs_git, new_repo, three_days
from tests.helpers.reports import ladder

SHA = "a" * 40
OTHER = "b" * 40


def _raw(status: str, *paths: str) -> str:
    return f"\n:100644 100644 {OTHER} {SHA} {status}\0" + "\0".join(paths) + "\0"


def test_a_log_with_renames_and_changes_parses():
    out = f"\x01{SHA} 1700000000\0" + _raw("M", "a.py") + _raw("R087", "old.py", "new.py")
    (commit,) = _parse_log([out.encode()])
    assert (commit.sha, commit.time) == (SHA, 1700000000)
    assert commit.changes == [Change("M", "a.py", "a.py", SHA, OTHER), Change("R", "new.py", "old.py", SHA, OTHER)]


@pytest.mark.parametrize("garbage", [
    b"not a log at all",
    f"\x01{SHA} yesterday\0".encode(),
    f"\x01{SHA[:39]} 1700000000\0".encode(),
    f"\x01{SHA} 1700000000\0\n:100644 {SHA} M\0a.py\0".encode(),
    f"\x01{SHA} 1700000000\0\n:100644 100644 {OTHER} {SHA} R100\0only-one.py\0".encode()[:-1],
    b"\0" * 100_000,  # a flood of NULs: empty fields end an answer, they are not one
    f"\x01{SHA} 1700000000\0\n:100644 100644 {OTHER} {SHA} M\0".encode() + b"y" * (2 << 20),  # a 2 MiB path
])
def test_a_log_that_does_not_parse_is_git_unavailable(garbage):
    with pytest.raises(GitUnavailable, match="git log gave (output|a commit header|a raw line|a change)"):
        _parse_log([garbage])


def test_a_log_read_in_pieces_parses_as_read_whole():
    out = (f"\x01{SHA} 1700000000 A <a@b>\0" + _raw("M", "a.py") + f"\x01{OTHER} 1600000000 B <b@c>\0"
           + _raw("R087", "old.py", "new.py")).encode()
    pieces = [out[i:i + 1] for i in range(len(out))]
    assert _parse_log(pieces) == _parse_log([out]) and len(_parse_log(pieces)) == 2


def test_a_field_that_never_ends_is_not_read_to_its_end():
    def endless():
        yield f"\x01{SHA} 1700000000\0".encode()
        while True:
            yield b"y\n" * 50_000

    with pytest.raises(GitUnavailable, match="a field of more than 1 MiB"):
        _parse_log(endless())


def test_absurd_commit_times_are_clamped():
    (commit,) = _parse_log([f"\x01{SHA} 99999999999999999\0".encode()])
    assert commit.time == clamp_time(10**20) and clamp_time(-5) == 0


def _batch(out: bytes, ids: list[str], max_size: int = 1000) -> dict:
    return _parse_batch(io.BytesIO(out), ids, max_size)


def test_cat_file_answers_are_checked_against_what_was_asked():
    assert _batch(f"{SHA} blob 3\nabc\n{OTHER} missing\n".encode(), [SHA, OTHER]) == {SHA: b"abc", OTHER: None}
    with pytest.raises(GitUnavailable, match="not the 300 bytes it announced"):
        _batch(f"{SHA} blob 300\nabc\n".encode(), [SHA])
    with pytest.raises(GitUnavailable, match="stopped early"):
        _batch(b"", [SHA])


@pytest.mark.parametrize("answer, said", [
    (b"\0" * 100_000, "does not parse"),  # a header line that never ends is not read to its end
    (f"{OTHER} blob 3\nabc\n".encode(), "does not parse"),  # the answer to another question
    (f"{SHA} blob 2000\n".encode() + b"x" * 2001, "not what --batch-check said"),  # larger than it said
    (f"{SHA} blob 3\nabcd\n".encode(), "not the 3 bytes it announced"),
    (f"{SHA} blob 3\nabc\n{SHA} blob 3\nabc\n".encode(), "more answers than it was asked for"),
])
def test_cat_file_answers_that_do_not_parse_are_git_unavailable(answer, said):
    with pytest.raises(GitUnavailable, match=said):
        _batch(answer, [SHA])


def test_a_walk_follows_renames_and_stops_where_the_file_was_added():
    commits = Commits([
        *Commits.from_json([["3" * 40, 30, [["M", "new.py", "new.py", "c" * 40]]],
                            ["2" * 40, 20, [["R", "new.py", "old.py", "b" * 40]]],
                            ["1" * 40, 10, [["A", "old.py", "old.py", "a" * 40]]],
                            ["0" * 40, 5, [["M", "old.py", "old.py", "f" * 40]]]]).commits])
    whole, cut = commits.versions_of("new.py", 10)
    assert [(v.time, v.path) for v in whole] == [(30, "new.py"), (20, "new.py"), (10, "old.py")] and not cut
    capped, cut = commits.versions_of("new.py", 2)
    assert len(capped) == 2 and cut  # the cap was reached: there was more to read


@needs_git
def test_garbage_from_git_is_one_warning(tmp_path):
    fresh = clone(three_days(new_repo(tmp_path / "shop")), tmp_path / "clone")
    liar = tmp_path / "bin" / "git"
    liar.parent.mkdir()
    liar.write_text(f'#!/bin/sh\ncase "$*" in *" log "*) printf "\\001zzz 12\\000garbage" ;; '
                    f'*) exec "{shutil.which("git")}" "$@" ;; esac\n')
    liar.chmod(0o755)
    done = ladder(["check", "--no-record"], fresh, LADDER_NOW=NOW, PATH=f"{liar.parent}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("ladder: warning: git: git log gave") == 1 and "LAD900" not in done.stdout, done.stderr


def _fake_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> Path:
    """A git first on PATH that logs each call to the file it returns, then runs ``body``."""
    bin_dir, calls = tmp_path / "fakebin", tmp_path / "calls.txt"
    bin_dir.mkdir()
    (bin_dir / "git").write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\n{body}\n')
    (bin_dir / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("LADDER_GIT_TIMEOUT", raising=False)
    monkeypatch.setenv("LADDER_GIT_GAVE_UP", "")  # what a time-out here sets is undone after the test
    return calls


def test_garbage_for_the_work_tree_question_is_said_as_garbage(tmp_path, monkeypatch):
    _fake_git(tmp_path, monkeypatch, "echo 'Segmentation fault (core dumped)'")
    with pytest.raises(GitUnavailable, match="git rev-parse gave output that does not parse: b'Segmentation"):
        Repository.discover(tmp_path)


def test_a_directory_git_calls_no_work_tree_is_said_as_one(tmp_path, monkeypatch):
    _fake_git(tmp_path, monkeypatch, "printf 'false\\n'")  # inside .git, or a bare repository
    with pytest.raises(GitUnavailable, match="is not inside a git work tree"):
        Repository.discover(tmp_path)


def test_a_safe_directory_refusal_says_what_happened_and_the_fix(tmp_path, monkeypatch):
    where = str(tmp_path / "it's theirs")
    said = (f"fatal: detected dubious ownership in repository at '{where}'\n"
            "To add an exception for this directory, call:\n\n"
            f"\tgit config --global --add safe.directory '{where}'\n")
    (tmp_path / "said.txt").write_text(said)
    _fake_git(tmp_path, monkeypatch, f'cat "{tmp_path / "said.txt"}" >&2; exit 128')
    with pytest.raises(GitUnavailable) as refused:
        Repository.discover(tmp_path)
    assert "is owned by another user" in str(refused.value)
    assert str(refused.value).endswith(f"git config --global --add safe.directory {shlex.quote(where)}")
    assert shlex.split(str(refused.value).rsplit(": ", 1)[1])[-1] == where  # a command that works as pasted


def test_a_git_call_is_cut_at_the_timeout_and_git_is_not_asked_again(tmp_path, monkeypatch):
    """git hangs with a child holding its pipe: both are killed, and this process asks git no more."""
    pid_file = tmp_path / "child.txt"
    calls = _fake_git(tmp_path, monkeypatch, f'sleep 1000 & echo $! > "{pid_file}"; wait')
    monkeypatch.setenv("LADDER_GIT_TIMEOUT", "0.5")
    for _ in range(2):
        with pytest.raises(GitUnavailable, match=r"git log did not finish in 0\.5 s \(LADDER_GIT_TIMEOUT"):
            run(tmp_path, ["log"])
    assert calls.read_text() == "-c core.quotepath=off -c color.ui=false log\n"  # asked once
    stat = Path(f"/proc/{int(pid_file.read_text())}/stat")
    assert not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] in "ZX"  # the child is gone


@pytest.mark.parametrize("given", ["soon", "0", "-1", "nan", "100000"])
def test_a_bad_timeout_setting_is_said_with_its_range(tmp_path, monkeypatch, given):
    calls = _fake_git(tmp_path, monkeypatch, "exit 0")
    monkeypatch.setenv("LADDER_GIT_TIMEOUT", given)
    with pytest.raises(GitUnavailable, match="LADDER_GIT_TIMEOUT=.* is not a number of seconds from 0 to 3600"):
        run(tmp_path, ["log"])
    assert not calls.exists()


@pytest.mark.parametrize("body, said", [("echo 'not a commit id'", "git rev-parse gave output that does not parse"),
                                        ("exec sleep 1000", "git rev-parse did not finish in 0.3 s")])
def test_garbage_or_a_time_out_for_head_is_no_repository_without_commits(tmp_path, monkeypatch, body, said):
    _fake_git(tmp_path, monkeypatch, body)
    monkeypatch.setenv("LADDER_GIT_TIMEOUT", "0.3")
    with pytest.raises(GitUnavailable, match=said):
        Repository(tmp_path, tmp_path, "", False).head()


def test_a_head_git_does_not_know_is_a_repository_without_commits(tmp_path, monkeypatch):
    _fake_git(tmp_path, monkeypatch, "exit 1")  # rev-parse --verify --quiet HEAD in a new repository
    assert Repository(tmp_path, tmp_path, "", False).head() is None
