"""pytest front end (entry point ``ladder``): ``pytest --ladder``.

A thin adapter over the core. With ``--ladder`` every analysed file becomes one test
item, ``path::ladder``, that passes or fails by the gate; the terminal summary gets a
``ladder`` section. Paths given to pytest narrow the items to the files under them (and
those it collected tests from), and ``min_assertions`` judges only the tests the session
runs: ``pytest --ladder tests/test_x.py`` is about that file, not the whole project.
Each item's outcome is decided where it runs, from the history as it was when the
session started plus that file's own events (recurrence is per fingerprint, so this
does not depend on scheduling). Events are recorded once, by the controlling process,
at the end of the session; xdist workers hand theirs over through ``workeroutput``.
Without ``--ladder`` nothing happens at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import pytest

__all__ = ["LadderItem", "pytest_addoption"]

_RUN_ID_KEY = "ladder_run_id"
_EVENTS_KEY = "ladder_events"
_CACHE_KEY = "ladder_cache"
_PATHS_KEY = "ladder_paths"
#: config.MODES, spelled here: the options are added to every pytest run, which need not import config for them
_MODES = ("advisory", "recurrence", "new", "strict")


@dataclass
class _State:
    """Everything one pytest process needs for ``--ladder``, kept in ``config.stash``."""

    settings: Any
    run: Any
    #: the session's run (history.pipeline.RunPipeline): analyzer, history before the session, git's evidence
    pipeline: Any
    record: bool
    is_worker: bool
    warn: Any  # a WarnOnce collecting this process's warnings for the terminal summary
    #: the paths given to pytest, relative to the root (POSIX); ``None`` when it was given none
    selection: Optional[tuple[str, ...]] = None
    #: files pytest collected tests from, deselected ones included: their role does not depend on ``-k``
    test_files: frozenset[str] = frozenset()
    #: the tests the session runs (after ``-k``, ``--deselect``), by file: what ``min_assertions`` judges
    collected: dict[str, frozenset[str]] = field(default_factory=dict)
    #: each collected test's parent (module or class): its file and the qualifier of its tests' names
    places: dict[str, tuple[str, str]] = field(default_factory=dict)  # by the parent's node id
    events: list[Any] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    outcome: Any = None
    lost_workers: list[str] = field(default_factory=list)


_STATE = pytest.StashKey[_State]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ladder", "ladder-plugins: structural rules with a recurrence gate")
    group.addoption("--ladder", action="store_true", default=False,
                    help="check the ladder rules on [tool.ladder] paths (those under the paths given to pytest): "
                         "one item per file, gated by recurrence")
    group.addoption("--ladder-mode", choices=_MODES, default=None,
                    help="gate mode for this session (default: [tool.ladder] mode)")
    group.addoption("--ladder-base", default=None, metavar="REF",
                    help="the base commit of --ladder-mode new (default: [tool.ladder] base, else the merge base "
                         "with the default branch)")
    group.addoption("--ladder-no-record", action="store_true", default=False,
                    help="decide the gate without recording this session's violations")
    group.addoption("--ladder-no-cache", action="store_true", default=False,
                    help="do not use the shared analysis cache (also LADDER_NO_CACHE=1)")


def _state(config: pytest.Config) -> Optional[_State]:
    return config.stash.get(_STATE, None)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("ladder", False):
        return
    config.addinivalue_line("markers", "ladder: a ladder-plugins structural check of one file (pytest --ladder)")
    from .errors import LadderError

    try:
        config.stash[_STATE] = _make_state(config)
    except LadderError as exc:
        raise pytest.UsageError(f"ladder: {exc}") from None


def _settings_and_run(config: pytest.Config) -> tuple[Any, Any]:
    """The session's settings (with ``--ladder-mode``) and run (the controller's run id on a worker)."""
    from .config import load_settings
    from .history.run import RunContext

    settings = load_settings(config.rootpath)
    mode, base = config.getoption("ladder_mode"), config.getoption("ladder_base")
    settings = settings.replace(mode=mode) if mode else settings
    settings = settings.replace(base=base) if base else settings
    run = RunContext.create("pytest", settings.mode, settings.repo_id)
    workerinput = getattr(config, "workerinput", None)
    if workerinput and workerinput.get(_RUN_ID_KEY):
        run = _with_run_id(run, workerinput[_RUN_ID_KEY])
    return settings, run


def _make_state(config: pytest.Config) -> _State:
    from .errors import WarnOnce
    from .history.pipeline import RunOptions, RunPipeline

    settings, run = _settings_and_run(config)
    workerinput = getattr(config, "workerinput", None)
    access = _access(config, settings)
    warn = WarnOnce(said=access.warnings)
    pipeline = RunPipeline.prepare(settings, "pytest", warn, RunOptions(access=access, run=run))
    pipeline.history  # the history before this session, read once, before any item records
    return _State(settings, run, pipeline, access.record, workerinput is not None, warn,
                  selection=_selection(config, settings.root))


def _selection(config: pytest.Config, root: Path) -> Optional[tuple[str, ...]]:
    """The paths pytest was given (a node id's file), relative to the root; ``None`` when it collects its
    rootdir or ``testpaths`` by default (or is older than 7.2, which cannot tell). A worker takes the
    controller's, so that every process picks the same items whatever xdist hands workers as arguments."""
    from .analysis.discovery import relative_path

    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and _PATHS_KEY in workerinput:
        given = workerinput[_PATHS_KEY]
        return None if given is None else tuple(given)
    sources = getattr(pytest.Config, "ArgsSource", None)
    if sources is None or config.args_source is not sources.ARGS:
        return None
    base = config.invocation_params.dir
    return tuple(relative_path(base / arg.split("::")[0], root)[0] for arg in config.args)


def _access(config: pytest.Config, settings: Any) -> Any:
    """What the session may write: checked once by the controller; workers never record."""
    from .history.preflight import WriteAccess, check_write_access

    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return WriteAccess(record=False, cache=bool(workerinput.get(_CACHE_KEY)))
    return check_write_access(settings, record=not config.getoption("ladder_no_record"),
                              cache=not config.getoption("ladder_no_cache"))


def _with_run_id(run: Any, run_id: str) -> Any:
    import dataclasses

    return dataclasses.replace(run, run_id=run_id)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist controller: give every worker the session's run id and whether to use the cache."""
    state = _state(node.config)
    if state is not None:
        node.workerinput[_RUN_ID_KEY] = state.run.run_id
        node.workerinput[_CACHE_KEY] = state.pipeline.analyzer.cache is not None
        node.workerinput[_PATHS_KEY] = None if state.selection is None else list(state.selection)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: take over a finished worker's events (a crashed one has none)."""
    state = _state(node.config)
    if state is None:
        return
    output = getattr(node, "workeroutput", None) or {}
    if _EVENTS_KEY not in output:
        state.lost_workers.append(str(getattr(node, "gateway", node)))
        return
    from .history.events import event_from_json

    state.events.extend(event_from_json(json.loads(line)) for line in output[_EVENTS_KEY])
    state.skipped.extend(tuple(pair) for pair in output.get("ladder_skipped", []))
    for message in output.get("ladder_warnings", []):
        state.warn(message)


def _collected_tests(items: list[pytest.Item], root: Path,
                     places: dict[str, tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Qualified names of the test functions pytest collected, by file (relative POSIX path).

    A session may hold thousands of tests in a few files: each item costs a dict lookup of its parent (a
    module or a class), whose file and qualifier are worked out once and kept in ``places``."""
    from .analysis.discovery import relative_path

    found: dict[str, set[str]] = {}
    for item in items:
        if not isinstance(item, pytest.Function) or item.parent is None:
            continue
        place = places.get(item.parent.nodeid)
        if place is None:
            outer = [part for part in item.parent.nodeid.split("::")[1:] if part != "()"]  # "()": pytest < 7
            place = places[item.parent.nodeid] = (relative_path(item.path, root)[0],
                                                  "".join(f"{o}." for o in outer))
        found.setdefault(place[0], set()).add(place[1] + item.originalname)
    return {rel: frozenset(names) for rel, names in found.items()}


def _chosen(rel: str, state: _State) -> bool:
    """Whether an analysed file becomes an item: any, unless pytest was given paths; then the files under
    them and those it collected tests from (``--pyargs`` names modules, not paths)."""
    if state.selection is None or rel in state.test_files:
        return True
    return any(path in (".", rel) or rel.startswith(f"{path}/") for path in state.selection)


def _ladder_paths(config: pytest.Config, settings: Any) -> list[str]:
    from .analysis.discovery import default_paths

    if settings.paths:
        return list(settings.paths)
    testpaths = [p for p in config.getini("testpaths") if (settings.root / p).exists()]
    return list(dict.fromkeys(default_paths(settings) + testpaths))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    state = _state(config)
    if state is None:
        return
    from .analysis.discovery import discover
    from .errors import LadderError

    state.test_files = frozenset(_collected_tests(items, state.settings.root, state.places))  # before -k deselects
    try:
        files = discover(_ladder_paths(config, state.settings), state.settings, relative_to_root=True)
    except LadderError as exc:
        raise pytest.UsageError(f"ladder: {exc}") from None
    items.extend(LadderItem.from_parent(session, name="ladder", nodeid=f"{f.rel}::ladder", path=f.path, rel=f.rel)
                 for f in files if _chosen(f.rel, state))
    if state.settings.feedback.grace_days is not None and state.selection is None:
        items.append(FeedbackItem.from_parent(session, name="ladder", nodeid="feedback-ladder::ladder"))
    items.extend(_lint_items(session, state, items))


def _lint_items(session: pytest.Session, state: _State, items: list[pytest.Item]) -> list[pytest.Item]:
    """The configured work logs and knowledge base, each an item; with paths given, those under
    them; a work log pytest collected itself (it was given, or under a directory it walked) is not made twice.
    Nothing of the lint is imported unless one is configured."""
    if not state.settings.worklog.files and state.settings.worklog.kb is None:
        return []
    have = {item.nodeid for item in items}
    found: list[pytest.Item] = [
        WorklogItem.from_parent(session, name="ladder-worklog", nodeid=f"{t.shown}::ladder-worklog", target=t)
        for t in _chosen_logs(state) if f"{t.shown}::ladder-worklog" not in have]
    return found + _kb_items(session, state)


def _chosen_logs(state: _State) -> list[Any]:
    from .worklog.service import log_targets

    settings = state.settings
    return [t for t in (log_targets(settings) if settings.worklog.files else ()) if _chosen(t.shown, state)]


def _kb_items(session: pytest.Session, state: _State) -> list[pytest.Item]:
    from .worklog.service import kb_target

    kb = kb_target(state.settings) if state.settings.worklog.kb is not None else None
    if kb is None or not _chosen(kb.shown, state):
        return []
    return [KbItem.from_parent(session, name="ladder-kb", nodeid=f"{kb.shown}::ladder-kb", target=kb)]


def pytest_collection_finish(session: pytest.Session) -> None:
    """The tests the session runs, once every plugin has deselected (``-k``, ``--deselect``, ``-m``)."""
    state = _state(session.config)
    if state is not None:
        state.collected = _collected_tests(session.items, state.settings.root, state.places)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Optional[pytest.Collector]:
    """A configured work log given to pytest (``pytest --ladder work-log.md``) is collected as its item: pytest
    has no collector of its own for a Markdown file, and would say it is not found."""
    state = _state(parent.config)
    if state is None or not state.settings.worklog.files:
        return None
    from .worklog.service import log_targets

    same = [t for t in log_targets(state.settings) if t.path.name == file_path.name]
    chosen = next((t for t in same if t.path.resolve() == file_path.resolve()), None)
    return WorklogFile.from_parent(parent, path=file_path, target=chosen) if chosen else None


class LadderFailure(Exception):
    """Raised by a ladder item whose file fails the gate; carries the report text."""


class _ReportItem(pytest.Item):
    """An item whose failure is a report of ours (:class:`LadderFailure`), shown as it is, not as a traceback."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_marker("ladder")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, LadderFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class LadderItem(_ReportItem):
    """One analysed file: passes or fails by the gate's decision for its violations."""

    def __init__(self, *, rel: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rel = rel

    def runtest(self) -> None:
        from .analysis.analyzer import HostInput
        from .history.events import events_from_violations

        state = _state(self.config)
        assert state is not None  # items exist only with --ladder
        # a test the session does not run is not judged, even where the file-name heuristics would find one
        collected = HostInput(test_names=state.collected.get(self.rel, frozenset()),
                              collected=self.rel in state.test_files)
        report = state.pipeline.analyzer.source(self.path.read_bytes(), self.rel, collected)
        if report.skipped:
            state.skipped.append((self.rel, report.skipped))
            pytest.skip(f"not analysed: {report.skipped}")
        events = events_from_violations(report.violations, state.run)
        state.events.extend(events)
        gate = state.pipeline.judge(events)
        if gate.failed:
            raise LadderFailure(_failure_text(report, gate))

    def reportinfo(self) -> tuple[Path, Optional[int], str]:
        return self.path, None, f"ladder: {self.rel}"


class FeedbackItem(_ReportItem):
    """``ladder feedback check`` as one item: fails when an item has needed promotion for longer than
    ``[tool.ladder.feedback] grace_days``. It scans without writing the state file."""

    def runtest(self) -> None:
        from .errors import LadderError
        from .tracker.service import Tracker
        from .reports.sanitize import clean

        state = _state(self.config)
        assert state is not None
        tracker = Tracker(state.settings, state.warn)
        try:
            late = tracker.overdue(tracker.scan(dry_run=True)[1])
        except LadderError as exc:
            raise LadderFailure(f"feedback ladder: {exc}") from None
        if late:
            grace = state.settings.feedback.grace_days
            raise LadderFailure("\n".join([f"feedback ladder: {len(late)} past grace_days = {grace}"] + [
                f"  {clean(i.item_id)}: needs promotion since {clean(i.since)} ({i.days} days): {clean(i.topic)}"
                for i in late] + ["what to do: ladder feedback report (the suggested action of each)"]))

    def reportinfo(self) -> tuple[Path, Optional[int], str]:
        return self.config.rootpath, None, "feedback ladder"


class WorklogItem(_ReportItem):
    """``ladder worklog check`` of one configured work log: fails with the lint's lines."""

    what = "work log"

    def __init__(self, *, target: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target

    def checked(self, settings: Any) -> Any:
        from .worklog.service import check_logs

        return check_logs(settings, [self.target])

    def runtest(self) -> None:
        from .errors import LadderError
        from .worklog.output import lint_text

        state = _state(self.config)
        assert state is not None
        try:
            checked = self.checked(state.settings)
        except LadderError as exc:
            raise LadderFailure(f"{self.what}: {exc}") from None
        if checked.failed:
            raise LadderFailure(lint_text(checked.problems, checked.notes, checked.checked, self.what).rstrip())

    def reportinfo(self) -> tuple[Path, Optional[int], str]:
        return self.target.path, None, f"ladder {self.what}: {self.target.shown}"


class WorklogFile(pytest.File):
    """A configured work log pytest was given: it collects the one item of the lint."""

    def __init__(self, *, target: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target

    def collect(self) -> list[pytest.Item]:
        return [WorklogItem.from_parent(self, name="ladder-worklog", target=self.target)]


class KbItem(WorklogItem):
    """``ladder kb check`` of the configured knowledge base."""

    what = "knowledge base"

    def checked(self, settings: Any) -> Any:
        from .worklog.service import check_knowledge_base

        return check_knowledge_base(settings, self.target)


def _failure_text(report: Any, gate: Any) -> str:
    from .reports.sanitize import clean
    from .reports.session import gate_lines

    from .history.gate import advice

    lines = [f"{clean(report.path)}: the ladder gate failed (mode {gate.mode})", "violations:"]
    lines += [f"  {clean(v.path)}:{v.line}: {v.code} {clean(v.message)}" for v in report.violations
              if v.severity == "red"]
    lines += ["gate:"] + [f"  {line}" for line in gate_lines(gate.failures)]
    kinds = sorted({f.event.unit_name is None for f in gate.failures})  # units first, then file rules
    return "\n".join(lines + [f"what to do: {advice(file_rule=kind)}" for kind in kinds])


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = _state(session.config)
    if state is None:
        return
    if state.is_worker:
        session.config.workeroutput[_EVENTS_KEY] = [e.to_json() for e in state.events]  # type: ignore[attr-defined]
        session.config.workeroutput["ladder_skipped"] = [list(p) for p in state.skipped]  # type: ignore[attr-defined]
        session.config.workeroutput["ladder_warnings"] = state.warn.said  # type: ignore[attr-defined]
        return
    state.outcome = state.pipeline.finish(state.events, record=state.record)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = _state(config)
    if state is None or state.is_worker or state.outcome is None:
        return
    from .reports.session import session_summary

    terminalreporter.write_sep("=", "ladder")
    for line in session_summary(state):
        terminalreporter.write_line(line)
