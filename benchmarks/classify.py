"""The prompt classifier's precision and recall on a labelled set (not a test): ``python benchmarks/classify.py``.

The set is ``benchmarks/data/prompts.jsonl``, one JSON object a line::

    {"label": 1, "referent": true, "lang": "zh", "kind": "complaint", "split": "tune", "prompt": "..."}

``label`` 1 is the user's dissatisfaction with the agent's work, 0 anything else (a request, a
question, praise, a quoted phrase, a bug report, an operation turn); ``referent`` says whether the
transcript holds an assistant turn before the prompt (false: the first request of a session);
``kind`` is what the prompt is, for reading the misses; ``split`` is ``tune`` (the rows the
patterns were changed against), ``held_out`` (a third of the first 161 rows, written with the
others before the classifier was changed, and never looked at while changing it), ``held_out_2``
(64 rows, half Chinese, written and committed after the first round of tuning and before the
second), ``held_out_3`` (68 rows, half Chinese, written and committed after the second round and
before the third: complaints, and prompts that look risky but are not one: third-party or
environment breakage, the user's own mistakes, hypotheticals, questions with not/不/没/错, quoted
errors, undo/rollback features, reviews of others' code) or ``held_out_4`` (90 rows, half Chinese,
written and committed before the fourth round by a hand that had not read the classifier, its tests
or any row's outcome, complaints worded as widely as it could; measured once after that round, with a
referent: precision 1.000, recall 0.526, 0.921 after a right review of the 25 prompts marked for the
reviewer; before the round 1.000 / 0.474; its misses were read after that measurement, so a fifth
round must write a new held-out split first).

Each row is classified as the prompt hook classifies it, with the row's referent: the patterns,
then, where they found nothing and there is a referent, the built-in classifier plugin
(``agents/ask_reviewer.py``). A prompt only marked for the reviewer to confirm
(``Classification.ask``, or the plugin's answer) is not counted as captured: it counts nowhere
until the reviewer says it is dissatisfaction. The script prints, for each split, rows with a
referent and rows without, per language: precision, recall, how many prompts were marked for the
reviewer and how many of those are dissatisfied (what a reviewer that judges right would add).
``--misses`` lists the tuning rows it gets wrong (never the held-out ones: looking at them would
make them tuning rows). The ``held_out`` rows became tuning rows in the second round of tuning
(their misses were read then), ``held_out_2`` in the third, ``held_out_3`` in the fourth; ``held_out_4``
is the held-out split since.
The last column, "recall after a right review", counts the marked prompts
that are dissatisfied as found: what the loop reaches once the detached reviewer has confirmed them, if it
judges each one right (the reviewer is a model of the host's; this script cannot run one). ``--cross-validate`` also
measures the complaint model alone on each tuning split, trained on the other tuning splits. ``--write-model``
first trains the complaint model of ``agents/complaint_model.py`` on the tuning rows (never the held-out
split) and writes its package file. It measures and prints; it never asserts
(``tests/unit/agents/test_classify_benchmark.py`` holds the floors).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ladder_plugins.agents.ask_reviewer import ask  # noqa: E402
from ladder_plugins.agents.classify import classify  # noqa: E402
from ladder_plugins.agents.complaint_model import WEIGHTS, Model, train  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "prompts.jsonl"
#: the splits the patterns are changed against (``--misses`` lists only these)
_TUNING = ("tune", "held_out", "held_out_2", "held_out_3")
#: the split never looked at while changing the classifier: ``--misses`` never lists it, ``--tuning-only`` leaves it out
_HELD_OUT = "held_out_4"
#: the complaint model's package file (``--write-model``)
MODEL_FILE = ROOT / "src" / "ladder_plugins" / "agents" / WEIGHTS
_FIELDS = {"label": int, "referent": bool, "lang": str, "kind": str, "split": str, "prompt": str}


class Row(NamedTuple):
    label: int
    referent: bool
    lang: str
    kind: str
    split: str
    prompt: str


class Score(NamedTuple):
    rows: int
    wanted: int
    captured: int
    hits: int
    asked: int
    asked_right: int

    @property
    def precision(self) -> float:
        return self.hits / self.captured if self.captured else float("nan")

    @property
    def recall(self) -> float:
        return self.hits / self.wanted if self.wanted else float("nan")

    @property
    def reviewed_recall(self) -> float:
        """The recall once the reviewer has confirmed the marked prompts, if it judges each one right."""
        return (self.hits + self.asked_right) / self.wanted if self.wanted else float("nan")


def load(path: Path = DATA) -> list[Row]:
    """The labelled rows; a line that is not such a row is an error naming the file and the line."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        data: Any = json.loads(line)
        if not isinstance(data, dict) or any(not isinstance(data.get(k), t) for k, t in _FIELDS.items()):
            raise SystemExit(f"{path}:{number}: not a labelled row {sorted(_FIELDS)}")
        rows.append(Row(*(data[k] for k in _FIELDS)))
    return rows


def model_of(rows: Sequence[Row]) -> Model:
    """The complaint model trained on the tuning rows, in the file's order: never on the held-out split."""
    return train((row.prompt, row.label) for row in rows if row.split in _TUNING)


def cross_validate(rows: Sequence[Row]) -> str:
    """The complaint model alone on each tuning split in turn, trained on the other tuning splits: how it does
    on wording it never saw (``--cross-validate``); precision and recall at its asking threshold, rows with a
    referent."""
    from ladder_plugins.agents.complaint_model import ASK_AT

    hits = said = wanted = 0
    for split in _TUNING:
        model = train((row.prompt, row.label) for row in rows if row.split in _TUNING and row.split != split)
        for row in rows:
            if row.split == split and row.referent:
                yes = model.probability(row.prompt) >= ASK_AT
                hits, said, wanted = hits + (yes and row.label == 1), said + yes, wanted + row.label
    return (f"complaint model alone, each tuning split measured by a model trained on the others: precision "
            f"{_ratio(hits, said):.3f}  recall {_ratio(hits, wanted):.3f}  ({hits} of {wanted} complaints, {said} "
            f"said yes)")


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else float("nan")


def write_model(rows: Sequence[Row], data: Path) -> None:
    """Train the complaint model on the tuning rows and write its package file (``--write-model``); only from the
    labelled set itself, so that no other file's rows become the shipped model."""
    if data.resolve() != DATA.resolve():
        raise SystemExit(f"--write-model trains the shipped model on {DATA.relative_to(ROOT)} only, not {data}")
    MODEL_FILE.write_text(model_of(rows).to_json(), encoding="utf-8")
    print(f"wrote {MODEL_FILE.relative_to(ROOT)}")


def outcome(row: Row) -> tuple[bool, bool]:
    """(captured, marked for the reviewer) for one row, classified with its referent."""
    found = classify(row.prompt, lambda: row.referent)
    if found is None:
        return False, row.referent and ask(row.prompt) is not None
    return not found.ask, found.ask


def score(rows: Sequence[Row]) -> Score:
    wanted = captured = hits = asked = asked_right = 0
    for row in rows:
        got, marked = outcome(row)
        wanted, captured, asked = wanted + row.label, captured + got, asked + marked
        hits += got and row.label == 1
        asked_right += marked and row.label == 1
    return Score(len(rows), wanted, captured, hits, asked, asked_right)


def subsets(rows: Sequence[Row]) -> list[tuple[str, list[Row]]]:
    """The rows grouped as the report prints them: split, referent, language."""
    out = []
    for split in (*_TUNING, _HELD_OUT, "all"):
        for referent in (True, False):
            chosen = [r for r in rows if split in ("all", r.split) and r.referent is referent]
            for lang in ("en", "zh", "both"):
                name = f"{split:10s} {'with' if referent else 'without':7s} {lang:4s}"
                out.append((name, [r for r in chosen if lang in ("both", r.lang)]))
    return out


def _line(name: str, s: Score) -> str:
    return (f"  {name} {s.rows:4d} rows {s.wanted:3d} dissatisfied  precision {s.precision:5.3f}  "
            f"recall {s.recall:5.3f}  for the reviewer {s.asked:3d} ({s.asked_right} dissatisfied)"
            f"  recall after a right review {s.reviewed_recall:5.3f}")


def print_misses(rows: Sequence[Row]) -> None:
    """The tuning rows classified wrong (``--misses``): never a held-out row."""
    for row in rows:
        captured, asked = outcome(row)
        if row.split in _TUNING and captured != bool(row.label):
            print(f"  miss: label {row.label} referent {row.referent} ask {asked}: {row.prompt}")


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--misses", action="store_true",
                        help="list the tuning rows (all but the held-out split) classified wrong")
    parser.add_argument("--write-model", action="store_true",
                        help="train the complaint model on the tuning rows and write its package file, then measure")
    parser.add_argument("--cross-validate", action="store_true",
                        help="also measure the complaint model alone on each tuning split, trained on the others")
    parser.add_argument("--tuning-only", action="store_true",
                        help=f"leave the held-out split ({_HELD_OUT}) out of every figure, 'all' included")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = arguments().parse_args(argv)
    rows = load(args.data)
    if args.write_model:
        write_model(rows, args.data)
    if args.tuning_only:
        rows = [row for row in rows if row.split != _HELD_OUT]
    print(f"classifier on {args.data.relative_to(ROOT) if args.data.is_relative_to(ROOT) else args.data} "
          f"({len(rows)} rows; referent: an assistant turn in the transcript)")
    for name, chosen in subsets(rows):
        print(_line(name, score(chosen)))
    print("  note: held_out is a tuning split since the second round of tuning, held_out_2 since the third,"
          f" held_out_3 since the fourth (their misses were read); {_HELD_OUT} is the held-out split")
    if args.cross_validate:
        print("  " + cross_validate(rows))
    if args.misses:
        print_misses(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
