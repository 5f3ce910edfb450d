"""``ladder history stats|prune|rebuild|combine``: look after the history."""

from __future__ import annotations

import argparse
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..catalogue import plural
from ..errors import LadderError
from .common import EXIT_OK, command_group, warn

__all__ = ["add_parsers", "COMMANDS"]

#: each action's help and examples; the group's --help lists every action's examples
_ACTION_HELP = {
    "stats": ("size, events, oldest/newest, unreadable lines, schema",
              "  ladder history stats                       size, events, oldest/newest, unreadable lines"),
    "prune": ("apply retention and the size cap now",
              "  ladder history prune                       apply retention and the size cap now"),
    "rebuild": ("rebuild summaries.json from the log and folded.json",
                "  ladder history rebuild                     rebuild summaries.json from the log"),
    "combine": ("merge other events.jsonl files into this project's log",
                "  ladder history combine ci-*/events.jsonl   merge logs from CI runners (dedupe by event_id)\n"
                "  ladder history combine --force other/events.jsonl   also records of another project"),
}
#: the actions that write the history: refused where no project was found, rather than writing a .ladder there
_WRITING = ("prune", "rebuild", "combine")


def add_parsers(sub: Any) -> None:
    parsers = command_group(sub, "history", _ACTION_HELP)
    parsers["combine"].add_argument("files", nargs="+", metavar="FILE", help="events.jsonl files of other runs")
    parsers["combine"].add_argument("--force", action="store_true", help="combine records of another project too")


def _stats(store: Any, args: argparse.Namespace) -> None:
    st = store.stats()
    newer = " (a newer version wrote this history: read-only)" if st.newer_schema else ""
    print(f"history: {st.path}")
    print(f"size: {st.size} bytes, events: {st.events}, fingerprints: {st.fingerprints}")
    print(f"oldest: {st.oldest or '-'}, newest: {st.newest or '-'}")
    lines = ", ".join(f"{n} of schema {version}" for version, n in st.lines_by_schema.items()) or "none"
    print(f"unreadable lines: {st.skipped_lines}, schema: {st.schema_version}{newer} (lines: {lines})")
    if st.unresolved:
        print(f"sightings of observations no event describes: {st.unresolved} (a damaged or hand-made log)")
    print(f"folded (pruned) fingerprints: {st.folded_fingerprints}")


def _combine(store: Any, args: argparse.Namespace) -> None:
    added, duplicates, unreadable = store.combine([Path(f) for f in args.files], force=args.force)
    print(f"combined {plural(len(args.files), 'file')}: {plural(added, 'new event')}, "
          f"{plural(duplicates, 'duplicate')} skipped, {plural(unreadable, 'unreadable line')} skipped")


def _prune(store: Any, args: argparse.Namespace) -> None:
    from ..history.run import now_utc

    with _writable(store) as state:
        changed = store.prune(state, now_utc(), force=True)
    print(f"pruned {store.log}" if changed else "nothing to prune")


def _rebuild(store: Any, args: argparse.Namespace) -> None:
    from ..history.aggregate import Aggregate

    with _writable(store) as loaded:
        loaded.aggregate.take(Aggregate(store.track_runs))  # one history in memory: the rebuilt one
        store.summary_path.unlink(missing_ok=True)
        state = store.load()
    print(f"rebuilt {store.summary_path}: {state.aggregate.events} events, "
          f"{len(state.aggregate.fingerprints)} fingerprints, {state.skipped} unreadable lines")


@contextmanager
def _writable(store: Any) -> Iterator[Any]:
    """Hold the history's lock and give the history loaded under it; one that cannot be written is a
    usage error."""
    with store.transaction(quiet=True) as tx:
        if tx.read_only or tx.state is None:
            raise LadderError(tx.refusal or f"cannot write {store.dir} (see the warning above)")
        yield tx.state


_ACTIONS = {"stats": _stats, "combine": _combine, "prune": _prune, "rebuild": _rebuild}


def _history(args: argparse.Namespace) -> int:
    from ..config import load_settings, no_project
    from ..history.store import HistoryStore

    settings = load_settings(Path.cwd())
    if args.action in _WRITING and not settings.in_project:
        raise LadderError(f"{no_project(settings.root)}: no history is kept here, so there is nothing to "
                          f"{args.action}; run it from inside the project")
    store = HistoryStore(settings, warn=warn)
    _ACTIONS[args.action](store, args)
    return EXIT_OK


COMMANDS = {"history": _history}
