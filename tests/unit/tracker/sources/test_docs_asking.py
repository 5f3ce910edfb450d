"""A piece of an instruction file that only names places (links, paths) or says what a named thing is (an index
of packages or tools) is no feedback: the docs source leaves it out, and real rules in many forms stay."""

from __future__ import annotations

import pytest

from ladder_plugins.tracker.sources import docs
from ladder_plugins.tracker.sources.asking import is_feedback
from tests.helpers.feedback import scan_with, texts, write

AGENTS_MD = """\
# Guide

## Directory-specific instructions

- [docs/AGENTS.md](docs/AGENTS.md)
- [pkg/models/AGENTS.md](pkg/models/AGENTS.md)
- `src/app/handlers/`
- https://example.org/guide

## Packages

- `clai` in `clai/`: a [CLI](docs/cli.md) (with an optional [web UI](docs/web.md)) to chat with agents
- `ruff` via `make lint` and `make format`
- [`logfire`](docs/logfire.md) for OTel instrumentation

## Rules

- Run `make test` before you push.
- `ruff`: run it before every commit
- `print()` must not be left in committed code
- No magic numbers
"""


def test_links_paths_and_an_index_of_packages_are_no_sightings(tmp_path):
    write(tmp_path, "AGENTS.md", AGENTS_MD)
    found, warnings = scan_with(docs, tmp_path, 1 << 20)
    assert texts(found) == [
        "Run `make test` before you push.",
        "`ruff`: run it before every commit",
        "`print()` must not be left in committed code",
        "No magic numbers",
    ]
    assert warnings == []


@pytest.mark.parametrize("text", [
    "Strict mypy compliance",
    "Functions that are too long",
    "NO MAGIC NUMBERS",
    "Naming: snake_case for functions/variables, PascalCase for classes",
    "update/add all relevant documentation, following the existing voice and patterns",
    "`\"r\"` is assumed and can be removed wherever it's used",
    "datetime.utcnow() is deprecated from Python 3.12 and returns a naive datetime.",
    "Tests use `pytest` with `tmp_path` fixtures and `unittest.mock`",
    "`subprocess` with `shell=True` is forbidden",
    "Use [the style guide](docs/style.md) for every new module",
    "Dependencies are recorded in pyproject.toml, not requirements.txt.",
])
def test_real_rules_in_many_forms_stay_feedback(text):
    assert is_feedback(text)


@pytest.mark.parametrize("text", [
    "[pkg/profiles/AGENTS.md](pkg/profiles/AGENTS.md)",
    "`pydantic-evals` in `pydantic_evals/`: the [evaluation framework](docs/evals.md) for evaluating functions",
    "`pyright` via `make typecheck`",
    "docs/contributing.md",
    "<https://example.org/x>",
])
def test_names_of_places_and_descriptions_of_named_things_are_not(text):
    assert not is_feedback(text)


HOSTILE = {"backticks": "`" * 50_000, "dashes": "-" * 50_000, "dashes and slashes": "-/" * 25_000,
           "a name then backticks": "`ruff` " + "`" * 50_000, "brackets": "[a](" * 12_500}


def test_hostile_pieces_are_judged_in_bounded_work_not_hours():
    """A piece of 50 KB of backticks took the inline-code pattern's backtracking some half an hour (cubic), 50 KB
    of dashes the path pattern's about 30 s: a scan of one such file never ended. The work is bounded now; a
    child process with a generous deadline tells a hang from an answer without timing anything."""
    import json
    import subprocess
    import sys

    code = ("import json, sys\nfrom ladder_plugins.tracker.sources.asking import is_feedback\n"
            "print(json.dumps({k: is_feedback(v) for k, v in json.loads(sys.stdin.read()).items()}))")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(HOSTILE), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == set(HOSTILE)


@pytest.mark.parametrize("text, spans", [
    ("run `ruff` via `make lint`", 2), ("``a ` b`` stays one span", 1), ("`a``b` is one span", 1),
    ("an unclosed ` tick", 0), ("``` three then one ` is none", 0),
])
def test_inline_code_spans_pair_runs_of_the_same_length(text, spans):
    from ladder_plugins.tracker.sources import asking

    assert len(asking._CODE.findall(text)) == spans


def test_a_piece_too_long_to_judge_is_kept_not_dropped_unsaid():
    """Judged by its head, this piece was left out although it asks something past the head: a rule lost
    without a word. A piece over READ characters is kept; its head alone is still no feedback."""
    from ladder_plugins.tracker.sources.asking import READ

    head = "`ruff` via `make lint`"
    assert is_feedback(head) is False
    assert is_feedback(head + " " * READ + "You must run it.") is True
