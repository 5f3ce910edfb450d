"""The labelled set of ``benchmarks/data/prompts.jsonl`` (``python benchmarks/classify.py`` prints the figures):
its shape, and floors under what the classifier scored when they were set.

Measured with a referent (an assistant turn in the transcript), after the third round of tuning:

* the tuning rows (``tune``; ``held_out``, whose misses were read in the second round; ``held_out_2``, whose
  misses were read in the third): precision 1.00, recall 1.00 (this says only that they are kept;
  ``held_out_2`` scored 0.81 / 0.97 while it was held out, ``held_out`` 0.94 / 0.71);
* ``held_out_3`` (68 rows, half Chinese, written and committed before the third round and never looked at while
  tuning; 40 of them risky prompts that are no complaint): precision 1.00, recall 0.73 (before the round
  0.76 / 0.73). Its rows and the third round's classes were written by the same hand, so its precision is
  likely optimistic.

Without a referent (first requests, and complaints about an earlier session) every row of every split is right.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.helpers.paths import REPO

_spec = importlib.util.spec_from_file_location("benchmark_classify", REPO / "benchmarks" / "classify.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["benchmark_classify"] = bench
_spec.loader.exec_module(bench)

ROWS = bench.load()


def test_the_set_is_big_enough_half_chinese_and_has_a_held_out_third():
    langs = [r.lang for r in ROWS]
    held = [r for r in ROWS if r.split != "tune"]
    assert len(ROWS) >= 150 and abs(langs.count("zh") - langs.count("en")) <= 10
    assert len(held) >= len(ROWS) // 4 and {r.split for r in ROWS} == {"tune", "held_out", "held_out_2", "held_out_3"}
    assert {r.kind for r in ROWS} >= {"complaint", "request", "question", "praise", "quoted", "first"}
    assert {(r.label, r.referent) for r in ROWS} == {(0, True), (0, False), (1, True), (1, False)}


@pytest.mark.parametrize("split", ["held_out_2", "held_out_3"])
def test_the_later_held_out_splits_have_sixty_rows_half_chinese(split):
    langs = [r.lang for r in ROWS if r.split == split]
    assert len(langs) >= 60 and langs.count("zh") == langs.count("en")


@pytest.mark.parametrize("splits, referent, precision, recall", [
    (("tune", "held_out", "held_out_2"), True, 0.97, 0.95), (("held_out_3",), True, 0.95, 0.69),
    (("tune", "held_out", "held_out_2", "held_out_3"), False, 0.95, 0.85),
])
def test_precision_and_recall_stay_above_their_floors(splits, referent, precision, recall):
    rows = [r for r in ROWS if r.split in splits and r.referent is referent]
    score = bench.score(rows)
    assert (score.precision >= precision, score.recall >= recall) == (True, True), score
