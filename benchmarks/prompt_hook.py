"""The prompt hook's accuracy and cost (not a test): precision and recall per language, and wall times.

``python benchmarks/prompt_hook.py [-n N] [--module]`` prints

* precision and recall of the classifier on ``tests/data/prompts.tsv``, per language, for all
  prompts and for the held-out batch the patterns were never tuned to;
* the median and worst wall time of ``N`` real runs of ``python -m ladder_plugins hook prompt``
  (``--module``: ``python -m ladder_plugins.agents.prompt_hook``, for a tree where the command
  is not wired yet; the script falls back to it by itself when the command fails), each after
  one warm-up run, for an ordinary prompt, an operation turn and a captured complaint, in a
  project with a full rules block (6 KB) and a 2 MB transcript; next to it the interpreter's
  own start-up (``python -c pass``), which the hook cannot make faster. The target is 150 ms
  warm, start-up included;
* the same work in-process (``prompt_hook.run``, imports done), median and worst;
* the prompt hook's latency with a review pending: a fake reviewer CLI (``claude`` on PATH) that
  blocks until the benchmark ends holds the review's lease, so every captured complaint writes its
  job and starts a detached review that finds the lease held and leaves; the hook never waits for
  either. The review processes are ended by their process id at the end.

The children get ``PYTHONPYCACHEPREFIX`` set to a temporary directory and
``PYTHONDONTWRITEBYTECODE`` removed, as an installed package has its bytecode: a tree where
bytecode is never written recompiles every changed module on every run and measures that
instead. It measures and prints; it never asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))  # the labelled set is read as its test reads it

from ladder_plugins.agents import prompt_hook  # noqa: E402
from ladder_plugins.agents.classify import classify  # noqa: E402
from ladder_plugins.rules_block.block import Section, render_block  # noqa: E402
from tests.unit.agents.test_classify import Row, labelled  # noqa: E402

FAKE_REVIEWER = """#!{python}
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.stdin.read()
open(os.path.join(here, "started"), "w").write(str(os.getpid()))
while not os.path.exists(os.path.join(here, "release")):
    time.sleep(0.1)
sys.exit(1)
"""

SCENARIOS = {
    "ordinary prompt": "Please add a docstring to the parser and keep the public names.",
    "operation turn": "ok, continue",
    "captured complaint": "You used a bare except again, I already told you.",
}


def scores(rows: list[Row]) -> str:
    counts = Counter((r.dissatisfied, classify(r.prompt, lambda r=r: r.referent) is not None) for r in rows)
    hits, predicted, wanted = counts[True, True], counts[True, True] + counts[False, True], len(
        [r for r in rows if r.dissatisfied])
    precision = hits / predicted if predicted else float("nan")
    recall = hits / wanted if wanted else float("nan")
    return f"{len(rows):4d} prompts ({wanted:3d} dissatisfied)  precision {precision:.3f}  recall {recall:.3f}"


def print_accuracy() -> None:
    rows = labelled()
    print("classifier on tests/data/prompts.tsv")
    for title, subset in (("all", rows), ("held out", [r for r in rows if r.held_out])):
        for lang in ("en", "zh", "both"):
            chosen = [r for r in subset if lang in ("both", r.lang)]
            print(f"  {title:8s} {lang:4s} {scores(chosen)}")


def make_project(base: Path, review: bool = False) -> tuple[Path, Path]:
    """A project with a full rules block and a long Claude Code transcript; without ``review`` a capture starts
    no review (the hook's own work is measured, not the reviews' competing for the CPU)."""
    root = base / "project"
    (root / ".agent" / "rules").mkdir(parents=True)
    table = "" if review else "\n[tool.ladder.feedback]\nreview = false\n"
    (root / "pyproject.toml").write_text(f'[project]\nname = "bench"\n\n[tool.ladder]\n{table}', encoding="utf-8")
    sections = [Section(f"rule-{n}", "Major", f"Recurring rule {n}", ("Say what to do. " * 18 + str(n),), n + 3)
                for n in range(18)]  # the writer's block: the hook injects no other
    block = render_block(sections).text
    (root / ".agent" / "rules" / "feedback-loop.md").write_text(block, encoding="utf-8")
    line = json.dumps({"type": "user", "message": {"role": "user", "content": "x" * 2000}}) + "\n"
    last = json.dumps({"type": "assistant", "message": {"role": "assistant", "content": "done"}}) + "\n"
    transcript = base / "transcript.jsonl"
    transcript.write_text(line * 1000 + last, encoding="utf-8")
    return root, transcript


def payload(root: Path, transcript: Path, prompt: str) -> bytes:
    return json.dumps({"session_id": "bench", "transcript_path": str(transcript), "cwd": str(root),
                       "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": prompt}).encode()


def child_environ(base: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), environ.get("PYTHONPATH")]))
    return environ


def wall_times(command: list[str], stdin: bytes, environ: dict[str, str], runs: int) -> tuple[list[float], str]:
    """Wall times of ``runs`` runs after one warm-up, and what went wrong (``""``: exit 0, stderr empty)."""
    times, problem = [], ""
    for index in range(runs + 1):
        began = time.perf_counter()
        done = subprocess.run(command, input=stdin, capture_output=True, env=environ, timeout=60)
        elapsed = time.perf_counter() - began
        if done.returncode or done.stderr:
            problem = problem or f"exit {done.returncode}, stderr {done.stderr[:200]!r}"
        if index:
            times.append(elapsed)
    return times, problem


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1000:7.1f} ms   worst {max(times) * 1000:7.1f} ms"


def hook_command(module: bool) -> list[str]:
    if module:
        return [sys.executable, "-m", "ladder_plugins.agents.prompt_hook"]
    return [sys.executable, "-m", "ladder_plugins", "hook", "prompt"]


def working_command(module: bool, stdin: bytes, environ: dict[str, str]) -> list[str]:
    """The command to measure: the module when asked for, or when the ``ladder`` command fails."""
    command = hook_command(module)
    if not module and wall_times(command, stdin, environ, 0)[1]:
        print("  (`python -m ladder_plugins hook prompt` failed: the command is not wired yet; the module is run)")
        return hook_command(True)
    return command


def print_processes(base: Path, runs: int, module: bool) -> None:
    root, transcript = make_project(base)
    environ = child_environ(base)
    start_up, _ = wall_times([sys.executable, "-c", "pass"], b"", environ, runs)
    command = working_command(module, payload(root, transcript, "ok"), environ)
    print(f"real processes, {runs} runs each after a warm-up: {' '.join(command[1:])}")
    print(f"  {'interpreter start-up':20s} {summary(start_up)}   (python -c pass)")
    for name, prompt in SCENARIOS.items():
        print_scenario(name, wall_times(command, payload(root, transcript, prompt), environ, runs))


def print_scenario(name: str, measured: tuple[list[float], str]) -> None:
    times, problem = measured
    print(f"  {name:20s} {summary(times)}   {problem or 'exit 0, stderr empty'}")


def in_process(fn: Callable[[], str], runs: int) -> list[float]:
    fn()
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return times


def print_in_process(base: Path, runs: int) -> None:
    root, transcript = make_project(base / "in-process")
    print(f"in-process (prompt_hook.run, imports done), {runs} runs each")
    for name, prompt in SCENARIOS.items():
        stdin = payload(root, transcript, prompt)
        times = in_process(lambda stdin=stdin: prompt_hook.run(stdin, {}), runs)
        print(f"  {name:20s} {summary(times)}")


def print_with_lessons(base: Path, runs: int, count: int = 100) -> None:
    """In process, a project with ``count`` lessons under .agent/reflections/: the hook reads them all and gives
    the one the prompt names the keywords of."""
    from ladder_plugins.lessons.store import Draft, publish

    root, transcript = make_project(base / "lessons")
    for n in range(count):
        publish(root, ".ladder", Draft(f"family {n}", "reviewer", "Major", f"Lesson {n}", f"Do {n}.", f"Apply {n}.",
                                       (f"word{n}", "parser"), (f"h{n}",)), "2026-11-01T00:00:00Z")
    stdin = payload(root, transcript, SCENARIOS["ordinary prompt"] + " Mind word7 in the parser.")
    given = "Lesson 7" in prompt_hook.run(stdin, {})
    times = in_process(lambda: prompt_hook.run(stdin, {}), runs)
    print(f"in-process with {count} lessons ({'the matching one given' if given else 'NOT GIVEN'}), {runs} runs")
    print(f"  {'ordinary prompt':20s} {summary(times)}")


def fake_reviewer(base: Path) -> Path:
    """A folder holding a ``claude`` that blocks until ``release`` exists there."""
    folder = base / "bin"
    folder.mkdir()
    script = folder / "claude"
    script.write_text(FAKE_REVIEWER.format(python=sys.executable), encoding="utf-8")
    script.chmod(0o755)
    return folder


def end_reviews(root: Path, folder: Path) -> None:
    """Release the fake and end the review holding the lease (its own session: its process group), by its id."""
    import signal

    (folder / "release").write_text("")
    lease = root / ".ladder" / "feedback" / "reviews" / "lease.json"
    try:
        os.killpg(int(json.loads(lease.read_text())["pid"]), signal.SIGTERM)
    except (OSError, ValueError, KeyError):
        pass
    try:  # the fake runs in a session of its own (the review starts it so): ended by its id too
        os.kill(int((folder / "started").read_text()), signal.SIGTERM)
    except (OSError, ValueError):
        pass


def print_review_pending(base: Path, runs: int, module: bool) -> None:
    root, transcript = make_project(base / "review-pending", review=True)
    folder = fake_reviewer(base / "review-pending")
    environ = {**child_environ(base), "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = working_command(module, payload(root, transcript, "ok"), environ)
    stdin = payload(root, transcript, SCENARIOS["captured complaint"])
    try:
        subprocess.run(command, input=stdin, capture_output=True, env=environ, timeout=60)
        deadline = time.monotonic() + 30
        while not (folder / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the first review reaches the reviewer and holds the lease from here on
        print(f"with a review pending (a fake reviewer holding the lease: {(folder / 'started').exists()}), "
              f"{runs} runs after a warm-up")
        print_scenario("captured complaint", wall_times(command, stdin, environ, runs))
        jobs = len(list((root / ".ladder" / "feedback" / "reviews").glob("*.json"))) - 1  # the lease file
        print(f"  {'jobs waiting':20s} {jobs} (each run left one and started a review that left the lease alone)")
    finally:
        end_reviews(root, folder)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=30, help="runs per scenario (default 30)")
    parser.add_argument("--module", action="store_true", help="run the module, not `python -m ladder_plugins hook`")
    args = parser.parse_args(argv)
    print_accuracy()
    with tempfile.TemporaryDirectory(prefix="ladder-prompt-bench-", ignore_cleanup_errors=True) as folder:
        print_processes(Path(folder), max(1, args.runs), args.module)
        print_in_process(Path(folder), max(1, args.runs))
        print_with_lessons(Path(folder), max(1, args.runs))
        print_review_pending(Path(folder), max(1, args.runs), args.module)
    return 0


if __name__ == "__main__":
    sys.exit(main())
