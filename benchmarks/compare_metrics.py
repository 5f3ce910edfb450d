"""Cognitive complexity next to complexipy and cognitive_complexity, unit by unit (not a test).

``python benchmarks/compare_metrics.py [PATH ...]`` (default: the running Python's
standard library, test packages left out) prints, for every unit of the files, how
often ladder-plugins agrees with complexipy and with cognitive_complexity (the library
behind flake8-cognitive-complexity), and which constructs the disagreeing units hold
that the agreeing ones mostly do not: the evidence behind the "Why other tools give
other numbers" table of ``metrics.md``. ``--cases`` prints that table's rows for the
hand-worked cases of ``tests/unit/metrics/test_cognitive.py`` instead. It needs both tools
installed (``pip install complexipy cognitive_complexity``); it measures and prints,
it never asserts.
"""

from __future__ import annotations

import argparse
import ast
import sys
import sysconfig
from collections import Counter
from pathlib import Path
from typing import Iterator, Optional

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.config import load_settings

SKIP = {"site-packages", "test", "tests", "idle_test", "__pycache__"}


def _constructs(node: ast.AST) -> set[str]:
    """The constructs the rules of the tools treat differently, present in a unit."""
    found = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            found.add("comprehension")
        elif isinstance(child, ast.Lambda):
            found.add("lambda")
        elif isinstance(child, ast.Try) and child.orelse:
            found.add("try-else")
        elif isinstance(child, (ast.For, ast.While)) and child.orelse:
            found.add("loop-else")
        elif isinstance(child, ast.BoolOp) and any(isinstance(v, ast.BoolOp) for v in child.values):
            found.add("mixed boolean operators")
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is not node:
            found.add("nested def")
        elif type(child).__name__ == "Match":
            found.add("match")
        elif isinstance(child, ast.If) and len(child.orelse) == 1 and isinstance(child.orelse[0], ast.If):
            found.add("elif or else-if")
    return found


def _files(paths: list[str]) -> Iterator[Path]:
    roots = [Path(p) for p in paths] or [Path(sysconfig.get_paths()["stdlib"])]
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        yield from (f for f in files if not SKIP.intersection(f.parts))


def _theirs(text: str, node: ast.AST, name: str, line: int) -> tuple[Optional[int], Optional[int]]:
    import complexipy
    from cognitive_complexity.api import get_cognitive_complexity

    try:
        flake8_value: Optional[int] = get_cognitive_complexity(node)
    except Exception:  # the other tool's failure is a missing value, not ours
        flake8_value = None
    found = {(f.line_start, f.name.split("::")[-1]): f.complexity for f in _complexipy(complexipy, text)}
    return found.get((line, name.split(".")[-1])), flake8_value


_COMPLEXIPY_CACHE: dict[int, list] = {}


def _complexipy(module, text: str) -> list:
    key = hash(text)
    if key not in _COMPLEXIPY_CACHE:
        _COMPLEXIPY_CACHE.clear()
        try:
            _COMPLEXIPY_CACHE[key] = list(module.code_complexity(text).functions)
        except Exception:
            _COMPLEXIPY_CACHE[key] = []
    return _COMPLEXIPY_CACHE[key]


def compare(paths: list[str]) -> None:
    settings = load_settings(Path.cwd())
    totals: Counter[str] = Counter()
    behind: dict[str, Counter[str]] = {"complexipy": Counter(), "cognitive_complexity": Counter()}
    for path in _files(paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        report = analyze_source(text, path.name, settings.replace())
        if report.skipped:
            continue
        nodes = {(n.lineno, n.name): n for n in ast.walk(ast.parse(text))
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for unit in report.units:
            node = nodes.get((unit.line, unit.name.split(".")[-1]))
            if node is None:
                continue
            ours = unit.metrics.get("cognitive")
            cx, fl = _theirs(text, node, unit.name, unit.line)
            totals["units"] += 1
            for tool, value in (("complexipy", cx), ("cognitive_complexity", fl)):
                if value is None:
                    continue
                totals[f"{tool} compared"] += 1
                if value == ours:
                    totals[f"{tool} equal"] += 1
                else:
                    behind[tool].update(_constructs(node))
    print(f"{totals['units']} units")
    for tool in behind:
        compared = totals[f"{tool} compared"] or 1
        print(f"- {tool}: equal on {totals[f'{tool} equal']} of {compared} "
              f"({100 * totals[f'{tool} equal'] / compared:.1f}%); constructs in the units that differ:")
        for construct, count in behind[tool].most_common(8):
            print(f"    {construct}: {count}")


def cases() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.unit.metrics.test_cognitive import CASES

    settings = load_settings(Path.cwd())
    print("| case | ladder | complexipy | flake8-cognitive-complexity |")
    print("|---|---|---|---|")
    for name, code, _ in CASES:
        report = analyze_source(code, "mod.py", settings)
        tree = ast.parse(code)
        unit = report.units[0]
        node = next(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and n.lineno == unit.line)
        cx, fl = _theirs(code, node, unit.name, unit.line)
        ours = unit.metrics["cognitive"]
        mark = "" if cx == fl == ours else " *"
        print(f"| {name}{mark} | {ours} | {cx} | {fl} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--cases", action="store_true", help="the hand-worked cases instead of a corpus")
    args = parser.parse_args()
    cases() if args.cases else compare(args.paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
