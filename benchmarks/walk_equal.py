"""Does the git walk of this checkout find what an earlier version's finds, on a real repository?

``python benchmarks/walk_equal.py REPO [--rev 61c72e8]`` runs ``ladder check --format json --no-record
--no-cache --git-since all`` in REPO (a work tree of any Python project, its whole history read) twice:
with the package of this checkout, and with ``src/`` of revision REV of this repository (unpacked by
``git archive`` into a temporary directory), each from a cold ``.ladder``. It prints each run's wall time
and peak RSS and whether the two reports are the same but for the run id (exit 1 when they are not).
Not a test: it needs a real repository with a long history (``git clone https://github.com/pallets/jinja``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
_ARGS = ["check", "--format", "json", "--no-record", "--no-cache", "--git-since", "all"]
#: runs the command as its only child, then says the child's peak RSS (KB) on stderr's last line
_WRAP = ("import resource, subprocess, sys\n"
         "code = subprocess.run(sys.argv[1:]).returncode\n"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
         "sys.exit(code)\n")


def _run(repo: Path, src: Path) -> tuple[dict[str, Any], float, int]:
    """The report, wall seconds and peak RSS (KB) of one cold run."""
    shutil.rmtree(repo / ".ladder", ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _WRAP, sys.executable, "-m", "ladder_plugins", *_ARGS], cwd=repo,
                          capture_output=True, text=True, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"ladder check failed ({done.returncode}) with {src}:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    report.pop("run_id", None)
    return report, wall, int(done.stderr.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--rev", default="61c72e8", help="the earlier revision of ladder-plugins to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", args.rev, "src"], cwd=HERE, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        before, before_wall, before_rss = _run(args.repo, Path(tmp) / "src")
    now, now_wall, now_rss = _run(args.repo, HERE / "src")
    print(f"{args.rev}: {before_wall:.2f} s, peak RSS {before_rss / 1024:.0f} MB")
    print(f"this checkout: {now_wall:.2f} s, peak RSS {now_rss / 1024:.0f} MB")
    print(f"history read: {now['gate']['history']}")
    same = before == now
    print("the same reports" if same else "DIFFERENT reports")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
