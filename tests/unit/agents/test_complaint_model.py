"""The complaint model behind the built-in classifier plugin: its shipped weights are exactly what training on
the tuning rows of ``benchmarks/data/prompts.jsonl`` gives (never the held-out split); it marks for the reviewer
complaints in words the patterns and the word test miss, leaves ordinary requests alone, and a lost or damaged
weights file only takes it out of the question."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from ladder_plugins.agents import ask_reviewer, complaint_model
from ladder_plugins.agents.classify import may_be_feedback
from ladder_plugins.agents.complaint_model import ASK_AT, Model, features, load, train

from tests.helpers.paths import REPO

_spec = importlib.util.spec_from_file_location("benchmark_classify_model", REPO / "benchmarks" / "classify.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["benchmark_classify_model"] = bench
_spec.loader.exec_module(bench)

#: complaints of this test's own wording (none is in the labelled set), which the word test does not flag
UNFLAGGED_COMPLAINTS = [
    "Honestly, who asked for a plugin system? I wanted one function.",
    "Great, now the linter complains about every file you touched.",
    "又把我的注释删了，说了不要动注释",
]
REQUESTS = [
    "Please add a --verbose flag to the CLI.",
    "What's the difference between a list and a tuple?",
    "The upstream API is returning 500s today, let's add a retry.",
    "帮我加一个重试逻辑，超时设成五秒",
    "这个函数能不能改成异步的？",
    "Looks good, ship it.",
]


def test_the_shipped_weights_are_the_training_on_the_tuning_rows_alone():
    rows = bench.load()
    shipped = (REPO / "src" / "ladder_plugins" / "agents" / complaint_model.WEIGHTS).read_text(encoding="utf-8")
    assert bench.model_of(rows).to_json() == shipped, "run: python benchmarks/classify.py --write-model"
    changed = [row._replace(label=1 - row.label) if row.split == bench._HELD_OUT else row for row in rows]
    assert any(row.split == bench._HELD_OUT for row in rows)
    assert bench.model_of(changed).to_json() == shipped  # the held-out labels play no part


@pytest.mark.parametrize("prompt", UNFLAGGED_COMPLAINTS)
def test_a_complaint_in_new_words_is_marked_for_the_reviewer(prompt):
    assert not may_be_feedback(prompt)
    assert load().probability(prompt) >= ASK_AT
    assert ask_reviewer.ask(prompt) is not None


@pytest.mark.parametrize("prompt", REQUESTS)
def test_an_ordinary_request_is_not_marked(prompt):
    assert load().probability(prompt) < ASK_AT
    assert ask_reviewer.ask(prompt) is None


def test_training_is_deterministic_and_learns_the_words_of_each_side():
    rows = [("you broke the build again", 1), ("you deleted my tests", 1), ("add a flag please", 0),
            ("write a parser for the config", 0)] * 3
    model = train(rows)
    assert model == train(list(rows)) and model.to_json() == train(rows).to_json()
    assert model.probability("you broke it") > 0.5 > model.probability("add a parser please")
    assert features("Fix `you broke it` in the README") == features("Fix in the README")  # quoted text is not read


def test_a_lost_or_damaged_weights_file_only_takes_the_model_out(monkeypatch):
    assert isinstance(load(), Model)
    monkeypatch.setattr(complaint_model, "load", lambda: None)
    assert ask_reviewer.ask(UNFLAGGED_COMPLAINTS[0]) is None
    assert ask_reviewer.ask("You broke it, the tests don't pass") is not None  # the word test still asks


@pytest.mark.parametrize("text", ["", "[]", '{"bias": "x"}', '{"bias": 1, "weights": {"w:a": "x"}}', "{"])
def test_a_weights_file_that_is_not_a_model_is_no_model(tmp_path, monkeypatch, text):
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / complaint_model.WEIGHTS).write_text(text, encoding="utf-8")
    monkeypatch.setattr(complaint_model.pkgutil, "get_data", lambda package, name: (folder / name).read_bytes())
    assert load() is None


def test_the_weights_file_is_sorted_json_with_rounded_weights():
    data = json.loads((REPO / "src" / "ladder_plugins" / "agents" / complaint_model.WEIGHTS).read_text("utf-8"))
    assert list(data["weights"]) == sorted(data["weights"]) and all(w != 0 for w in data["weights"].values())


@pytest.mark.parametrize("text", ['{"bias": NaN, "weights": {}}', '{"bias": Infinity, "weights": {}}',
                                  '{"bias": 0, "weights": {"w:you": Infinity, "w:broke": -Infinity}}',
                                  '{"bias": 0, "weights": {"w:you": NaN}}', '{"bias": true, "weights": {}}',
                                  '{"bias": 0, "weights": {"w:you": false}}', '{"bias": 1' + "0" * 400 + ', "weights": {}}'],
                         ids=["NaN bias", "infinite bias", "infinite weights", "NaN weight", "bool bias", "bool weight",
                              "an integer no float holds"])
def test_a_weights_file_with_numbers_no_model_has_is_no_model(tmp_path, monkeypatch, text):
    # json.loads accepts NaN and Infinity: such a model finds every prompt certainly a complaint (the sigmoid's clamp
    # turns NaN into 60), so every prompt the patterns miss would be marked for the reviewer; an integer no float
    # holds made float() raise OverflowError, which load() did not catch, out of the classifier plugin
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / complaint_model.WEIGHTS).write_text(text, encoding="utf-8")
    monkeypatch.setattr(complaint_model.pkgutil, "get_data", lambda package, name: (folder / name).read_bytes())
    assert load() is None


@pytest.mark.parametrize("prompt", ["", "\x00" * 100, "you \ud800 broke \u202e it", "。，！？" * 10000, "x" * (1 << 20),
                                    "你" * 40000, "'a " * 20000])
def test_the_model_reads_any_prompt(prompt):
    model = load()
    assert model is not None
    assert 0.0 <= model.probability(prompt) <= 1.0
    assert isinstance(features(prompt), tuple)


def test_reading_the_model_imports_nothing_the_prompt_path_does_not_need():
    """The model is read on the prompt path: ``random`` serves training only, and ``importlib.resources`` brings
    ``tempfile``, ``shutil``, ``zipfile``, ``bz2`` and ``lzma`` (some 10 ms on a cold start) to read one file."""
    probe = ("import sys\n"
             f"sys.path.insert(0, {str(REPO / 'src')!r})\n"
             "from ladder_plugins.agents import complaint_model\n"
             "assert complaint_model.load() is not None\n"
             "print(sorted(m for m in ('random', 'tempfile', 'importlib.resources', 'zipfile') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1:] == ["[]"], done.stderr


def test_one_prompt_is_cleaned_once_on_its_way_through_the_patterns_the_word_test_and_the_model():
    from ladder_plugins.agents.classify import classify, cleaned

    prompt = "'a " * 13_600  # 40 KB of quotes: the quoted-phrase pass is the costly part of cleaning
    cleaned.cache_clear()
    assert classify(prompt, lambda: True) is None
    ask_reviewer.ask(prompt)
    info = cleaned.cache_info()
    assert info.misses == 1 and info.hits >= 2, info


def test_doctor_says_when_the_weights_are_lost_where_prompts_are_captured(tmp_path, ladder_in_process, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": str(tmp_path / "empty")}
    assert ladder_in_process(["hook", "install", "--agent", "claude"], tmp_path, **env).returncode == 0
    assert "complaint model" not in ladder_in_process(["doctor"], tmp_path, **env).stdout
    monkeypatch.setattr(complaint_model, "load", lambda: None)
    done = ladder_in_process(["doctor"], tmp_path, **env)
    assert done.returncode != 0 and "the complaint model's weights" in done.stdout and "reinstall" in done.stdout
