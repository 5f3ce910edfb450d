"""The work-log lint against the seed's awk one-liner, side by side (not a test).

``python benchmarks/worklog.py [--reports N] [--runs R]`` writes a valid work log of N
reports (default 2,000: a start contract, then feedback loops with relative references
and interior blank lines) and times, interleaved in one run, R times each (default 7):

* the seed's awk one-liner, verbatim, with ``gawk`` (it checks line counts only);
* ``ladder worklog check`` as a command (every rule, process start-up included);
* ``parse`` + ``check_log`` in-process (the lint's own work, imports done).

It prints medians and the ratios to gawk, and whether each gave its verdict as
expected (gawk: a MISMATCH for every report with an interior blank line, which is
right by the prose count; ladder: no problem). It measures and prints; it never
asserts.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ladder_plugins.worklog.lint import check_log  # noqa: E402
from ladder_plugins.worklog.parse import header_text, parse_text  # noqa: E402


def one_liner() -> str:
    """The awk program as the seed prints it (read from the seed when it is there)."""
    seed = ROOT.parent / "shared" / "seeds" / "003_f52dc1e5f6a3fb65.txt"
    if seed.is_file():
        line = next(x for x in seed.read_text(encoding="utf-8").splitlines() if x.startswith("awk '"))
        return re.match(r"awk '(.*)' work-log\.md$", line).group(1)
    return ("/^=== Report/{if(NR>1 && declared!=count){print \"MISMATCH at line \"start\": declared=\"declared\" "
            "actual=\"count} start=NR; match($0,/lines: ([0-9]+)/,a); declared=a[1]; count=0} /^=== Report/||!/^(---|$)/"
            "{count++} END{if(declared!=count) print \"MISMATCH at line \"start\": declared=\"declared\" actual=\"count}")


CONTRACT = ["task_type: code", "task_goal: Measure the lint.", "in_scope: the lint", "out_of_scope: editors",
            "min_required_minutes: 30", "min_required_loops: null", "done_definition:", "  - it is measured",
            "deliverables: figures", "as_of_date: 2026-12-01", "start_time: 09:00"]


def generated(reports: int) -> str:
    """A valid log: Report #0 the contract, then loops that refer relatively to the one below."""
    blocks = [[header_text(0, len(CONTRACT) + 1, "00:30", "milestone"), *CONTRACT]]
    for n in range(1, reports):
        body = [f"DIAGNOSE: loop {n} reads 1-report-below, line 2 below.", "",
                f"PROPOSE: idea {n}.", f"TEST: checked {n}.", "META: progressing."]
        blocks.append([header_text(n, len(body) + 1, f"{n:02d}:00", "feedback"), *body])
    return "\n---\n".join("\n".join(b) for b in reversed(blocks)) + "\n"


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    gawk = shutil.which("gawk")
    ladder = shutil.which("ladder", path=os.path.dirname(sys.executable)) or shutil.which("ladder")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "work-log.md"
        text = generated(args.reports)
        log.write_text(text, encoding="utf-8")
        (Path(tmp) / "pyproject.toml").write_text("[tool.ladder]\n")
        print(f"{args.reports} reports, {text.count(chr(10))} lines, {len(text.encode()) // 1024} KiB")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cases: dict[str, Callable[[], object]] = {
            "lint in-process (parse + check_log)": lambda: check_log(parse_text(text)),
        }
        if ladder:
            cases["ladder worklog check (command)"] = lambda: subprocess.run(
                [ladder, "worklog", "check", "--format", "json"], cwd=tmp, capture_output=True, env=env)
        if gawk:
            cases["gawk one-liner (counts only)"] = lambda: subprocess.run([gawk, one_liner(), str(log)],
                                                                           capture_output=True)
        for run in cases.values():
            run()  # warm-up: page cache, bytecode
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, run in cases.items():  # interleaved, so drift hits every case alike
                times[name].append(timed(run))
        verdicts(text, log, gawk)
        base = statistics.median(times["gawk one-liner (counts only)"]) if gawk else None
        for name, found in times.items():
            median = statistics.median(found)
            ratio = f"  {median / base:6.2f} x gawk" if base else ""
            print(f"{name:38s} median {median * 1000:8.1f} ms  worst {max(found) * 1000:8.1f} ms{ratio}")
        if not gawk:
            print("gawk is not installed: the one-liner was not run")
    return 0


def verdicts(text: str, log: Path, gawk: str | None) -> None:
    result = check_log(parse_text(text))
    print(f"ladder: {len(result.problems)} problems, {len(result.notes)} notes (where awk would disagree)")
    if gawk:
        said = subprocess.run([gawk, one_liner(), str(log)], capture_output=True, text=True).stdout
        print(f"gawk one-liner: {said.count('MISMATCH')} MISMATCH lines (interior blank lines it does not count)")


if __name__ == "__main__":
    sys.exit(main())
