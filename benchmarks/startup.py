"""Start-up of ``ladder check`` on a one-file project, against ``radon cc`` on the same file.

``startup_cases`` gives the two timed cases (the ladder one with radon as its baseline, target 1.0: no slower);
``importtime_summary`` says where ladder's start-up goes: how many of the package's modules one run loads and the
import time ``python -X importtime`` reports for them and for everything else.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Callable, NamedTuple

__all__ = ["COMMAND", "startup_cases", "Imports", "imports_of", "importtime_summary"]

#: the command timed, after the tool's path
COMMAND = ("check", "--no-record", "m.py")

# importlib.import_module bypasses the interpreter's import timer, so -X importtime would miss the modules the
# front end and the plugin manager load by name: the runner routes those through __import__, which it times.
_RUNNER = (
    "import importlib, importlib.util, json, sys\n"
    "def timed(name, package=None):\n"
    "    name = importlib.util.resolve_name(name, package)\n"
    "    __import__(name)\n"
    "    return sys.modules[name]\n"
    "importlib.import_module = timed\n"
    "from ladder_plugins.cli.main import main\n"
    "main(sys.argv[1:])\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'ladder_plugins')))\n"
)


def startup_cases(project: Path, case: Callable[..., object], tool: Callable[[str], str]) -> list[object]:
    """``radon cc m.py`` and ``ladder check --no-record m.py`` in ``project`` (a ``[tool.ladder]`` pyproject.toml
    and one small ``m.py``); ``case`` is the harness's case class, ``tool`` finds a console script by name."""
    return [
        case("radon cc m.py", [tool("radon"), "cc", "m.py"], project),
        case("ladder check m.py", [tool("ladder"), *COMMAND], project, None, "radon cc m.py", 1.0),
    ]


class Imports(NamedTuple):
    modules: tuple[str, ...]  # the package's modules loaded by the run
    ours_ms: float  # their own import time (each module's self time, summed)
    total_ms: float  # every import's self time, the interpreter's site start-up included
    slowest: tuple[tuple[str, float], ...]  # the ten modules, ours or not, with the most self time


def imports_of(project: Path) -> Imports:
    """One run of ``ladder check --no-record m.py`` in ``project`` under ``-X importtime``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", _RUNNER, *COMMAND], cwd=project,
                          capture_output=True, text=True, check=True)
    selves = _self_times(done.stderr)
    ours = sum(ms for name, ms in selves.items() if name.split(".")[0] == "ladder_plugins")
    slowest = tuple(sorted(selves.items(), key=lambda item: -item[1])[:10])
    return Imports(tuple(json.loads(done.stdout.splitlines()[-1])), ours, sum(selves.values()), slowest)


def _self_times(report: str) -> dict[str, float]:
    """Each module's self time in ms from ``-X importtime``'s lines (``import time: SELF | CUMULATIVE | NAME``)."""
    selves: dict[str, float] = {}
    for line in report.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if line.startswith("import time:") and len(fields) == 3 and fields[0].strip().isdigit():
            selves[fields[2].strip()] = int(fields[0]) / 1000
    return selves


def importtime_summary(project: Path, runs: int = 5) -> str:
    """The count of the package's modules one run loads and the median import times over ``runs`` runs."""
    seen = [imports_of(project) for _ in range(runs)]
    middle = sorted(seen, key=lambda imports: imports.total_ms)[len(seen) // 2]
    lines = [f"ladder {' '.join(COMMAND)}: {len(middle.modules)} ladder_plugins modules loaded; import time "
             f"{middle.total_ms:.1f} ms in all, {middle.ours_ms:.1f} ms of it the package's own (median of {runs})",
             "most self time: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in middle.slowest)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(importtime_summary(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()))
