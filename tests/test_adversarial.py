"""Issue 8 scenarios: load, concurrent sessions, damaged files of every kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ladder_plugins.config import load_settings
from ladder_plugins.store import HistoryStore

from .history_helpers import make_event, project_settings
from .reports_helpers import demo_copy
from .test_store import _spawn_writers


@pytest.mark.slow
def test_eight_processes_append_ten_thousand_events_each(tmp_path):
    settings = project_settings(tmp_path, "[tool.ladder.history]\nmax_mb = 500\n")
    _spawn_writers(tmp_path, workers=8, batches=20, per_batch=500)
    lines = (tmp_path / ".ladder" / "history" / "events.jsonl").read_bytes().split(b"\n")
    ids = [json.loads(line)["event_id"] for line in lines if line]  # every line parses
    assert len(ids) == 80_000 and len(set(ids)) == 80_000
    assert HistoryStore(settings).load().aggregate.events == 80_000


def _xdist_sessions(project, count):
    """``count`` ``pytest --ladder -n 2`` sessions started at once in one checkout; their exit codes."""
    sessions = [
        subprocess.Popen([sys.executable, "-m", "pytest", "--ladder", "-n", "2", "-p", "no:cacheprovider", "-q"],
                         cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "LADDER_RUN_ID": f"session-{n}"})
        for n in range(count)
    ]
    return [s.wait(timeout=600) for s in sessions if s.communicate(timeout=600) is not None]


@pytest.mark.slow
def test_two_concurrent_xdist_sessions_record_each_violation_once(tmp_path):
    project = demo_copy(tmp_path / "shop")
    assert _xdist_sessions(project, 2) == [0, 0]
    events = [json.loads(line) for line in (project / ".ladder" / "history" / "events.jsonl").read_text().splitlines()]
    per_run = [sorted(e["fingerprint"] for e in events if e["run_id"] == f"session-{n}") for n in range(2)]
    assert len(per_run[0]) == 10 and per_run[0] == per_run[1]
    assert HistoryStore(load_settings(project)).load().aggregate.events == len(events) == 20


DAMAGE = {
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "truncated": b'{"schema_version": 1, "generation": 0, "log": {"off',
    "wrong schema": b'{"schema_version": 1, "aggregate": {"fingerprints": {"x": {"path": 3}}}}',
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("name", ["summaries.json", "folded.json"])
@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_damaged_cache_files_are_kept_aside_and_the_run_continues(tmp_path, name, kind):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    with store.transaction() as tx:
        tx.append([make_event(unit_hash="v1")])
    target = store.dir / name
    target.write_bytes(DAMAGE[kind])
    fresh = HistoryStore(settings)
    state = fresh.load()
    assert state.aggregate.events == 1  # the log is the truth; the damaged cache is not needed
    kept = list(store.dir.glob(f"{name}.damaged-*"))
    assert len(fresh.warnings) == 1 and len(kept) == 1 and kept[0].read_bytes() == DAMAGE[kind]


@pytest.mark.slow
def test_a_one_gigabyte_sparse_log_is_bounded_work(tmp_path):
    settings = project_settings(tmp_path)
    store = HistoryStore(settings)
    store.dir.mkdir(parents=True)
    with open(store.log, "wb") as handle:
        handle.write(make_event(unit_hash="v1").to_json().encode() + b"\n")
        handle.truncate(1 << 30)  # sparse: a gigabyte of NULs without a newline
    read = store.read_log(0)
    assert len(read.events) == 1 and read.skipped >= 1
    with store.transaction() as tx:
        assert tx.append([make_event(unit_hash="v2")]) == 1
    assert [e.unit_hash for e in store.read_log(0).events] == ["v1", "v2"]


HOSTILE_FILE = "evil\x1b[31m\u202e\nignore previous instructions.py"
CONTROL = ("\x1b", "\u202e", "\r")


def _hostile_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / HOSTILE_FILE).write_text("def ignore_previous_instructions(a, b, c, d, e, f):\n    pass\n")
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "json"])
def test_hostile_file_names_cannot_reach_a_terminal_or_a_document(tmp_path, fmt):
    from .reports_helpers import ladder

    project = _hostile_project(tmp_path)
    done = ladder(["check", "--no-record", "--mode", "strict", "--format", fmt], project)
    assert done.returncode == 1
    assert not any(char in done.stdout for char in CONTROL)
    if fmt in ("text", "markdown"):
        assert "ignore previous instructions" in done.stdout  # shown, as inert text on one line
        assert not any(line.startswith("ignore previous") for line in done.stdout.splitlines())
    else:
        json.loads(done.stdout)  # JSON escapes every control character


def _unwritable(project):
    """A history location that cannot be created: `.ladder` is a regular file."""
    (project / ".ladder").write_text("not a directory")


def test_flake8_output_is_unchanged_when_history_cannot_be_written(tmp_path):
    from .test_flake8 import FORMAT

    project = demo_copy(tmp_path / "shop")
    args = [sys.executable, "-m", "flake8", FORMAT, "--select", "LAD", "--ladder-no-cache", "src"]
    normal = subprocess.run(args, cwd=project, capture_output=True, text=True)
    broken = demo_copy(tmp_path / "broken")
    _unwritable(broken)
    faulty = subprocess.run(args, cwd=broken, capture_output=True, text=True)
    assert (faulty.returncode, faulty.stdout) == (normal.returncode, normal.stdout)
    assert faulty.stderr.count("ladder: warning:") == 1 and "cannot create" in faulty.stderr


def test_pytest_outcome_is_unchanged_when_history_cannot_be_written(tmp_path):
    args = [sys.executable, "-m", "pytest", "--ladder", "--ladder-no-cache", "-p", "no:cacheprovider", "-q"]
    normal = subprocess.run(args, cwd=demo_copy(tmp_path / "shop"), capture_output=True, text=True)
    broken = demo_copy(tmp_path / "broken")
    _unwritable(broken)
    faulty = subprocess.run(args, cwd=broken, capture_output=True, text=True)
    assert faulty.returncode == normal.returncode == 0
    assert normal.stdout.splitlines()[-1].split(" in ")[0] == faulty.stdout.splitlines()[-1].split(" in ")[0]
    assert faulty.stdout.count("warning: cannot create") == 1


def _hostile_sources(root):
    """The issue's hostile inputs; returns the names flake8 itself can handle."""
    src = root / "src"
    src.mkdir()
    (root / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n')
    (src / "brackets.py").write_text("x = " + "(" * 300 + "1" + ")" * 300 + "\n")
    (src / "terms.py").write_text("def f(x):\n    return " + " + ".join(["x"] * 2000) + "\n")
    (src / "big.py").write_text("".join(f"def f{n}(a, b):\n    return a + b * {n}\n\n\n" for n in range(250_000)))
    (src / "utf8.py").write_bytes(b"x = '\xff\xfe'\n")
    (src / "nul.py").write_bytes(b"x = 1\x00\n")
    (src / "bom.py").write_bytes(b"\xef\xbb\xbfdef f(a, b, c, d, e, g):\n    return 1\n")
    (src / "latin.py").write_bytes("# -*- coding: latin-1 -*-\ndef f(a, b, c, d, e, g):\n    return 'é'\n".encode("latin-1"))
    return ["src/big.py", "src/bom.py", "src/latin.py"]


def _limited():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # 4 GB of address space


@pytest.mark.slow
@pytest.mark.parametrize("front_end", ["ladder", "pytest", "flake8"])
def test_hostile_source_is_bounded_and_never_crashes_a_front_end(tmp_path, front_end):
    flake8_safe = _hostile_sources(tmp_path)
    assert (tmp_path / "src" / "big.py").stat().st_size > 10_000_000
    argv = {
        "ladder": [sys.executable, "-m", "ladder_plugins", "check", "--no-record", "--mode", "strict"],
        "pytest": [sys.executable, "-m", "pytest", "--ladder", "--ladder-no-record", "-p", "no:cacheprovider", "-rs"],
        "flake8": [sys.executable, "-m", "flake8", "--select", "LAD", "--ladder-no-record", *flake8_safe],
    }[front_end]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=600, preexec_fn=_limited)
    output = done.stdout + done.stderr
    assert "Traceback" not in output and "INTERNALERROR" not in output
    assert done.returncode in (0, 1), output[-2000:]
    if front_end != "flake8":
        for name, reason in (("brackets", "syntax error"), ("utf8", "cannot be decoded"), ("nul", "NUL byte")):
            assert f"src/{name}.py" in output and reason in output
    assert "LAD105" in output or "number of parameters" in output  # the BOM and latin-1 files were analysed
