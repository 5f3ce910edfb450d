"""The edit hook's time budget: ``ladder hook post-edit`` after an edit of a 1,000-line file.

Target: at most 300 ms of CPU time per call, interpreter start-up included (the hosts run the hook
after every edit, and wait for it; CPU rather than wall time, which on a shared machine also counts
waiting for a CPU). The project is synthetic: one module of 1,000 lines (75 ordinary
functions and one that is a recurring hotspot, checked and edited over two days, so the hook
has something to say). Measured, each over ``--runs`` runs, median and worst:

* in process, ``edit_hook.run()``: the same text again (analysis cache hit) and a fresh edit
  each time (the file's new text is analysed: what an agent's edit really costs);
* in a subprocess, the command ``ladder hook install`` writes, run as a host runs it (``sh -c``, the
  interpreter named by its path), and the module's own entry point, likewise, next to ``python -c pass``
  for the interpreter alone.

Each row gives wall time and CPU time (user + system of the child, from ``getrusage``): on a shared
machine the wall time also counts waiting for a CPU, the CPU time does not. It measures and prints;
it never asserts (``tox -e bench`` style). Usage: ``python benchmarks/edit_hook.py [--runs N] [--work DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

DEMO = Path(__file__).resolve().parent.parent / "src/ladder_plugins/demo_project/src/shop/pricing.py"
#: the demo project's recurring hotspot, ``price``, renamed; ``MARK`` changes its code (a new version)
HOT = DEMO.read_text(encoding="utf-8").split("\n\n\n")[0].replace("def price(", "def settle(").replace(
    "round(total, 2)", "round(total, MARK)") + "\n"
STEPS = ("2026-11-02T09:00:00Z", "2026-11-02T15:00:00Z", "2026-11-03T10:00:00Z")
NOW = "2026-11-03T12:00:00Z"


def _ordinary(number: int) -> str:
    """A plain function of 13 lines, within every limit."""
    body = "".join(f"    value_{k} = value_{k - 1} + {number} * {k}\n" for k in range(1, 9))
    return f"def step_{number}(value_0):\n    \"\"\"Step {number}.\"\"\"\n{body}    return value_8\n\n\n"


def module(mark: int) -> str:
    """The 1,000-line module; ``mark`` changes the hotspot's code (a new version of the unit)."""
    text = "".join(_ordinary(n) for n in range(75)) + HOT.replace("MARK", str(mark))
    lines = text.count("\n")
    return text + "".join(f"CONSTANT_{n} = {n}\n" for n in range(1000 - lines))


def _ladder(args: Sequence[str], cwd: Path, now: str) -> None:
    env = {**os.environ, "LADDER_NOW": now}
    subprocess.run([sys.executable, "-m", "ladder_plugins", *args], cwd=cwd, env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def build(work: Path) -> Path:
    """A project whose ``settle`` was checked, edited, checked, edited, checked: a recurring hotspot."""
    project = work / "edit-hook"
    shutil.rmtree(project, ignore_errors=True)
    (project / "src" / "app").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "bench"\n\n[tool.ladder]\npaths = ["src"]\n')
    for mark, now in enumerate(STEPS, 1):
        (project / "src" / "app" / "orders.py").write_text(module(mark))
        _ladder(["check"], project, now)
    return project


def payload(project: Path, session: str, name: str = "orders.py") -> bytes:
    path = project / "src" / "app" / name
    return json.dumps({
        "session_id": session, "transcript_path": None, "cwd": str(project), "permission_mode": "default",
        "hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_use_id": "toolu_bench",
        "tool_input": {"file_path": str(path), "old_string": "round(total, 3)", "new_string": "round(total, 4)"},
        "tool_response": {"filePath": str(path)},
    }).encode()


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(runs: int, once: Callable[[int], None]) -> list[tuple[float, float]]:
    """``(wall, CPU of the children)`` of each run, in seconds (CPU 0 in process)."""
    times = []
    for number in range(runs):
        start, cpu = time.perf_counter(), _children_cpu()
        once(number)
        times.append((time.perf_counter() - start, _children_cpu() - cpu))
    return times


def _row(label: str, times: Sequence[tuple[float, float]]) -> str:
    wall, cpu = [t[0] * 1000 for t in times], [t[1] * 1000 for t in times]
    return (f"| {label} | {statistics.median(wall):.0f} | {max(wall):.0f} | {statistics.median(cpu):.0f} "
            f"| {len(times)} |")


def _in_process(project: Path, runs: int, fresh: bool) -> list[tuple[float, float]]:
    from ladder_plugins.agents.edit_hook import run

    env = {**os.environ, "LADDER_NOW": NOW}
    target = project / "src" / "app" / "orders.py"

    def once(number: int) -> None:
        if fresh:
            target.write_text(module(1000 + number))
        answer = run(payload(project, f"bench-in-{fresh}-{number}"), env)
        assert answer != "{}", "the hook had nothing to say: the benchmark measures the wrong path"

    target.write_text(module(999))
    run(payload(project, "bench-warm-up"), env)  # the cache entry of the text the cache-hit runs see
    return _timed(runs, once)


def _environment() -> dict[str, str]:
    """The hook's environment as a host gives it: bytecode is written (an installed package has its ``.pyc``
    files; ``PYTHONDONTWRITEBYTECODE``, set in some sandboxes, would make every start compile the sources)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "LADDER_NOW": NOW}


def _subprocess(project: Path, runs: int, command: Sequence[str], fresh: bool,
                name: str = "orders.py") -> list[tuple[float, float]]:
    """``command`` run as the host runs the hook; ``name``: the edited module (``other.py``: one the history
    does not know)."""
    env = _environment()
    target = project / "src" / "app" / name

    def once(number: int) -> None:
        if fresh:
            target.write_text(module(2000 + number))
        subprocess.run(command, input=payload(project, f"bench-sub-{fresh}-{number}", name), cwd=project, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    target.write_text(module(999))
    once(-1)  # warm: the interpreter's files in the page cache, the cache entry of this text
    return _timed(runs, once)


def _installed() -> Optional[list[str]]:
    """The command ``ladder hook install`` writes, run through a shell as the hosts run it; ``None`` when this
    version has no such command."""
    try:
        from ladder_plugins.agents.commands import hook_command
    except ImportError:
        return None
    command = ["/bin/sh", "-c", hook_command("post-edit")]
    done = subprocess.run(command, input=b"{}", capture_output=True, check=False)
    return command if done.returncode == 0 and done.stdout.strip() == b"{}" else None


def _in_process_rows(project: Path, runs: int) -> list[str]:
    return [_row("in process, cache hit", _in_process(project, runs, fresh=False)),
            _row("in process, fresh edit", _in_process(project, runs, fresh=True)),
            _row("`python -c pass` (start-up alone)",
                 _subprocess(project, runs, [sys.executable, "-c", "pass"], fresh=False))]


def _command_rows(project: Path, runs: int, commands: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    rows = []
    for label, command in commands:
        rows.append(_row(f"{label}, cache hit", _subprocess(project, runs, command, fresh=False)))
        rows.append(_row(f"{label}, fresh edit", _subprocess(project, runs, command, fresh=True)))
        rows.append(_row(f"{label}, fresh edit of a file the history does not know",
                         _subprocess(project, runs, command, fresh=True, name="other.py")))
    return rows


def _commands() -> tuple[list[tuple[str, Sequence[str]]], bool]:
    """The hook's commands to time (the module's entry point; the installed command when there is one), and
    whether there is."""
    entry = [sys.executable, "-c", "import sys; from ladder_plugins.agents.edit_hook import main; sys.exit(main())"]
    installed = _installed()
    return [("module entry point", entry)] + ([("the installed command (`sh -c`)", installed)] if installed else []), \
        installed is not None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--work", type=Path, default=None, help="work directory (default: a temporary one)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    project = build(args.work or Path(tempfile.mkdtemp(prefix="ladder-bench-")))
    commands, wired = _commands()
    rows = _in_process_rows(project, args.runs) + _command_rows(project, args.runs, commands)
    print(f"edit hook on a 1,000-line file (Python {sys.version.split()[0]}, {os.cpu_count()} CPUs); "
          "target <= 300 ms CPU")
    print("| what | median wall ms | worst wall ms | median CPU ms | runs |\n|---|---:|---:|---:|---:|\n"
          + "\n".join(rows))
    if not wired:
        print("(this version installs no command of its own: measured through the module's entry point)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
