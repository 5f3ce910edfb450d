"""Git's output is untrusted: what does not parse is a clear failure, never another exception."""

from __future__ import annotations

import os
import shutil

import pytest

from ladder_plugins.history.git import Change, Commits, GitUnavailable, _parse_batch, _parse_log, clamp_time

from .git_helpers import NOW, clone, needs_git, new_repo, three_days
from .reports_helpers import ladder

SHA = "a" * 40
OTHER = "b" * 40


def _raw(status: str, *paths: str) -> str:
    return f"\n:100644 100644 {OTHER} {SHA} {status}\0" + "\0".join(paths) + "\0"


def test_a_log_with_renames_and_changes_parses():
    out = f"\x01{SHA} 1700000000\0" + _raw("M", "a.py") + _raw("R087", "old.py", "new.py")
    (commit,) = _parse_log(out.encode())
    assert (commit.sha, commit.time) == (SHA, 1700000000)
    assert commit.changes == [Change("M", "a.py", "a.py", SHA, OTHER), Change("R", "new.py", "old.py", SHA, OTHER)]


@pytest.mark.parametrize("garbage", [
    b"not a log at all",
    f"\x01{SHA} yesterday\0".encode(),
    f"\x01{SHA[:39]} 1700000000\0".encode(),
    f"\x01{SHA} 1700000000\0\n:100644 {SHA} M\0a.py\0".encode(),
    f"\x01{SHA} 1700000000\0\n:100644 100644 {OTHER} {SHA} R100\0only-one.py\0".encode()[:-1],
])
def test_a_log_that_does_not_parse_is_git_unavailable(garbage):
    with pytest.raises(GitUnavailable, match="git log gave"):
        _parse_log(garbage)


def test_absurd_commit_times_are_clamped():
    (commit,) = _parse_log(f"\x01{SHA} 99999999999999999\0\x01".encode()[:-1])
    assert commit.time == clamp_time(10**20) and clamp_time(-5) == 0


def test_cat_file_answers_are_checked_against_what_was_asked():
    assert _parse_batch(f"{SHA} blob 3\nabc\n{OTHER} missing\n".encode(), [SHA, OTHER]) == {SHA: b"abc", OTHER: None}
    with pytest.raises(GitUnavailable, match="less content"):
        _parse_batch(f"{SHA} blob 300\nabc\n".encode(), [SHA])
    with pytest.raises(GitUnavailable, match="stopped early"):
        _parse_batch(b"", [SHA])


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
