"""A small logistic model over a prompt's words: how likely a prompt the patterns missed is a complaint.

The patterns of :mod:`.classify` capture only what they were written for, so dissatisfaction in new words
slips past them. This model learnt, from the labelled prompts of ``benchmarks/data/prompts.jsonl``, which
words and word pairs (English) and which characters and character pairs (Chinese) go with a complaint. Its
precision is too low to capture on its own (about 0.82 on a split it was not trained on), so it never does:
it only decides which of the prompts the patterns missed are worth the detached reviewer's question
(``agents/ask_reviewer.py``), and the reviewer decides.

The weights are package data, ``complaint_weights.json``, written by ``python benchmarks/classify.py
--write-model`` from the tuning splits only (never the held-out split); ``train`` is deterministic, so a test
rebuilds them and compares. Importing this module and reading them costs some 6 ms in a fresh process (about
2 ms of it parsing the weights), and only on the prompts that reach a classifier plugin.

May import: ``classify`` (for what the patterns read) and the standard library. Must not read anything but
its own weights nor start anything: it runs on the prompt path.
"""

from __future__ import annotations

import json
import math
import pkgutil
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional

from .classify import cleaned

__all__ = ["WEIGHTS", "ASK_AT", "Model", "features", "train", "load"]

#: the package file holding the trained model
WEIGHTS = "complaint_weights.json"
#: a prompt this likely a complaint is worth the reviewer's question
ASK_AT = 0.5
#: the training's settings (passes over the rows, learning rate, L2 decay, the shuffle's start), chosen by leaving
#: each tuning split out in turn and measuring on it
_EPOCHS, _RATE, _DECAY, _SEED = 40, 0.2, 1e-3, 0
#: weights are written rounded to this many decimals, and smaller ones left out
_DECIMALS = 4
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|[?!]")
_NOT_HAN = re.compile(r"[^\u4e00-\u9fff\uff1f\uff01]")


@dataclass(frozen=True)
class Model:
    """A bias and a weight per feature; a feature the model never saw weighs nothing."""

    bias: float
    weights: Mapping[str, float] = field(default_factory=dict)

    def probability(self, prompt: str) -> float:
        """How likely ``prompt`` is a complaint, between 0 and 1."""
        return _sigmoid(self.bias + sum(self.weights.get(name, 0.0) for name in features(prompt)))

    def to_json(self) -> str:
        """The model as its package file: keys sorted, weights rounded, those that round to nothing left out."""
        kept = {name: round(w, _DECIMALS) for name, w in sorted(self.weights.items()) if round(w, _DECIMALS)}
        return json.dumps({"bias": round(self.bias, _DECIMALS), "weights": kept}, ensure_ascii=False, indent=0) + "\n"


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def features(prompt: str) -> tuple[str, ...]:
    """What the model reads of a prompt, in a fixed order: the text the patterns read (pasted code and quotes
    removed), its English words and adjacent word pairs, its Chinese characters and adjacent character pairs."""
    text = cleaned(prompt).casefold().replace("\u2019", "'")
    words = _WORD.findall(text)
    han = _NOT_HAN.sub("", text)
    found = {"w:" + w for w in words} | {f"b:{a}_{b}" for a, b in zip(words, words[1:])}
    found |= {"u:" + c for c in han} | {"c:" + han[i:i + 2] for i in range(len(han) - 1)}
    return tuple(sorted(found))


def train(rows: Iterable[tuple[str, int]]) -> Model:
    """A model fitted to ``(prompt, label)`` rows (label 1 a complaint) by stochastic gradient descent with
    L2 decay; the same rows give the same model."""
    import random  # training only: not on the prompt path

    data = [(features(prompt), label) for prompt, label in rows]
    weights: dict[str, float] = {}
    bias = 0.0
    shuffle = random.Random(_SEED).shuffle
    for _ in range(_EPOCHS):
        shuffle(data)
        for names, label in data:
            error = _sigmoid(bias + sum(weights.get(n, 0.0) for n in names)) - label
            bias -= _RATE * error
            for name in names:
                old = weights.get(name, 0.0)
                weights[name] = old - _RATE * (error + _DECAY * old)
    return Model(bias, weights)


def _number(value: Any) -> bool:
    """A finite number a float holds: ``json.loads`` accepts ``NaN`` and ``Infinity``, which would make every
    prompt certain, and integers no float holds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _model_of(data: Any) -> Optional[Model]:
    if not isinstance(data, dict) or not _number(data.get("bias")):
        return None
    weights = data.get("weights")
    if not isinstance(weights, dict) or not all(_number(w) for w in weights.values()):
        return None
    return Model(float(data["bias"]), {str(k): float(w) for k, w in weights.items()})


def load() -> Optional[Model]:
    """The shipped model; ``None`` where its file is missing or not such a model (an installation that lost
    it): the prompt hook then asks only what the word test of :func:`.classify.may_be_feedback` finds."""
    try:  # pkgutil, not importlib.resources: that imports tempfile, shutil and zipfile, some 10 ms on a cold start
        data = pkgutil.get_data(__package__ or "ladder_plugins.agents", WEIGHTS)
        return None if data is None else _model_of(json.loads(data.decode("utf-8")))
    except (OSError, ValueError):
        return None
