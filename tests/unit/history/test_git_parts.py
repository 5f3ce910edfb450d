"""Each part of git's side of the history on its own: one git process (gitprocess), a window's commits
(commits), a unit's moves (lineage), the walk over past versions (occurrences), the adoption point (adoption)
and the base of mode new (newcode). The front ends' behaviour is tested through them in tests/test_git*.py."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.config import load_settings
from ladder_plugins.errors import ConfigError
from ladder_plugins.history.adoption import EVERYTHING, NOT_COMMITTED, Adoption, adoption_point
from ladder_plugins.history.blobs import BlobFindings
from ladder_plugins.history.commits import Commits, LogCache, Mechanical, commit_datetime, ignore_revs, is_sha
from ladder_plugins.history.git import Repository
from ladder_plugins.history.gitprocess import TIMEOUT_ENV, GitSaidNo, GitUnavailable, run, streaming
from ladder_plugins.history.lineage import Lineage
from ladder_plugins.history.newcode import find_base, moved_values, values_at_base
from ladder_plugins.history.occurrences import Walked, as_events, asked_of, keep_walk, kept_walk, walk, walk_key

from tests.helpers.git import PYPROJECT, commit, git, nested, needs_git, new_repo
from tests.helpers.history import make_event

SHA = "a" * 40


# -- gitprocess: one bounded git process -------------------------------------------------------


@needs_git
def test_a_short_answer_is_read_whole_and_a_long_one_is_refused(tmp_path: Path) -> None:
    assert run(tmp_path, ["--version"]).startswith(b"git version")
    with pytest.raises(GitUnavailable, match="more than 0 KiB of output"):
        run(tmp_path, ["--version"], limit=3)


@needs_git
def test_a_failing_git_is_git_said_no_with_its_last_complaint(tmp_path: Path) -> None:
    with pytest.raises(GitSaidNo, match="git rev-parse failed: .*not a git repository"):
        run(tmp_path, ["rev-parse", "HEAD"])


@needs_git
def test_a_streamed_answer_is_read_as_it_comes(tmp_path: Path) -> None:
    with streaming(tmp_path, ["--version"]) as out:
        assert out.read(4) == b"git "


def test_a_time_limit_that_is_no_number_of_seconds_is_said_with_its_fix(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIMEOUT_ENV, "soon")
    with pytest.raises(GitUnavailable, match="is not a number of seconds from 0 to 3600; set it to e.g. 60"):
        run(tmp_path, ["--version"])


# -- commits: a window's commits --------------------------------------------------------------


def _commits(*rows: list) -> Commits:
    return Commits.from_json(list(rows))


def test_versions_follow_renames_mark_mechanical_commits_and_order_commits_of_one_second() -> None:
    commits = _commits(["3" * 40, 20, [["M", "new.py", "new.py", "c" * 40, "b" * 40]], "renovate[bot] <r@x>"],
                       ["2" * 40, 20, [["R", "new.py", "old.py", "b" * 40, "a" * 40]], "Ann <a@x>"],
                       ["1" * 40, 10, [["A", "old.py", "old.py", "a" * 40, "0" * 40]], "Ann <a@x>"])
    versions, cut = commits.versions_of("new.py", 10, Mechanical(revs=("1" * 7,)))
    assert [(v.path, v.mechanical) for v in versions] == [("new.py", "bot"), ("new.py", ""), ("old.py", "ignore-revs")]
    assert versions[0].moment == versions[1].moment + 1 and not cut  # one second, in history's order
    assert commits.versions_of("old.py", 10, older_than="2" * 40)[0][0].commit == "1" * 40
    assert [c.path for c in commits.changes_at("2" * 40)] == ["new.py"] and commits.changes_at("f" * 40) == []


def test_a_commit_that_changes_more_files_than_sweep_files_is_a_sweep() -> None:
    commits = _commits(["1" * 40, 10, [["M", f"m{n}.py", f"m{n}.py", "a" * 40] for n in range(3)], "Ann <a@x>"])
    assert commits.versions_of("m0.py", 5, Mechanical(sweep_files=2))[0][0].mechanical == "sweep"
    assert commits.versions_of("m0.py", 5, Mechanical(sweep_files=3))[0][0].mechanical == ""


def test_commits_survive_their_json_and_a_damaged_entry_is_a_value_error() -> None:
    commits = _commits(["1" * 40, 10, [["A", "a.py", "a.py", "a" * 40, "0" * 40]], "Ann <a@x>"])
    assert Commits.from_json(commits.to_json()).to_json() == commits.to_json()
    assert len(commits.since(11)) == 0 and len(commits.since(10)) == 1
    with pytest.raises(ValueError, match="not a list of commits"):
        Commits.from_json([["1" * 40, "ten", []]])


def test_ids_times_and_ignore_revs_files_are_read_as_git_writes_them() -> None:
    assert is_sha(SHA) and is_sha("b" * 64) and not is_sha("A" * 40) and not is_sha("a" * 39)
    assert commit_datetime(-5) == datetime(1970, 1, 1, tzinfo=timezone.utc)
    assert commit_datetime(10**20).year == 9999
    assert ignore_revs("# sweeps\nABCDEF1 # black\n\nnot-an-id\nabc\n") == ("abcdef1",)


class _CountingRepo:
    """What LogCache asks of a repository, counted."""

    prefix, asked = "", 0

    def head(self) -> str:
        return SHA

    def commits(self, since: int) -> Commits:
        self.asked += 1
        return _commits(["1" * 40, 10, [], "Ann <a@x>"])

    def introduced(self, text: str, rel: str) -> tuple[int, str]:
        self.asked += 1
        return 10, "1" * 40


def test_a_log_cache_without_a_cache_asks_git_each_time_and_with_one_once(tmp_path: Path) -> None:
    from ladder_plugins.analysis.cache import AnalysisCache

    repo = _CountingRepo()
    bare = LogCache(None, repo)  # type: ignore[arg-type]
    assert len(bare.commits(0)) == 1 and bare.adopted("pyproject.toml") == (10, "1" * 40) and repo.asked == 2
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    cache = AnalysisCache(load_settings(tmp_path), [])
    kept = [LogCache(cache, repo) for _ in range(2)]  # type: ignore[arg-type]
    assert [len(each.commits(0)) for each in kept] == [1, 1] and repo.asked == 3


# -- a repository to walk: red() grows worse in a.py on each of three days, then moves to b.py unchanged --

RED = "src/shop/a.py"
MOVED = "src/shop/b.py"
KEEP = "def keep():\n    return 1\n"


@pytest.fixture
def walked_repo(tmp_path: Path) -> Path:
    repo = new_repo(tmp_path / "shop", PYPROJECT)
    for day in (1, 2, 3):
        commit(repo, {RED: nested("red", 4 + day) + "\n\n" + KEEP}, f"2026-11-0{day}T10:00:00Z", f"day {day}")
    commit(repo, {RED: KEEP, MOVED: nested("red", 7)}, "2026-11-04T10:00:00Z", "move red() to b.py")
    return repo


def _evidence_parts(repo: Path) -> tuple:
    settings = load_settings(repo)
    found = Repository.discover(repo)
    blobs = BlobFindings(settings)
    mechanical = Mechanical()
    lineage = Lineage(found, found.commits(None), blobs, 50, lambda: mechanical)
    return settings, found, blobs, lineage


def _red_now(settings, repo: Path, rel: str) -> list:
    from ladder_plugins.analysis.analyzer import Analyzer

    report = Analyzer.for_run(settings, use_cache=False).paths([repo / rel], cwd=repo).files[0]
    return [make_event(v.fingerprint, path=rel, rule_key=v.rule.key) for v in report.violations
            if v.severity == "red"]


@needs_git
def test_the_walk_finds_each_version_once_at_its_earliest_commit(walked_repo: Path) -> None:
    settings, repo, blobs, lineage = _evidence_parts(walked_repo)
    wanted = asked_of(_red_now(settings, walked_repo, MOVED))
    assert list(wanted) == [MOVED] and wanted[MOVED].measure.units == {"red"}
    found = walk(lineage, wanted)
    days = sorted({e.timestamp[:10] for e in as_events(found.found, settings, blobs, datetime.now(timezone.utc))})
    assert days == ["2026-11-01", "2026-11-02", "2026-11-03"] and found.versions == 4 and found.cut == ()


@needs_git
def test_a_walk_kept_in_the_cache_is_the_same_walk_and_a_damaged_one_is_set_aside(walked_repo: Path) -> None:
    from ladder_plugins.analysis.cache import AnalysisCache

    settings, repo, blobs, lineage = _evidence_parts(walked_repo)
    wanted = asked_of(_red_now(settings, walked_repo, MOVED))
    cache = AnalysisCache(settings, [])
    key = walk_key(cache, repo.head() or "", 50, lineage.mechanical, wanted)
    assert walk_key(None, "head", 50, lineage.mechanical, wanted) is None and kept_walk(cache, key, wanted) is None
    found = walk(lineage, wanted)
    keep_walk(cache, key, found)
    assert kept_walk(cache, key, wanted) == found
    assert kept_walk(cache, key, {}) is None  # another set of files: not this answer, and set aside
    assert kept_walk(cache, key, wanted) is None


def test_what_a_run_asks_of_a_file_is_its_red_fingerprints_and_the_units_they_name() -> None:
    events = [make_event("src/a.py::C.f::cognitive_max"), make_event("src/a.py::g::abc_max", severity="yellow"),
              make_event("src/a.py::file_lines_max")]
    asked = asked_of(events)["src/a.py"]
    assert asked.measure.units == {"C.f"} and asked.measure.file
    assert asked.fingerprints == {"src/a.py::C.f::cognitive_max", "src/a.py::file_lines_max"}


@needs_git
def test_lineage_finds_the_move_and_the_unit_before_it(walked_repo: Path) -> None:
    settings, repo, blobs, lineage = _evidence_parts(walked_repo)
    own, cut = lineage.commits.versions_of(MOVED, 50)
    (hop,) = lineage.hops(MOVED, "red", own, cut)
    assert (hop.path, hop.key, len(hop.versions), hop.same is not None) == (RED, "red", 3, True)
    assert lineage.hops(MOVED, "red", [], False) is lineage.hops(MOVED, "red", own, cut)
    inherited = lineage.inherited(MOVED, "red", (hop,))
    named = {row[6] for _, _, rows in inherited for row in rows}  # under b.py's fingerprints, not a.py's
    assert f"{MOVED}::red::cognitive_max" in named and all(fp.startswith(f"{MOVED}::red::") for fp in named)


# -- adoption -----------------------------------------------------------------------------------


def test_an_occurrence_triggers_by_its_commit_where_the_point_is_one_else_by_its_time() -> None:
    when = datetime(2026, 11, 2, tzinfo=timezone.utc)
    point = Adoption(when, None, "since", after=frozenset({"c2"}))
    assert point.triggers("2020-01-01T00:00:00Z", "c2") and not point.triggers("2030-01-01T00:00:00Z", "c1")
    assert point.triggers("2020-01-01T00:00:00Z", None)  # the log's and the run's: all of them
    by_time = Adoption(when, when, "since")
    assert by_time.triggers("2026-11-03T00:00:00Z", "c1") and not by_time.triggers("2026-11-01T00:00:00Z", None)
    assert EVERYTHING.triggers("2000-01-01T00:00:00Z", None) and not NOT_COMMITTED.triggers("2030-01-01T00:00:00Z", "c")


@needs_git
@pytest.mark.parametrize("since, said", [(None, "(the commit that added [tool.ladder])"), ("all", "from all history"),
                                         ("2026-11-02", "since 2026-11-02 (git_since)"),
                                         ("HEAD~1", "since HEAD~1 (2026-11-03)")])
def test_the_adoption_point_is_the_commit_that_added_the_table_unless_git_since_says(walked_repo: Path,
                                                                                     since, said) -> None:
    if since is not None:
        (walked_repo / "pyproject.toml").write_text(PYPROJECT + f'\n[tool.ladder.recurrence]\ngit_since = "{since}"\n')
    repo = Repository.discover(walked_repo)
    point = adoption_point(load_settings(walked_repo), repo, LogCache(None, repo), print)
    assert said in point.said
    assert (point.after is not None) == (since in (None, "HEAD~1"))


@needs_git
def test_a_git_since_that_is_no_date_nor_commit_is_a_configuration_error(walked_repo: Path) -> None:
    (walked_repo / "pyproject.toml").write_text(PYPROJECT + '\n[tool.ladder.recurrence]\ngit_since = "nowhere"\n')
    repo = Repository.discover(walked_repo)
    with pytest.raises(ConfigError, match="'nowhere' is neither \"all\", an ISO-8601 date nor a commit"):
        adoption_point(load_settings(walked_repo), repo, LogCache(None, repo), print)


# -- newcode: the base of mode new --------------------------------------------------------------


@needs_git
def test_the_base_is_the_ref_given_else_said_missing(walked_repo: Path) -> None:
    repo = Repository.discover(walked_repo)
    said: list[str] = []
    assert find_base(repo, "HEAD~1", said.append) == git(walked_repo, "rev-parse", "HEAD~1").strip()
    assert find_base(repo, "no-such-ref", said.append) is None and "does not name a commit" in said[-1]
    assert find_base(None, "", said.append) is None and "needs git to find the base" in said[-1]
    assert find_base(repo, "", said.append) == git(walked_repo, "rev-parse", "HEAD").strip()  # main is HEAD


@needs_git
def test_the_base_values_are_the_base_files_and_follow_units_the_branch_moved(walked_repo: Path) -> None:
    settings, repo, blobs, lineage = _evidence_parts(walked_repo)
    wanted = asked_of(_red_now(settings, walked_repo, MOVED))
    head, base = (git(walked_repo, "rev-parse", ref).strip() for ref in ("HEAD", "HEAD~1"))
    assert values_at_base(repo, blobs, base, repo.renames_since(base), wanted) == {}  # b.py is not at the base
    at_head = values_at_base(repo, blobs, head, {}, wanted)
    assert set(at_head) == wanted[MOVED].fingerprints
    assert moved_values(lineage, frozenset({head}), wanted, {}) == at_head  # the base held red() in a.py
    assert moved_values(lineage, frozenset({head}), wanted, at_head) == {}  # a unit valued at the base is not
    assert moved_values(lineage, frozenset(), wanted, {}) == {}  # a move before the base: nothing to follow


def test_an_empty_walk_is_nothing_found() -> None:
    assert Walked({"a.py": []}) == Walked({"a.py": []}, 0, ())
