"""The history store under concurrency, faults and hostile layouts (real processes)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import subprocess
import sys
import textwrap

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.history.aggregate import Aggregate
from ladder_plugins.history.events import SCHEMA_VERSION
from ladder_plugins.history.recorder import record_events
from ladder_plugins.history.recurrence import hotspots, patterns, recurrences
from ladder_plugins.history.run import RunContext, format_timestamp
from ladder_plugins.history.store import HistoryStore

from tests.helpers.history import at, make_event, project_settings, represented
from tests.helpers.paths import REPO


WORKER = textwrap.dedent(
    """
    import sys
    from datetime import datetime, timedelta, timezone
    from ladder_plugins.config import load_settings
    from ladder_plugins.history.events import SCHEMA_VERSION, Event
    from ladder_plugins.history.run import format_timestamp
    from ladder_plugins.history.store import HistoryStore

    root, worker, batches, per_batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    store = HistoryStore(load_settings(root), lock_timeout=120)
    day0 = datetime(2026, 11, 1, tzinfo=timezone.utc)
    for b in range(batches):
        when = day0 + timedelta(days=b % 20, seconds=worker)
        events = [
            Event(SCHEMA_VERSION, f"w{worker}-b{b}-{i}", format_timestamp(when), "repo", f"run-{worker}-{b}",
                  "cli", "recurrence", f"src/m{worker}.py", f"f{i % 7}", 1, "app", "cognitive_max",
                  "complexity", "unit", "red", 20.0, 15.0, 5.0, f"src/m{worker}.py::f{i % 7}::cognitive_max",
                  f"h{b % 5}", "built-in-metric")
            for i in range(per_batch)
        ]
        with store.transaction() as tx:
            if tx.read_only:
                sys.exit("read-only: " + "; ".join(store.warnings))
            tx.append(events, now=when)
    """
)


def _spawn_writers(root, workers, batches, per_batch):
    script = root / "writer.py"
    script.write_text(WORKER)
    procs = [
        subprocess.Popen([sys.executable, str(script), str(root), str(w), str(batches), str(per_batch)],
                         stderr=subprocess.PIPE, text=True)
        for w in range(workers)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err


def _log_lines(settings):
    return (settings.root / ".ladder" / "history" / "events.jsonl").read_bytes().split(b"\n")


def test_eight_concurrent_writers_lose_duplicate_and_interleave_nothing(tmp_path):
    settings = project_settings(tmp_path)
    _spawn_writers(tmp_path, workers=8, batches=25, per_batch=40)
    lines = [line for line in _log_lines(settings) if line]
    ids = [json.loads(line)["event_id"] for line in lines]  # every line parses
    assert len(set(ids)) == len(ids)
    assert represented(HistoryStore(settings).read_log(0).events) == 8 * 25 * 40  # unchanged ones as sightings
    store = HistoryStore(settings)
    state = store.load()
    assert state.aggregate.events == 8000 and state.skipped == 0


def test_pruning_races_with_appenders_and_loses_nothing(tmp_path):
    settings = project_settings(tmp_path, "[tool.ladder.history]\nmax_mb = 0.02\n")
    _spawn_writers(tmp_path, workers=6, batches=40, per_batch=10)
    store = HistoryStore(settings)
    state = store.load()
    folded, generation, _ = store.folded()
    assert generation > 0, "the size cap never forced a prune"
    assert folded.events + represented(store.read_log(0).events) == 6 * 40 * 10
    assert state.aggregate.events == 6 * 40 * 10
    for worker in range(6):
        for i in range(7):
            stats = state.aggregate.fingerprints[f"src/m{worker}.py::f{i}::cognitive_max"]
            assert set(stats.hashes) == {f"h{b}" for b in range(5)}


def _six_units_over_thirty_days():
    """Unit n gets a new version every n+1 days: some become hotspots, some do not."""
    return [make_event(f"src/pkg/m{n}.py::f::cognitive_max", unit_hash=f"v{day // (n + 1)}", when=at(day, n))
            for day in range(30) for n in range(6)]


def _append_day_by_day(store, events, days):
    for day in range(days):
        prefix = at(day).date().isoformat()
        with store.transaction() as tx:
            tx.append([e for e in events if e.timestamp.startswith(prefix)], now=at(day, 23))


def test_size_cap_keeps_hotspots_and_patterns_exact(tmp_path):
    capped = project_settings(tmp_path, "[tool.ladder.history]\nmax_mb = 0.01\n")
    events = _six_units_over_thirty_days()
    store = HistoryStore(capped)
    _append_day_by_day(store, events, 30)
    assert store.folded()[1] > 0, "the cap never forced a fold"
    stored, reference, now = store.load().aggregate, Aggregate().add_all(events), at(30)
    assert hotspots(stored, capped, now) == hotspots(reference, capped, now)
    assert patterns(stored, capped, now) == patterns(reference, capped, now)
    assert len(hotspots(reference, capped, now)) >= 3


def test_retention_prunes_old_events_without_changing_recurrence(tmp_path):
    settings = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 10\n")
    store = HistoryStore(settings)
    old = [make_event(unit_hash="legacy", when=at(0))]
    with store.transaction() as tx:
        tx.append(old, now=at(0))
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="legacy", when=at(20))], now=at(20))
    # the first run after the pause goes by the history's time (its clock could be ahead); the next one prunes
    assert [e.timestamp[:10] for e in store.read_log(0).events] == ["2026-11-01", "2026-11-21"]
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="legacy", when=at(21))], now=at(21))
    assert [e.timestamp[:10] for e in store.read_log(0).events] == ["2026-11-21", "2026-11-22"]
    stats = store.load().aggregate.fingerprints["src/a.py::f::cognitive_max"]
    assert stats.hashes["legacy"][0].startswith("2026-11-01")  # still known as first seen long ago


def _expected_after_cut(events, extra, full, cut, last_start):
    """What a reader must see after the log was cut at ``cut`` and ``extra`` appended."""
    only_newline_missing = cut == len(full) - 1  # a whole record: terminating it recovers it
    ids = [e.event_id for e in events[:2] + (events[2:] if only_newline_missing else []) + [extra]]
    torn = cut not in (last_start, len(full) - 1)
    return ids, (1 if torn else 0), torn


def _cut_then_append(store, full, cut):
    """Cut the log at ``cut``, read it, append one event; returns (ids before, extra, reread)."""
    store.log.write_bytes(full[:cut])
    before = [e.event_id for e in store.read_log(0).events]
    extra = make_event(unit_hash="after")
    store.log_file.append([extra])
    assert json.loads(store.log.read_bytes().split(b"\n")[-2])["event_id"] == extra.event_id  # a fresh line
    return before, extra, store.read_log(0)


def test_torn_last_line_at_every_offset(tmp_path):
    store = HistoryStore(project_settings(tmp_path))
    events = [make_event(unit_hash=f"v{i}") for i in range(3)]
    with store.transaction() as tx:
        tx.append(events)
    full = store.log.read_bytes()
    last_start = full.rstrip(b"\n").rfind(b"\n") + 1
    for cut in range(last_start, len(full)):
        before, extra, reread = _cut_then_append(store, full, cut)
        assert before == [e.event_id for e in events[:2]]
        ids, skipped, torn = _expected_after_cut(events, extra, full, cut, last_start)
        assert ([e.event_id for e in reread.events], reread.skipped) == (ids, skipped)
        assert not torn or full[last_start:cut] + b"\n" in store.log.read_bytes()  # the fragment is kept


def test_a_writer_killed_mid_append_leaves_every_complete_record(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    victim = textwrap.dedent(
        """
        import os, signal, sys
        log = sys.argv[1]
        fd = os.open(log, os.O_WRONLY | os.O_APPEND)
        os.write(fd, b'{"schema_version":1,"event_id":"half')
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    done = subprocess.run([sys.executable, "-c", victim, str(store.log)])
    assert done.returncode == -9
    assert len(store.read_log(0).events) == 1
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v2")])
    read = store.read_log(0)
    assert len(read.events) == 2 and read.skipped == 1


HOLDER = textwrap.dedent(
    """
    import sys, time
    from filelock import FileLock
    lock = FileLock(sys.argv[1])
    lock.acquire()
    print("held", flush=True)
    time.sleep(30)
    """
)


def test_a_held_lock_makes_the_writer_give_up_with_one_warning(tmp_path):
    """Another process holds the lock for 30 s: the writer gives up (after ~2 s), no hang."""
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store.lock_path)], stdout=subprocess.PIPE, text=True)
    writer = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(REPO)!r})
        from tests.helpers.history import make_event
        from ladder_plugins.config import load_settings
        from ladder_plugins.history.recorder import record_events
        from ladder_plugins.history.run import RunContext
        out = record_events([make_event()], load_settings(sys.argv[1]), RunContext.create("cli", "recurrence", "r"))
        print(out.recorded)
        print("\\n".join(out.warnings))
        """
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        done = subprocess.run([sys.executable, "-c", writer, str(tmp_path)], capture_output=True, text=True,
                              timeout=25)  # far below the holder's 30 s: a hang fails here
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 0, done.stderr
    recorded, *warnings = done.stdout.strip().splitlines()
    assert recorded == "0"
    assert len(warnings) == 1 and "locked by another process" in warnings[0]
    assert not store.log.exists()


def _run_with(settings, events):
    run = RunContext.create("cli", "recurrence", "repo")
    return record_events(events, settings, run)


def _copy_history(source_root, target_root):
    """A second project with the same history, to run the same check without faults."""
    target = target_root / ".ladder" / "history"
    target.mkdir(parents=True)
    (target / "events.jsonl").write_bytes((source_root / ".ladder" / "history" / "events.jsonl").read_bytes())
    return project_settings(target_root)


def _failing_log_writes(monkeypatch, code, text):
    real_write = os.write

    def failing_write(fd, data):
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")) == "events.jsonl":
            raise OSError(code, text)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", failing_write)


@pytest.mark.parametrize(
    "code, text",
    [(errno.ENOSPC, "No space left on device"), (errno.EACCES, "Permission denied"), (errno.EROFS, "Read-only file system")],
    ids=["disk full", "permission denied", "read-only"],
)
def test_write_failures_are_one_warning_and_do_not_change_the_result(tmp_path, monkeypatch, code, text):
    settings = project_settings(tmp_path)
    with HistoryStore(settings).transaction() as tx:
        tx.append([make_event(unit_hash=f"v{i}", when=at(i // 2, i)) for i in range(2)])
    run_events = [make_event(unit_hash="v9", when=at(1, 5))]
    monkeypatch.setenv("LADDER_NOW", at(1, 6).isoformat())
    expected = _run_with(_copy_history(tmp_path, tmp_path / "baseline"), run_events)
    assert expected.failed and not expected.warnings
    _failing_log_writes(monkeypatch, code, text)
    outcome = _run_with(settings, run_events)
    assert [f.text for f in outcome.gate.failures] == [f.text for f in expected.gate.failures]
    assert len(outcome.warnings) == 1 and text in outcome.warnings[0]


def test_history_location_that_cannot_be_created_is_one_warning(tmp_path):
    settings = project_settings(tmp_path)
    (tmp_path / ".ladder").write_text("not a directory")
    outcome = _run_with(settings, [make_event()])
    assert outcome.recorded == 0 and len(outcome.warnings) == 1 and "cannot create" in outcome.warnings[0]
    assert (tmp_path / ".ladder").read_text() == "not a directory"


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("link", [".ladder", ".ladder/history", ".ladder/history/events.jsonl"])
def test_symlinks_pointing_outside_the_root_are_never_followed(tmp_path, link):
    project = tmp_path / "project"
    outside = tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "events.jsonl").write_text('{"precious": true}\n')
    settings = project_settings(project)
    target = project / link
    target.parent.mkdir(parents=True, exist_ok=True)
    if link.endswith(".jsonl"):
        target.symlink_to(outside / "events.jsonl")
    else:
        target.symlink_to(outside, target_is_directory=True)
    before = {p.name: _digest(p) for p in outside.iterdir()}
    outcome = _run_with(settings, [make_event()])
    after = {p.name: _digest(p) for p in outside.iterdir()}
    assert before == after
    assert outcome.recorded == 0 and any("outside the project root" in w for w in outcome.warnings)


def test_unreadable_lines_are_skipped_counted_and_kept(tmp_path):
    """Counted while in the log; pruning goes on without them and keeps the old log whole, aside."""
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(when=at(0))])
    garbage = b"not json\n{\"schema_version\": 1}\n\xff\xfe\n" + b"[" * 100_000 + b"\n"
    with store.log.open("ab") as handle:
        handle.write(garbage)
    with store.transaction() as tx:
        tx.append([make_event(when=at(1))])
    assert store.stats().skipped_lines == 4
    assert store.prune(store.load(), at(1), force=True)
    [kept] = store.dir.glob("events.jsonl.damaged-*")
    assert garbage in kept.read_bytes() and b"not json" not in store.log.read_bytes()
    assert store.stats().events == 2 and store.stats().skipped_lines == 0


def test_without_hard_links_pruning_copies_the_unreadable_lines_aside(tmp_path, monkeypatch):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(when=at(0))])
    with store.log.open("ab") as handle:
        handle.write(b"not json\n")

    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    assert store.prune(store.load(), at(1), force=True)
    [kept] = store.dir.glob("events.jsonl.damaged-*")
    assert kept.read_bytes() == b"not json\n" and store.stats().events == 1


def _log_of_schema(settings, version):
    """A store whose log holds one event of ``src/a.py::f`` as schema ``version`` wrote it; the log's bytes."""
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    line = make_event(unit_hash="v1", when=at(0)).to_json()
    line = line.replace(f'"schema_version":{SCHEMA_VERSION}', f'"schema_version":{version}')
    store.log.write_text((line.replace(',"hash_version":1', "") if version == 1 else line) + "\n")
    return store, store.log.read_bytes()


def test_a_newer_schema_log_is_read_but_never_rewritten(tmp_path):
    settings = project_settings(tmp_path)
    store, before = _log_of_schema(settings, 99)
    outcome = _run_with(settings, [make_event(unit_hash="v2", when=at(1))])
    assert store.log.read_bytes() == before
    assert outcome.recorded == 0 and any("newer ladder-plugins" in w for w in outcome.warnings)
    assert store.peek().fingerprints["src/a.py::f::cognitive_max"].hashes.keys() == {"v1"}


def test_a_damaged_summary_is_set_aside_and_rebuilt(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    store.summary_path.write_text("{{{ not json")
    fresh = HistoryStore(settings)
    state = fresh.load()
    assert state.aggregate.events == 1
    assert len(fresh.warnings) == 1 and "damaged" in fresh.warnings[0]
    kept = list(store.dir.glob("summaries.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{{{ not json"
    assert json.loads(store.summary_path.read_text())["aggregate"]["events"] == 1


def test_summary_catches_up_incrementally(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    with store.log.open("a") as handle:  # another tool appended after the summary was written
        handle.write(make_event(unit_hash="v2").to_json() + "\n")
    offset = json.loads(store.summary_path.read_text())["log"]["offset"]
    state = HistoryStore(settings).load()
    assert state.aggregate.events == 2 and state.end > offset
    assert json.loads(store.summary_path.read_text())["log"]["offset"] == state.end


def test_a_reader_saves_the_catch_up_once_the_writers_only_appended(tmp_path):
    """flake8's workers append without saving the summary: the next reader reads those lines once,
    saves the catch-up when the lock is free, and the reader after it reads no line of the log."""
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    for n in range(3):
        store.append_events([make_event(f"src/m{n}.py::f::abc_max", unit_hash="w")], now=at(0))
    stale = json.loads(store.summary_path.read_text())["log"]["offset"]
    assert HistoryStore(settings).peek().events == 4
    saved = json.loads(store.summary_path.read_text())["log"]["offset"]
    assert saved > stale and saved == store.log.stat().st_size
    assert HistoryStore(settings).load(save=False).end == saved


def test_a_reader_never_waits_for_the_lock_to_save_the_catch_up(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    store.append_events([make_event("src/b.py::g::abc_max", unit_hash="w")], now=at(0))
    before = store.summary_path.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store.lock_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        reader = HistoryStore(settings, lock_timeout=60)
        assert reader.peek().events == 2
    finally:
        holder.kill()
        holder.wait()
    assert store.summary_path.read_bytes() == before and reader.warnings == []


def _runner_logs(tmp_path):
    """Two CI runners' logs that share two events."""
    runner_a = [make_event("src/a.py::f::abc_max", unit_hash=f"v{i}", when=at(i)) for i in range(3)]
    runner_b = runner_a[1:] + [make_event("src/b.py::g::abc_max", unit_hash=f"w{i}", when=at(i)) for i in range(3)]
    files = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for path, events in zip(files, (runner_a, runner_b)):
        path.write_text("".join(e.to_json() + "\n" for e in events))
    return files


def _combine_into_new_project(root, files):
    root.mkdir()
    settings = project_settings(root)
    store = HistoryStore(settings)
    counts = (store.combine(files, force=True), store.combine(files, force=True))  # runners of another name
    return counts, [(h.fingerprint, h.occurrences, h.days) for h in hotspots(store.peek(), settings, at(4))]


def test_combine_deduplicates_by_event_id_and_is_order_independent(tmp_path):
    files = _runner_logs(tmp_path)
    counts, forward = _combine_into_new_project(tmp_path / "forward", files)
    assert counts == ((6, 2, 0), (0, 8, 0))  # the shared events once; a second combine adds nothing
    _, backward = _combine_into_new_project(tmp_path / "backward", files[::-1])
    assert forward == backward and len(forward) == 2


# -- schema 2: an unchanged run is a sighting, not a copy of every event -------------------------------


def _unchanged_runs(settings, count, per_run=200, **extra):
    """``count`` runs seeing the same ``per_run`` violations; the log's size after each."""
    sizes = []
    for n in range(count):
        run = [make_event(f"src/m{i % 20}.py::f{i}::cognitive_max", unit_hash=f"h{i}", run_id=f"run-{n}",
                          when=at(n), **extra) for i in range(per_run)]
        record_events(run, settings, RunContext.create("cli", "recurrence", "repo"))
        sizes.append(HistoryStore(settings).log.stat().st_size)
    return sizes


def test_a_run_on_unchanged_code_appends_a_small_fraction_of_a_full_run(tmp_path):
    settings = project_settings(tmp_path)
    first, second, third = _unchanged_runs(settings, 3)
    assert second - first <= 0.05 * first and third - second == second - first
    records = HistoryStore(settings).read_log(0).events
    assert [type(r).__name__ for r in records].count("Sighting") == 2 and represented(records) == 600
    stats = HistoryStore(settings).load().aggregate.fingerprints["src/m0.py::f0::cognitive_max"]
    assert (stats.events, stats.first_seen[:10], stats.last_seen[:10]) == (3, "2026-11-01", "2026-11-03")


def test_counting_runs_stays_exact_with_sightings(tmp_path):
    settings = project_settings(tmp_path, '[tool.ladder.recurrence]\ncount = "runs"\n')
    _unchanged_runs(settings, 3, per_run=5)
    (rec, *_) = recurrences(HistoryStore(settings).load().aggregate, settings, at(4))
    assert (rec.occurrences, rec.distinct_days) == (3, 3)


def test_sightings_resolve_after_the_events_they_name_were_pruned(tmp_path):
    settings = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 30\n")
    _unchanged_runs(settings, 3, per_run=5)
    store = HistoryStore(settings)
    before = store.load().aggregate.to_json()["fingerprints"]
    with store.transaction() as tx:  # fold the day of the full events only
        tx.append([make_event("src/z.py::g::abc_max", when=at(31))], now=at(31))
    folded, generation, _ = store.folded()
    assert generation == 1 and folded.events == 5  # day 0 (the events) folded; the sightings of days 1-2 kept
    after = HistoryStore(settings).load().aggregate
    assert after.unresolved == 0
    assert {fp: s for fp, s in after.to_json()["fingerprints"].items() if fp in before} == before


def test_a_schema_1_log_is_read_and_extended_never_rewritten(tmp_path):
    settings = project_settings(tmp_path)
    store, before = _log_of_schema(settings, 1)
    _run_with(settings, [make_event(unit_hash="v2", when=at(1))])
    assert store.log.read_bytes().startswith(before)
    assert store.stats().lines_by_schema == {1: 1, 2: 1}
    assert set(store.load().aggregate.fingerprints["src/a.py::f::cognitive_max"].hashes) == {"v1", "v2"}


def _runner_and_target(tmp_path, names: tuple[str, str], runs: int, per_run: int):
    """A project that recorded ``runs`` unchanged runs, and an empty one to combine its log into."""
    for name in names:
        (tmp_path / name).mkdir()
    runner = project_settings(tmp_path / names[0])
    _unchanged_runs(runner, runs, per_run=per_run)
    return runner, project_settings(tmp_path / names[1])


def test_combine_appends_sightings_as_written_and_only_once(tmp_path):
    runner, target = _runner_and_target(tmp_path, ("ci", "laptop"), 2, 4)
    log = HistoryStore(runner).log
    assert HistoryStore(target).combine([log], force=True) == (5, 0, 0)  # 4 events and 1 sighting
    assert HistoryStore(target).combine([log], force=True) == (0, 5, 0)
    assert HistoryStore(target).log.read_bytes() == log.read_bytes()
    assert HistoryStore(target).load().aggregate.events == 8


def test_a_sighting_of_an_unknown_observation_is_counted_not_guessed(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    store.log.write_text('{"schema_version":2,"kind":"seen","event_id":"x","timestamp":"2026-11-01T09:00:00Z",'
                         '"run_id":"r","tool":"cli","mode":"recurrence","refs":"AAAAAAAAAAABBBBBBBBBBB"}\n'
                         '{"schema_version":2,"kind":"seen","event_id":"y","timestamp":"2026-11-01T09:00:00Z",'
                         '"run_id":"r","tool":"cli","mode":"recurrence","refs":"short"}\n')
    assert (store.stats().unresolved, store.stats().skipped_lines) == (2, 1)
    assert store.load().aggregate.fingerprints == {}


_FOLD = '{"schema_version":2,"generation":%s,"aggregate":{"events":%s,"fingerprints":{"src/a.py::f::abc_max":{"path":"src/a.py","unit":"f","rule_key":"abc_max","role":"app","family":"complexity","first_seen":"2026-11-01T00:00:00.000000Z","last_seen":"2026-11-01T00:00:00.000000Z","hashes":%s,"observations":%s}}}}'
_BAD_FOLDS = {
    "a version span of one item": _FOLD % ("1", "0", '{"h":["2026-11-01T00:00:00Z"]}', "{}"),
    "an observation of one item": _FOLD % ("1", "0", "{}", '{"AAAAAAAAAAA":["v"]}'),
    "an infinite count": _FOLD % ("1", "Infinity", "{}", "{}"),
    "a generation that is text": _FOLD % ('"x"', "0", "{}", "{}"),
    "a pending sighting of two items": _FOLD.replace('"aggregate":{', '"aggregate":{"pending":{"k":[["t","r"]]},')
    % ("1", "0", "{}", "{}"),
    "a schema version that is text": _FOLD.replace('"schema_version":2', '"schema_version":"abc"') % (
        "1", "0", "{}", '{"k":[]}'),
}


@pytest.mark.parametrize("damage", sorted(_BAD_FOLDS))
def test_a_fold_with_values_of_the_wrong_shape_is_kept_not_a_crash(tmp_path, damage):
    """A fold that is damaged as a whole is set aside; one whose entry is of the wrong shape is read without
    that entry and left as it is (tests/test_stored_shapes.py follows it through pruning)."""
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    store.folded_path.write_text(_BAD_FOLDS[damage])
    assert store.load().aggregate.fingerprints == {}
    aside = any(p.name.startswith("folded.json.damaged-") for p in store.dir.iterdir())
    skipped = [w for w in store.warnings if "not of the expected shape" in w]
    assert aside or (len(skipped) == 1 and store.folded_path.read_text() == _BAD_FOLDS[damage])


def test_log_lines_with_numbers_or_times_out_of_range_are_skipped_not_a_crash(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    good = make_event(when=at(0)).to_json()
    lines = [good.replace('"actual":20.0', '"actual":1' + "0" * 400 + ".5"),
             good.replace('"actual":20.0', '"actual":1e999'),
             good.replace(format_timestamp(at(0)), "0001-01-01T00:00:00+01:00"),
             '{"schema_version":2,"kind":"seen","event_id":"x","timestamp":"0001-01-01T00:00:00+01:00",'
             '"run_id":"r","refs":""}', good]
    store.log.write_text("\n".join(lines) + "\n")
    state = store.load()
    assert state.aggregate.events >= 1 and state.skipped >= 2


def _events_and_sightings(records):
    sightings = [r for r in records if hasattr(r, "refs")]
    return [r for r in records if r not in sightings], sightings


def test_a_sighting_combined_before_its_event_counts_once_the_event_arrives(tmp_path):
    """Logs combined in either order give the same history: the gate does not depend on combine order."""
    for name in ("ci", "laptop-a", "laptop-b"):
        (tmp_path / name).mkdir()
    runner = project_settings(tmp_path / "ci", '[tool.ladder.recurrence]\ncount = "runs"\n')
    _unchanged_runs(runner, 3, per_run=3)
    events, sightings = _events_and_sightings(HistoryStore(runner).read_log(0).events)
    forward = Aggregate(True).add_all(events + sightings)
    backward = Aggregate(True).add_all(sightings + events)
    assert backward.unresolved == 0 and backward.to_json() == forward.to_json()
    halves = Aggregate(True).add_all(sightings).merge(Aggregate(True).add_all(events))
    assert halves.to_json() == forward.to_json()


def test_the_day_counts_do_not_depend_on_how_a_runs_appends_interleave(tmp_path):
    s = project_settings(tmp_path)
    a = make_event("src/a.py::f::abc_max", run_id="r1", when=at(0, 1))
    b = make_event("src/b.py::f::abc_max", run_id="r2", when=at(0, 2))
    c = make_event("src/c.py::f::abc_max", run_id="r1", when=at(0, 3))
    days = {tuple(recurrence_trend(order, s)) for order in ([a, b, c], [a, c, b], [c, b, a], [b, a, c])}
    assert days == {(("2026-11-01", (("occurrences", 3), ("red", 2), ("yellow", 0))),)}


def recurrence_trend(events, settings):
    from ladder_plugins.history.recurrence import trend

    return [(day, tuple(sorted(counts.items()))) for day, counts in trend(Aggregate().add_all(events), settings, at(1))]


def test_a_log_that_starts_within_retention_is_not_surveyed_on_every_write(tmp_path, monkeypatch):
    import ladder_plugins.history.pruning as pruning_module

    settings = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 30\n")
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(when=at(0)), make_event(unit_hash="h2", when=at(40))], now=at(40))  # folds day 0
    surveys = []
    monkeypatch.setattr(pruning_module, "survey", lambda *args: surveys.append(args) or pruning_module.Survey())
    for day in (41, 42, 43):
        HistoryStore(settings).append_events([make_event(unit_hash=f"d{day}", when=at(day))], now=at(day))
    assert surveys == []


def _day_0_and_40_then(tmp_path, tail: bytes):
    """A 30-day-retention store holding events of day 0 and day 40, then ``tail`` appended raw."""
    settings = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 30\n")
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(when=at(0)), make_event(unit_hash="h2", when=at(40))])
    with store.log.open("ab") as handle:
        handle.write(tail)
    return settings, store


def test_pruning_keeps_a_torn_last_line_with_the_old_log(tmp_path):
    _, store = _day_0_and_40_then(tmp_path, b'{"schema_version":2,"event_id":"torn')
    with store.transaction() as tx:
        assert store.prune(tx.state, at(40), force=True)
    (kept,) = [p for p in store.dir.iterdir() if p.name.startswith("events.jsonl.damaged-")]
    assert kept.read_bytes().endswith(b'"event_id":"torn')


@pytest.mark.parametrize("line", [
    '{"schema_version":3,"kind":"fold","anything":1}',
    '{"schema_version":3,"kind":"seen","event_id":"x","timestamp":"2026-11-01T00:00:00Z","run_id":"r","refs":7}',
])
def test_a_newer_schema_record_of_any_shape_makes_the_log_read_only(tmp_path, line):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    store.log.write_text(make_event(when=at(0)).to_json() + "\n" + line + "\n")
    before = store.log.read_bytes()
    outcome = _run_with(settings, [make_event(unit_hash="v2", when=at(1))])
    assert outcome.recorded == 0 and store.log.read_bytes() == before
    assert store.read_log(0).skipped == 0 and store.read_log(0).newer


def test_a_failure_before_the_log_is_replaced_leaves_fold_and_log_as_they_were(tmp_path, monkeypatch):
    settings, store = _day_0_and_40_then(tmp_path, b"not json\n")
    log = store.log.read_bytes()

    def full_disk(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    import ladder_plugins.history.pruning as pruning_module

    monkeypatch.setattr(pruning_module, "_keep_whole", full_disk)  # keeping the old log whole fails
    with store.transaction() as tx, pytest.raises(OSError):
        store.prune(tx.state, at(40), force=True)
    assert store.log.read_bytes() == log and not store.folded_path.exists()
    assert HistoryStore(settings).load().aggregate.events == 2


def test_combine_refuses_another_projects_log_unless_forced(tmp_path):
    foreign, target = _runner_and_target(tmp_path, ("other", "mine"), 1, 2)
    with pytest.raises(LadderError, match=r"records of another project \('repo', this one is 'mine'\)"):
        HistoryStore(target).combine([HistoryStore(foreign).log])
    assert not HistoryStore(target).log.exists()  # nothing half-combined
    assert HistoryStore(target).combine([HistoryStore(foreign).log], force=True)[0] == 2


def test_combine_takes_records_that_name_no_project(tmp_path):
    """A log written before repo ids (or by hand) names no project: it is nobody else's."""
    (tmp_path / "mine").mkdir()
    target = project_settings(tmp_path / "mine")
    old = tmp_path / "old.jsonl"
    lines = [json.loads(make_event(unit_hash=f"v{i}").to_json()) for i in range(2)]
    old.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "repo_id"}) + "\n" for line in lines))
    assert HistoryStore(target).combine([old])[0] == 2


@pytest.mark.parametrize("kind", ["directory", "fifo", "missing"])
def test_combine_says_what_an_input_that_is_no_log_is(tmp_path, kind):
    target = project_settings(tmp_path)
    path = tmp_path / "input"
    expected = {"directory": "is a directory", "fifo": "is a named pipe", "missing": "no such file"}[kind]
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(LadderError, match=expected):
        HistoryStore(target).combine([path])


@pytest.mark.parametrize("action", [["combine", "--force", "other.jsonl"], ["prune"], ["rebuild"]])
def test_a_locked_history_is_said_once_by_the_maintenance_commands(tmp_path, action, ladder_process):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    (tmp_path / "other.jsonl").write_text(make_event(unit_hash="v2").to_json() + "\n")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store.lock_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        done = ladder_process(["history", *action], tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 2 and done.stderr.count("is locked by another process") == 1, done.stderr
