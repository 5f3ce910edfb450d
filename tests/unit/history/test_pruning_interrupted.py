"""A prune killed at any step leaves a history that counts every event exactly once.

The child process is killed (SIGKILL) just before each file-system step of a prune
(every replace, link and unlink), one run per step; the next process must read the
same history as before the prune: no event folded and still in the log, none lost.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from ladder_plugins.history.store import HistoryStore

from tests.helpers.history import at, format_timestamp, make_event, project_settings

CHILD = textwrap.dedent("""
    import os, signal, sys
    kill_at, steps = int(sys.argv[1]), [0]

    def step(real):
        def wrapped(*args, **kwargs):
            steps[0] += 1
            if steps[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)
        return wrapped

    os.replace, os.unlink, os.link = step(os.replace), step(os.unlink), step(os.link)
    from ladder_plugins.cli.main import main
    code = main(["history", "prune"])
    print("steps", steps[0])
    sys.exit(code)
""")


def _history(tmp_path):
    """Ten events of day 0 (retention folds them) and ten of day 20, summary saved."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    settings = project_settings(tmp_path, "[tool.ladder.history]\nretention_days = 10\n")
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(f"src/m{n}.py::f::abc_max", unit_hash="old", when=at(0)) for n in range(10)])
    with store.transaction() as tx:
        tx.append([make_event(f"src/m{n}.py::f::abc_max", unit_hash="new", when=at(20)) for n in range(10)])
    return settings


def _prune(tmp_path, kill_at):
    env = {**os.environ, "LADDER_NOW": format_timestamp(at(20, 6))}
    return subprocess.run([sys.executable, "-c", CHILD, str(kill_at)], cwd=tmp_path, capture_output=True,
                          text=True, env=env, timeout=120)


def _seen(settings):
    """What a fresh reader sees: total events, and each fingerprint's events and versions."""
    history = HistoryStore(settings).load().aggregate
    return history.events, {fp: (s.events, sorted(s.hashes)) for fp, s in history.fingerprints.items()}


def _steps(tmp_path) -> int:
    settings = _history(tmp_path / "count")
    done = _prune(tmp_path / "count", 0)
    assert done.returncode == 0, done.stderr
    assert HistoryStore(settings).read_log(0).events[0].timestamp.startswith("2026-11-21")  # it did fold day 0
    return int(done.stdout.split()[-1])


def test_a_prune_killed_before_any_of_its_steps_counts_every_event_once(tmp_path):
    steps = _steps(tmp_path)
    assert steps >= 4  # journal, fold, log, journal removed, summary
    expected = None
    for kill_at in range(1, steps + 1):
        root = tmp_path / f"kill-{kill_at}"
        settings = _history(root)
        before = _seen(settings)
        expected = expected or before
        done = _prune(root, kill_at)
        assert done.returncode == -signal.SIGKILL, (kill_at, done.stdout, done.stderr)
        assert _seen(settings) == before == expected, f"killed before step {kill_at}"
        assert not (HistoryStore(settings).journal_path).exists()  # the reader finished or found nothing


def test_a_journal_that_is_not_one_is_set_aside_with_one_warning(tmp_path):
    settings = _history(tmp_path)
    store = HistoryStore(settings)
    store.journal_path.write_text("{not json")
    reader = HistoryStore(settings)
    assert reader.load().aggregate.events == 20
    assert len(reader.warnings) == 1 and "prune.journal" in reader.warnings[0]
    assert list(store.dir.glob("prune.journal.damaged-*"))


@pytest.mark.parametrize("named", [{"folded": "/etc/passwd", "log": "/tmp/x"}, {"folded": 3, "log": None}])
def test_a_journal_never_moves_a_file_that_is_not_a_prunes_own(tmp_path, named):
    settings = _history(tmp_path)
    store = HistoryStore(settings)
    store.journal_path.write_text(json.dumps(named))
    before = store.log.read_bytes()
    assert HistoryStore(settings).load().aggregate.events == 20
    assert store.log.read_bytes() == before and not store.journal_path.exists()
