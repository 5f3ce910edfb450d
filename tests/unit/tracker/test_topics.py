"""The topic table: every shipped row is well formed, its snippet is valid in its file and, pasted into an
empty project, is detected as enforcing the topic; plugins add and replace rows, and a malformed plugin row
is an error that names the plugin and the field."""

from __future__ import annotations

import configparser
import dataclasses
import functools
import re
import textwrap
import types
from pathlib import Path

import pytest
import yaml

from ladder_plugins import hookimpl
from ladder_plugins.catalogue import lookup
from ladder_plugins.config import load_settings, toml_loads
from ladder_plugins.errors import LadderError
from ladder_plugins.tracker.sources.enforced.sightings import detected_signals
from ladder_plugins.tracker.model import SourceContext
from ladder_plugins.tracker.topics import Topic, load_topics, shipped_topics
from ladder_plugins.plugins import make_plugin_manager

TOPICS = shipped_topics()
BY_ID = {topic.id: topic for topic in TOPICS}
SIGNALS = sorted({signal for topic in TOPICS for signal in topic.enforced_by})
NAMESPACES = {"ladder", "ruff", "flake8", "mypy", "coverage", "pytest", "precommit", "ci", "tox", "black", "isort"}
#: the table of pyproject.toml each tool's snippet must hold
TOML_TABLES = {
    "ladder": ("tool", "ladder", "thresholds"), "ruff": ("tool", "ruff"), "coverage": ("tool", "coverage", "report"),
    "mypy": ("tool", "mypy"), "pytest": ("tool", "pytest", "ini_options"), "black": ("tool", "black"),
    "isort": ("tool", "isort"),
}
#: the (format, file) pairs a shape test below covers
SHAPES = {("toml", "pyproject.toml"), ("yaml", ".pre-commit-config.yaml"), ("yaml", "workflow"), ("ini", "tox.ini")}


def rows(predicate) -> list:
    return [pytest.param(topic, id=topic.id) for topic in TOPICS if predicate(topic)]


def shape_of(topic: Topic) -> tuple[str, str]:
    return topic.format, "workflow" if topic.file.startswith(".github/workflows/") else topic.file


def dig(data: dict, path: tuple) -> object:
    return functools.reduce(lambda table, key: table[key], path, data)


# ---------------------------------------------------------------------------
# the shipped table


def test_the_table_has_enough_topics_with_unique_ids():
    assert len(TOPICS) >= 25
    assert len(BY_ID) == len(TOPICS)


@pytest.mark.parametrize("signal, named", [
    ("ladder:cyclomatic_max", "LAD101"), ("ladder:cognitive_max", "LAD102"), ("ladder:function_lines_max", "LAD104"),
    ("ladder:params_max", "LAD105"), ("ladder:min_assertions", "LAD108"), ("ladder:nesting_max", "LAD106"),
    ("ladder:file_lines_max", "LAD107"), ("ruff:I001", "isort"), ("ruff:E722", "E722"), ("flake8:B001", "B001"),
    ("ruff:T201", "T201"), ("mypy:strict", "--strict"), ("ruff:ANN001", "ANN"), ("coverage:fail_under", "fail_under"),
    ("ruff:F401", "F401"), ("precommit:detect-secrets", "detect-secrets"), ("precommit:gitleaks", "gitleaks"),
    ("precommit:black", "black"), ("precommit:ruff-format", "ruff format"), ("ruff:B006", "B006"),
    ("ruff:UP032", "UP"), ("ruff:D103", "D"), ("ruff:N802", "N"), ("ruff:E501", "E501"), ("ruff:A001", "A"),
    ("ruff:S602", "S"), ("precommit:bandit", "bandit"), ("ruff:FIX002", "FIX"), ("ruff:TD002", "TD"),
    ("ruff:T100", "T100"), ("ruff:S101", "S101"), ("ruff:ERA001", "ERA001"), ("ci:pytest", "pytest"),
    ("precommit:trailing-whitespace", "trailing-whitespace"), ("precommit:end-of-file-fixer", "end-of-file-fixer"),
])
def test_the_common_review_topics_are_in_the_table(signal, named):
    topic = next((t for t in TOPICS if signal in t.enforced_by), None)
    assert topic is not None, signal
    assert named in topic.check


@pytest.mark.parametrize("topic", rows(lambda t: True))
def test_a_row_is_well_formed(topic):
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", topic.id)
    assert 0 < len(topic.keywords) <= 12  # the tracker keeps twelve keywords of an item
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(?:[-_'][a-z0-9]+)*", word) for word in topic.keywords)
    assert topic.enforced_by
    assert all(getattr(topic, name).strip() for name in ("title", "check", "tool", "file", "snippet", "action"))


def test_signals_have_known_namespaces():
    assert {signal.partition(":")[0] for signal in SIGNALS} <= NAMESPACES


@pytest.mark.parametrize("key", sorted({s.partition(":")[2] for s in SIGNALS if s.startswith("ladder:")}))
def test_ladder_signals_name_real_rules_with_a_limit(key):
    rule = lookup(key)
    assert rule is not None and rule.key == key
    assert rule.kind in ("max", "min")


@pytest.mark.parametrize("signal", [s for s in SIGNALS if s.partition(":")[0] in ("ruff", "flake8")])
def test_code_signals_look_like_codes(signal):
    linter, _, code = signal.partition(":")
    pattern = r"[A-Z]{1,3}[0-9]{0,3}" if linter == "flake8" else r"[A-Z]{1,5}[0-9]{0,4}"
    assert re.fullmatch(pattern, code)


def test_every_snippet_has_a_shape_test():
    assert {shape_of(topic) for topic in TOPICS} <= SHAPES


@pytest.mark.parametrize("topic", rows(lambda t: t.format == "toml"))
def test_a_toml_snippet_holds_its_tools_table(topic):
    data = toml_loads(topic.snippet)
    assert topic.file == "pyproject.toml"
    assert isinstance(dig(data, TOML_TABLES[topic.tool]), dict)


def role_limits(thresholds: dict) -> dict:
    """(role, key) → limit of the role sub-tables of a [tool.ladder.thresholds] table."""
    return {(role, key): value for role, table in thresholds.items() if isinstance(table, dict)
            for key, value in table.items()}


def limits_of(thresholds: dict) -> dict:
    """(role, key) → limit of a [tool.ladder.thresholds] table: flat keys are app's, sub-tables a role's."""
    flat = {("app", key): value for key, value in thresholds.items() if not isinstance(value, dict)}
    return {**flat, **role_limits(thresholds)}


@pytest.mark.parametrize("topic", rows(lambda t: t.tool == "ladder"))
def test_a_ladder_snippet_sets_the_limits_it_names(tmp_path, topic):
    (tmp_path / "pyproject.toml").write_text(topic.snippet, encoding="utf-8")
    wanted = limits_of(toml_loads(topic.snippet)["tool"]["ladder"]["thresholds"])
    settings = load_settings(tmp_path)
    assert {(role, key): settings.limit(role, key) for role, key in wanted} == wanted


@pytest.mark.parametrize("topic", rows(lambda t: t.file == ".pre-commit-config.yaml"))
def test_a_pre_commit_snippet_has_pre_commits_shape(topic):
    repos = yaml.safe_load(topic.snippet)["repos"]
    hooks = [hook for repo in repos for hook in repo["hooks"]]
    assert all(isinstance(repo["repo"], str) and isinstance(repo["rev"], str) for repo in repos)
    assert hooks and all(isinstance(hook["id"], str) for hook in hooks)


@pytest.mark.parametrize("topic", rows(lambda t: shape_of(t)[1] == "workflow"))
def test_a_workflow_snippet_is_a_job(topic):
    jobs = yaml.safe_load(topic.snippet)
    steps = [step for job in jobs.values() for step in job["steps"]]
    assert all(isinstance(job["runs-on"], str) for job in jobs.values())
    assert steps and all(("run" in step) != ("uses" in step) for step in steps)


@pytest.mark.parametrize("topic", rows(lambda t: t.format == "ini"))
def test_an_ini_snippet_holds_the_tools_section(topic):
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(topic.snippet)
    assert [s for s in parser.sections() if s.startswith("testenv:")]
    assert all(parser.get(s, "commands").strip() for s in parser.sections())


def paste(root: Path, topic: Topic) -> None:
    text = topic.snippet
    if shape_of(topic)[1] == "workflow":  # a job: under jobs: of a workflow
        text = "on: push\njobs:\n" + textwrap.indent(text, "  ")
    path = root / topic.file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("topic", rows(lambda t: True))
def test_pasting_the_snippet_enforces_the_topic(tmp_path, topic):
    paste(tmp_path, topic)
    warnings: list = []
    signals = detected_signals(SourceContext(root=tmp_path, warn=warnings.append), topics=[topic])
    assert set(topic.enforced_by) & set(signals), sorted(signals)
    assert warnings == []


# ---------------------------------------------------------------------------
# plugins' rows


def plugin(name: str, given: object) -> types.ModuleType:
    module = types.ModuleType(name)

    @hookimpl
    def ladder_feedback_topics():
        return given

    module.ladder_feedback_topics = ladder_feedback_topics
    return module


def manager(*plugins: types.ModuleType):
    return make_plugin_manager(plugins, entry_points=False)


NEW = Topic(id="no-sleep-in-tests", title="Tests that sleep", keywords=("sleep", "slow", "flaky"),
            check="a custom pytest plugin", tool="pytest", file="pyproject.toml", format="toml",
            snippet="[tool.pytest.ini_options]\naddopts = \"-p no_sleep\"\n", action="Forbid time.sleep in tests",
            enforced_by=("pytest:no-sleep",))


def test_without_plugin_rows_the_table_is_the_shipped_one():
    assert load_topics(manager(plugin("quiet", None))) == TOPICS
    assert set(BY_ID) <= {topic.id for topic in load_topics()}


def test_a_plugin_row_replaces_a_shipped_one_in_place_and_a_new_id_is_added():
    changed = dataclasses.replace(BY_ID["complexity"], check="radon cc --min C")
    topics = load_topics(manager(plugin("house_topics", [changed, NEW])))
    ids = [topic.id for topic in topics]
    assert ids == [topic.id for topic in TOPICS] + ["no-sleep-in-tests"]
    assert topics[ids.index("complexity")].check == "radon cc --min C"


def test_a_later_plugin_wins_and_rows_may_be_tables():
    row = {**dataclasses.asdict(NEW), "keywords": ["sleep"], "enforced_by": []}
    topics = load_topics(manager(plugin("first", [NEW]), plugin("second", [row])))
    assert topics[-1] == dataclasses.replace(NEW, keywords=("sleep",), enforced_by=())


@pytest.mark.parametrize("changes, field", [
    ({"keywords": "sleep"}, "keywords"), ({"keywords": ()}, "keywords"), ({"keywords": ("Sleep",)}, "keywords"),
    ({"format": "json"}, "format"), ({"id": "No Sleep"}, "id"), ({"enforced_by": ("no namespace",)}, "enforced_by"),
    ({"snippet": "  "}, "snippet"), ({"title": 3}, "title"),
])
def test_a_malformed_plugin_row_names_the_plugin_and_the_field(changes, field):
    pm = manager(plugin("bad_topics", [NEW, dataclasses.replace(NEW, **changes)]))
    with pytest.raises(LadderError) as raised:
        load_topics(pm)
    assert "plugin 'bad_topics'" in str(raised.value) and "row 1" in str(raised.value)
    assert f"field {field!r}" in str(raised.value)


@pytest.mark.parametrize("given, says", [
    ([42], "expected a Topic"), ("complexity", "expected a sequence of Topic"),
    ([{k: v for k, v in dataclasses.asdict(NEW).items() if k != "snippet"}], "field 'snippet' is missing"),
    ([{**dataclasses.asdict(NEW), "severity": "high"}], "unknown field 'severity'"),
])
def test_a_plugin_answer_that_is_no_table_of_topics_is_an_error(given, says):
    with pytest.raises(LadderError, match="plugin 'odd_topics'") as raised:
        load_topics(manager(plugin("odd_topics", given)))
    assert says in str(raised.value)
