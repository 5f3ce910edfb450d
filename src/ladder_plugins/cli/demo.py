"""``ladder demo``: the whole loop on a bundled example project, in a temporary copy.

Day 1 the complex ``price`` function is checked (first sighting: noted, not
failed); it is edited without being fixed and checked again; on day 2 a third
version still violates and the gate fails on that recurring hotspot, while the
equally complex but untouched ``legacy_report`` never does. Then the summary and the
agent brief. The clock is simulated with ``LADDER_NOW`` for these runs only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from .common import command

__all__ = ["run_demo", "check_project", "add_parsers", "COMMANDS"]

_STEPS = (
    ("day 1, 09:00: first check of the shop", "2026-11-02T09:00:00Z", None),
    ("day 1, 15:00: price() is edited (a new discount rate), still too complex",
     "2026-11-02T15:00:00Z", ("amount *= 0.9\n", "amount *= 0.88\n")),
    ("day 2, 10:00: price() is edited again, still too complex",
     "2026-11-03T10:00:00Z", ("amount -= coupon.amount\n", "amount -= min(coupon.amount, amount)\n")),
)


def check_project(root: Path, now: str) -> tuple[int, str, object]:
    """``ladder check`` on ``root`` at time ``now``: (exit status, text, outcome), through the run pipeline
    every front end uses (no cache: a demo leaves nothing behind but its copy's history)."""
    from ..analysis.discovery import default_paths
    from ..config import load_settings
    from ..errors import WarnOnce
    from ..history.pipeline import RunOptions, RunPipeline
    from ..history.run import NOW_ENV, RUN_ID_ENV, RunContext
    from ..reports.findings import check_text

    settings = load_settings(root)
    # each check its own run, as separate commands are, whatever LADDER_RUN_ID the caller's environment holds
    environ = {**{k: v for k, v in os.environ.items() if k != RUN_ID_ENV}, NOW_ENV: now}
    run = RunContext.create("cli", settings.mode, settings.repo_id, environ=environ)
    # the story is the log's: a copy that happens to sit in a work tree reads no git
    pipeline = RunPipeline.prepare(settings, "cli", WarnOnce(), RunOptions(use_cache=False, run=run, git=False))
    result = pipeline.analyzer.paths([root / p for p in default_paths(settings)], cwd=root)
    outcome = pipeline.finish_violations(result.violations, record=True)
    return (1 if outcome.failed else 0), check_text(result, outcome, settings), outcome


def _copy_project(target: Path) -> Path:
    source = resources.files("ladder_plugins").joinpath("demo_project")
    with resources.as_file(source) as folder:
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _story(root: Path, echo: Callable[[str], None]) -> tuple[list[int], Any]:
    """The three checks, with the edits between them; (exit statuses, last outcome)."""
    statuses, outcome = [], None
    for title, now, edit in _STEPS:
        if edit:
            pricing = root / "src" / "shop" / "pricing.py"
            pricing.write_text(pricing.read_text().replace(*edit))
        status, text, outcome = check_project(root, now)
        statuses.append(status)
        echo(f"== {title}\n$ ladder check   (exit status {status})\n{text}\n")
    return statuses, outcome


def _epilogue(root: Path, echo: Callable[[str], None]) -> None:
    from ..config import load_settings
    from ..history.run import parse_timestamp
    from ..history.store import HistoryStore
    from ..history.recurrence import hotspots
    from ..history.view import build_view, current_state
    from ..reports.brief import make_brief
    from ..reports.summary import summary_text

    settings = load_settings(root)
    aggregate, now = HistoryStore(settings).peek(), parse_timestamp(_STEPS[-1][1])
    current = current_state(settings, {r.path for r in hotspots(aggregate, settings, now)})
    view = build_view(aggregate, settings, now, current)
    echo("== the history\n$ ladder summary\n" + summary_text(view) + "\n")
    echo("== what an agent is told\n$ ladder brief\n" + make_brief(view))


def run_demo(echo: Callable[[str], None] = print, keep: bool = False) -> int:
    """Run the story; 0 when the gate behaved as designed."""
    root = _copy_project(Path(tempfile.mkdtemp(prefix="ladder-demo-")) / "shop")
    echo(f"ladder demo: a copy of the example project in {root}\n")
    try:
        statuses, outcome = _story(root, echo)
        _epilogue(root, echo)
    finally:
        if not keep:
            shutil.rmtree(root.parent, ignore_errors=True)
    as_designed = statuses == [0, 0, 1] and {f.event.unit_name for f in outcome.gate.failures} == {"price"}
    echo("the gate failed on the recurring hotspot price() and left the untouched legacy_report() alone"
         if as_designed else "the demo did not behave as designed: please report this")
    return 0 if as_designed else 1


def add_parsers(sub: Any) -> None:
    examples = ("  ladder demo                         the whole loop on a bundled example, in a temporary copy\n"
                "  ladder demo --keep                  keep the copy to look around afterwards")
    command(sub, "demo", examples).add_argument(
        "--keep", action="store_true", help="keep the temporary copy")


def _demo(args: argparse.Namespace) -> int:
    return run_demo(keep=args.keep)


COMMANDS = {"demo": _demo}
