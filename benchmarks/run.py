"""Side-by-side benchmark of ladder-plugins and the tools users would otherwise pick.

Not part of the test suite (tests never assert durations): run it with ``tox -e bench``
or ``python benchmarks/run.py``. In one run it times each command several times,
interleaved so that machine noise hits all of them alike, and prints the median,
the spread (min-max), the peak RSS and the ratio of medians against the baseline
each target is stated against.

Corpora: the standard library of the running Python (test packages and
site-packages left out) and, when the package index is reachable, Django's source
distribution (skipped with a note otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
WORK = Path(os.environ.get("LADDER_BENCH_DIR", Path(tempfile.gettempdir()) / "ladder-bench"))
BIN = Path(sys.executable).parent
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[2:], cwd=sys.argv[1], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "wall = time.perf_counter() - t\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(wall, used.ru_maxrss, used.ru_utime + used.ru_stime, done.returncode)\n"
    "sys.stderr.write(done.stderr.decode('utf-8', 'replace')[-2000:])\n"
)
#: the floor for any Python tool: read and parse every file, nothing else
_PARSE_LOOP = (
    "import ast, pathlib, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "for path in sorted(pathlib.Path('src').rglob('*.py')):\n"
    "    try:\n"
    "        ast.parse(path.read_bytes())\n"
    "    except (SyntaxError, ValueError):\n"
    "        pass\n"
)


@dataclass
class Case:
    name: str
    argv: list[str]
    cwd: Path
    before: Optional[Callable[[], None]] = None
    baseline: Optional[str] = None
    target: Optional[float] = None
    walls: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    def measure(self) -> None:
        if self.before:
            self.before()
        # As installed packages are: with their bytecode cached (some sandboxes set PYTHONDONTWRITEBYTECODE).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        done = subprocess.run([sys.executable, "-c", _MEASURE, str(self.cwd), *self.argv],
                              capture_output=True, text=True, check=True, env=env)
        out = done.stdout.split()
        if int(out[3]) not in (0, 1):  # 1: a gate that fails, or findings; anything else is not a timing
            raise SystemExit(f"{self.name}: exit {out[3]} in {self.cwd}:\n{done.stderr}")
        self.walls.append(float(out[0]))
        self.rss.append(int(out[1]))
        self.cpus.append(float(out[2]))


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if not found:
        raise SystemExit(f"benchmark needs {name!r} on PATH (tox -e bench installs it)")
    return found


def stdlib_corpus() -> Path:
    target = WORK / "stdlib"
    if (target / "pyproject.toml").exists():
        return target
    source = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "test", "tests", "idle_test", "__pycache__"}
    for path in source.rglob("*.py"):
        rel = path.relative_to(source)
        if not skip.intersection(rel.parts):
            (target / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / "src" / rel)
    (target / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n[tool.pytest.ini_options]\n'
                                           'testpaths = ["tests"]\n')
    (target / "tests").mkdir(exist_ok=True)
    (target / "tests" / "test_one.py").write_text("def test_one():\n    assert 1\n")
    return target


def _unpacked_sdist(requirement: str, download: Path, pattern: str, what: str) -> Optional[Path]:
    """The unpacked source distribution of ``requirement`` (from the package index), or None with a note."""
    got = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
                          "-d", str(download), requirement], capture_output=True, text=True)
    archives = list(download.glob(pattern))
    if got.returncode != 0 or not archives:
        print(f"note: {what} skipped (could not download the {requirement} sdist: {got.stderr.strip()[:200]})")
        return None
    import tarfile

    with tarfile.open(archives[0]) as tar:
        tar.extractall(download, filter="data") if sys.version_info >= (3, 12) else tar.extractall(download)
    return next(p for p in download.iterdir() if p.is_dir())


def django_corpus() -> Optional[Path]:
    target = WORK / "django"
    if (target / "pyproject.toml").exists():
        return target
    unpacked = _unpacked_sdist("django", WORK / "download", "[Dd]jango-*.tar.gz", "Django")
    if unpacked is None:
        return None
    shutil.copytree(unpacked / "django", target / "src" / "django")
    (target / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n')
    return target


def _noladder_env() -> Path:
    """A virtual environment with flake8 (same version) but without ladder-plugins."""
    env = WORK / "venv-noladder"
    flake8 = env / "bin" / "flake8"
    if not flake8.exists():
        import flake8 as installed

        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run([str(env / "bin" / "pip"), "install", "-q", f"flake8=={installed.__version__}"], check=True)
    return flake8


def cases(corpus: Path) -> list[Case]:
    ladder, radon, flake8 = _tool("ladder"), _tool("radon"), _tool("flake8")
    bare_flake8 = str(_noladder_env())
    cache = corpus / ".ladder" / "cache"

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    def cold_and_no_history() -> None:
        shutil.rmtree(corpus / ".ladder", ignore_errors=True)

    def warm() -> None:
        if not cache.exists():
            subprocess.run([ladder, "check", "--no-record"], cwd=corpus, capture_output=True)

    c901 = ["--select", "C901", "--max-complexity", "10", "-j1", "src"]
    return [
        Case("ast.parse loop (the floor)", [sys.executable, "-c", _PARSE_LOOP], corpus),
        Case("radon cc", [radon, "cc", "-s", "src"], corpus),
        Case("xenon", [_tool("xenon"), "-a", "F", "-b", "F", "-m", "F", "src"], corpus),
        Case("complexipy (Rust)", [_tool("complexipy"), "src"], corpus),
        Case("ladder check -j1 --no-cache", [ladder, "check", "--no-record", "--no-cache", "--jobs", "1"], corpus,
             cold_and_no_history, "radon cc", 0.80),
        Case("ladder check -j1 cold", [ladder, "check", "--no-record", "--jobs", "1"], corpus, cold, "radon cc"),
        Case("ladder check cold", [ladder, "check", "--no-record"], corpus, cold, "radon cc", 0.60),
        Case("ladder check -j1 warm", [ladder, "check", "--no-record", "--jobs", "1"], corpus, warm,
             "radon cc", 0.15),
        Case("flake8 C901 -j1 (no ladder)", [bare_flake8, *c901], corpus),
        Case("flake8 C901 -j1 (ladder installed)", [flake8, *c901], corpus, None,
             "flake8 C901 -j1 (no ladder)", 1.03),
        Case("flake8 LAD -j1 cold, recording", [flake8, "--select", "LAD", "-j1", "src"], corpus,
             cold_and_no_history, "flake8 C901 -j1 (no ladder)", 1.06),
        Case("flake8 LAD -j1 warm", [flake8, "--select", "LAD", "-j1", "--ladder-no-record", "src"], corpus,
             warm, "flake8 C901 -j1 (no ladder)", 1.05),
        Case("flake8 E,W,F -j1 (no ladder)", [bare_flake8, "--select", "E,W,F", "-j1", "src"], corpus),
        Case("flake8 E,W,F -j1 (ladder installed)", [flake8, "--select", "E,W,F", "-j1", "src"], corpus,
             None, "flake8 E,W,F -j1 (no ladder)", 1.03),
    ]


def one_file_project() -> Path:
    """Fixed start-up: a project of one small file."""
    target = WORK / "one-file"
    target.mkdir(parents=True, exist_ok=True)
    (target / "pyproject.toml").write_text("[tool.ladder]\n")
    (target / "m.py").write_text("def f(a):\n    if a:\n        return 1\n    return 2\n")
    return target


def toolz_project() -> Optional[Path]:
    """toolz 1.2.0's source distribution, its own test suite included (a small pure-Python suite)."""
    target = WORK / "toolz"
    if (target / "pyproject.toml").exists() and "[tool.ladder]" in (target / "pyproject.toml").read_text():
        return target
    unpacked = _unpacked_sdist("toolz==1.2.0", WORK / "download-toolz", "toolz-*.tar.gz", "the pytest figures")
    if unpacked is None:
        return None
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(unpacked, target)
    pyproject = target / "pyproject.toml"
    text = pyproject.read_text() if pyproject.exists() else ""
    pyproject.write_text(text + '\n[tool.ladder]\npaths = ["toolz"]\n')
    return target


def history_scaling(corpus: Path, sizes: tuple[int, ...], runs: int) -> list[tuple[int, float]]:
    """Median wall of a warm `ladder check` that records, with histories of different sizes."""
    ladder = _tool("ladder")
    results = []
    for size in sizes:
        project = WORK / f"history-{size}"
        shutil.rmtree(project, ignore_errors=True)
        shutil.copytree(corpus / "src" / "json", project / "src" / "json")
        (project / "pyproject.toml").write_text('[tool.ladder]\npaths = ["src"]\n[tool.ladder.history]\n'
                                                "max_mb = 2000\n")
        _synthetic_history(project, size)
        subprocess.run([ladder, "history", "rebuild"], cwd=project, check=True, capture_output=True)
        subprocess.run([ladder, "check"], cwd=project, capture_output=True)  # warms the analysis cache
        case = Case(f"check with {size} events", [ladder, "check"], project)
        for _ in range(runs):
            case.measure()
        results.append((size, statistics.median(case.walls)))
    return results


def _synthetic_history(project: Path, size: int) -> None:
    log = project / ".ladder" / "history" / "events.jsonl"
    log.parent.mkdir(parents=True)
    now = time.time()
    with log.open("w") as handle:
        for n in range(size):
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(now - 80 * 86400 + n * 80 * 86400 / size))
            fp = f"src/m{n % 500}.py::f{n % 7}::cognitive_max"
            handle.write(json.dumps({
                "schema_version": 1, "event_id": f"e{n}", "timestamp": stamp, "repo_id": "bench",
                "run_id": f"r{n // 50}", "tool": "cli", "mode": "recurrence", "path": f"src/m{n % 500}.py",
                "unit_name": f"f{n % 7}", "line": 1, "role": "app", "rule_key": "cognitive_max",
                "metric_family": "complexity", "scope": "unit", "severity": "red", "actual": 20, "limit": 15,
                "delta": 5, "fingerprint": fp, "unit_hash": f"h{n % 3}", "source": "built-in-metric",
            }, separators=(",", ":")) + "\n")


def lib_corpus() -> Path:
    """The whole standard library of the running Python, its tests included (CPython's ``Lib/``)."""
    target = WORK / "lib"
    if (target / "pyproject.toml").exists():
        return target
    source = Path(sysconfig.get_paths()["stdlib"])
    for path in source.rglob("*.py"):
        rel = path.relative_to(source)
        if "site-packages" not in rel.parts and "__pycache__" not in rel.parts:
            (target / "Lib" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / "Lib" / rel)
    (target / "pyproject.toml").write_text('[tool.ladder]\npaths = ["Lib"]\n')
    return target


def _log(project: Path) -> Path:
    return project / ".ladder" / "history" / "events.jsonl"


def _recorded_bytes(project: Path, command: list[str], days: list[str]) -> list[int]:
    """The log's growth from each of ``len(days)`` recorded runs of ``command`` on unchanged code."""
    shutil.rmtree(project / ".ladder" / "history", ignore_errors=True)
    sizes = [0]
    for day in days:
        subprocess.run(command, cwd=project, capture_output=True, env={**os.environ, "LADDER_NOW": day})
        sizes.append(_log(project).stat().st_size)
    return [after - before for before, after in zip(sizes, sizes[1:])]


def _old_style_log(project: Path, copies: int) -> Path:
    """What a schema-1 version wrote for ``copies`` runs of one day: every event again, each run."""
    lines = [json.loads(line) for line in _log(project).read_text().splitlines()]
    events = [e for e in lines if "kind" not in e]
    target = WORK / "old-style-events.jsonl"
    with target.open("w") as handle:
        for n in range(copies):
            for i, event in enumerate(events):
                old = {k: v for k, v in event.items() if k != "hash_version"}
                old.update(schema_version=1, event_id=f"old-{n}-{i}", run_id=f"old-run-{n}")
                handle.write(json.dumps(old, separators=(",", ":")) + "\n")
    return target


def history_growth(runs: int) -> None:
    """Bytes a recorded run appends on unchanged code, and pruning a large old history."""
    project = lib_corpus()
    files = sum(1 for _ in (project / "Lib").rglob("*.py"))
    days = [f"2026-11-02T{hour:02d}:00:00Z" for hour in (9, 11, 13, 15)]
    print(f"\n### History growth (whole standard library, {files} files)\n")
    for name, command in (("ladder check", [_tool("ladder"), "check"]),
                          ("flake8 --select LAD", [_tool("flake8"), "--select", "LAD", "Lib"])):
        grown = _recorded_bytes(project, command, days)
        later = ", ".join(f"{g:,}" for g in grown[1:])
        print(f"- {name}: first run {grown[0]:,} bytes; unchanged runs {later} bytes "
              f"({max(grown[1:]) / grown[0]:.1%} of the first; target <= 5%)")
    _recorded_bytes(project, [_tool("ladder"), "check"], days[:1])
    old = _old_style_log(project, 4)
    _prune_figures(project, old, runs)


def _next_day(old: Path) -> Path:
    """The old log and one record of the next day, so that pruning folds the old day."""
    lines = old.read_text().splitlines()
    record = dict(json.loads(lines[-1]), timestamp="2026-11-03T08:00:00.000000Z", event_id="next-day",
                  run_id="next-day")
    target = WORK / "two-day-events.jsonl"
    target.write_text("\n".join(lines + [json.dumps(record)]) + "\n")
    return target


def _measure_on(project: Path, log: Path, case: Case, runs: int) -> None:
    for _ in range(runs):
        shutil.rmtree(project / ".ladder" / "history")
        _log(project).parent.mkdir(parents=True)
        shutil.copyfile(log, _log(project))
        case.measure()


def _prune_figures(project: Path, old: Path, runs: int) -> None:
    """Pruning a schema-1 history of 4 full runs of one day the next day: alone, and in a recorded check."""
    (project / "pyproject.toml").write_text('[tool.ladder]\npaths = ["Lib"]\n[tool.ladder.history]\nmax_mb = 20\n')
    prune = Case("ladder history prune", [_tool("ladder"), "history", "prune"], project)
    check = Case("ladder check, the next day", [_tool("ladder"), "check"], project)
    baseline = Case("ladder check --no-record", [_tool("ladder"), "check", "--no-record"], project)
    try:
        os.environ["LADDER_NOW"] = "2026-11-03T09:00:00Z"
        _measure_on(project, _next_day(old), prune, runs)
        pruned = _log(project).stat().st_size
        _measure_on(project, old, check, runs)
        _measure_on(project, old, baseline, runs)
    finally:
        os.environ.pop("LADDER_NOW", None)
        (project / "pyproject.toml").write_text('[tool.ladder]\npaths = ["Lib"]\n')
    size = old.stat().st_size / 1e6
    print(f"- pruning a schema-1 log of 4 full runs of one day ({size:.1f} MB, cap 20 MB) the next day "
          f"(`ladder history prune`; the log is {pruned / 1e6:.3f} MB after): median "
          f"{statistics.median(prune.walls):.2f} s, peak RSS {max(prune.rss) / 1024:.0f} MB (target <= 100 MB)")
    for case in (check, baseline):
        print(f"- {case.name} (warm cache) on that log: median {statistics.median(case.walls):.2f} s, "
              f"peak RSS {max(case.rss) / 1024:.0f} MB")


def report(name: str, measured: list[Case]) -> None:
    by_name = {c.name: c for c in measured}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n### {name}\n\n{len(measured[0].walls)} interleaved runs each; load average after: {load:.2f}\n")
    print("| command | median wall s | min-max s | median CPU s | peak RSS MB | ratio wall | ratio CPU | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for c in measured:
        wall, cpu = statistics.median(c.walls), statistics.median(c.cpus)
        ratio_wall = ratio_cpu = target = ""
        if c.baseline:
            base = by_name[c.baseline]
            ratio_wall = f"{wall / statistics.median(base.walls):.2f}x"
            ratio_cpu = f"{cpu / statistics.median(base.cpus):.2f}x"
            target = f"<= {c.target}x {c.baseline}" if c.target else f"vs {c.baseline}"
        print(f"| {c.name} | {wall:.2f} | {min(c.walls):.2f}-{max(c.walls):.2f} | {cpu:.2f} | {max(c.rss) / 1024:.0f} "
              f"| {ratio_wall} | {ratio_cpu} | {target} |")
    radon, floor = by_name.get("radon cc"), by_name.get("ast.parse loop (the floor)")
    ours = by_name.get("ladder check -j1 --no-cache")
    if radon and ours:
        print(f"\npeak RSS, ladder check -j1 --no-cache vs radon cc: {max(ours.rss) / max(radon.rss):.2f}x "
              "(target <= 1.5x)")
    if floor and ours:
        print(f"ladder check -j1 --no-cache vs the ast.parse floor: "
              f"{statistics.median(ours.cpus) / statistics.median(floor.cpus):.2f}x CPU")


def _selected(measured: list[Case], prefixes: str) -> list[Case]:
    """The rows asked for by ``--cases`` and the baselines their ratios need."""
    wanted = [p.strip() for p in prefixes.split(",") if p.strip()]
    if not wanted:
        return measured
    chosen = {c.name for c in measured if any(c.name.startswith(p) for p in wanted)}
    chosen |= {c.baseline for c in measured if c.name in chosen and c.baseline}
    return [c for c in measured if c.name in chosen]


def _measure_all(measured: list[Case], runs: int) -> None:
    for _ in range(runs):
        for case in measured:  # interleaved: noise hits every command alike
            case.measure()


def git_figures(runs: int, real: str) -> None:
    """Recurrence from git on long histories, cold (every CI run that keeps no ``.ladder/cache``) against
    ``radon cc`` and the log alone, warm against the log alone: a synthetic repository, then a real one."""
    sys.path.insert(0, str(HERE))
    import git_history

    os.environ["LADDER_NOW"] = (git_history.END + timedelta(hours=6)).isoformat()
    try:
        measured = git_history.cases(WORK, Case, _tool("ladder"), _tool("radon"))
        _measure_all(measured, runs)
        report(f"Recurrence from git: {git_history.describe(WORK)}", measured)
        _memory_ratio(measured, "ladder check, git (cold)", "ladder check, log only (cold)")
    finally:
        del os.environ["LADDER_NOW"]
    found = git_history.real_checkouts(WORK, real) if real else None
    if found is not None:
        with_git, log_only, what = found
        measured = git_history.project_cases("real", (with_git, log_only), Case, _tool("ladder"), _tool("radon"))
        _measure_all(measured, runs)
        report(f"Recurrence from git on a real repository: {what}", measured)
        _memory_ratio(measured, "ladder check real, git (cold)", "ladder check real, log only (cold)")


def _memory_ratio(measured: list[Case], ours: str, without_git: str) -> None:
    by_name = {c.name: c for c in measured}
    print(f"\npeak RSS, {ours} vs {without_git}: {max(by_name[ours].rss) / max(by_name[without_git].rss):.2f}x "
          "(target <= 1.5x)")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-django", action="store_true")
    parser.add_argument("--history", default="10000,1000000", help="history sizes for the scaling check")
    parser.add_argument("--only-growth", action="store_true", help="only the history growth figures")
    parser.add_argument("--only-git", action="store_true", help="only the recurrence-from-git figures")
    parser.add_argument("--git-repo", default="https://github.com/pallets/jinja",
                        help="a real repository with a long history (URL or local git directory) for the git "
                        "figures; empty to skip them")
    parser.add_argument("--cases", default="", help="comma-separated prefixes: only the corpus rows whose names "
                        "start with one (with their baselines), e.g. 'ast.parse,radon,ladder check'")
    parser.add_argument("--only-analysis", action="store_true",
                        help="only the analysis, start-up and pytest tables (no history or git figures)")
    return parser.parse_args()


def analysis_figures(args: argparse.Namespace) -> Path:
    """The analysis on whole corpora against radon, flake8 and the parse floor; returns the stdlib corpus."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, {sys.platform}; runs: {args.runs}; "
          f"load average before: {load:.2f}")
    corpora = [("standard library", stdlib_corpus())]
    django = None if args.no_django else django_corpus()
    corpora += [("Django", django)] if django else []
    for name, corpus in corpora:
        measured = _selected(cases(corpus), args.cases)
        _measure_all(measured, args.runs)
        report(f"{name} ({sum(1 for _ in (corpus / 'src').rglob('*.py'))} files)", measured)
    return corpora[0][1]


def front_end_figures(runs: int) -> None:
    """Start-up on one file, and pytest --ladder on a real suite and on 3,000 small tests."""
    sys.path.insert(0, str(HERE))
    import pytest_suite
    import startup

    project = one_file_project()
    measured = startup.startup_cases(project, Case, _tool)
    _measure_all(measured, runs * 2)  # type: ignore[arg-type]
    report("Fixed start-up: a one-file project", measured)  # type: ignore[arg-type]
    print("\n" + startup.importtime_summary(project))
    toolz = toolz_project()
    if toolz is not None:
        suite = pytest_suite.pytest_cases(toolz, Case, _tool("ladder"), "toolz/tests", "toolz")
        _measure_all(suite, runs)  # type: ignore[arg-type]
        report("pytest --ladder on toolz 1.2.0's own suite", suite)  # type: ignore[arg-type]
    small = pytest_suite.pytest_cases(pytest_suite.small_tests_project(WORK), Case, _tool("ladder"))
    _measure_all(small, runs)  # type: ignore[arg-type]
    report("pytest --ladder on 3,000 small tests", small)  # type: ignore[arg-type]


def main() -> int:
    args = _arguments()
    WORK.mkdir(parents=True, exist_ok=True)
    if args.only_growth or args.only_git:
        history_growth(args.runs) if args.only_growth else git_figures(args.runs, args.git_repo)
        return 0
    stdlib = analysis_figures(args)
    front_end_figures(args.runs)
    if args.only_analysis:
        return 0
    scaling = history_scaling(stdlib, tuple(int(s) for s in args.history.split(",")), args.runs)
    print("\n### Recording and the gate against history size\n")
    for size, wall in scaling:
        print(f"- {size} events: median {wall:.2f} s")
    print(f"- ratio largest/smallest: {scaling[-1][1] / scaling[0][1]:.2f}x (target <= 1.5x)")
    history_growth(args.runs)
    git_figures(args.runs, args.git_repo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
