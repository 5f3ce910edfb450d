"""One text per rule, shown twice: ``ladder explain CODE`` and the documentation site's page for the rule both
show the rule's section of the shipped ``rules.md`` (why it matters, an example, what to write instead), read
through ``ladder_plugins.reports.explain.rule_page``; the site from the generator the MkDocs hook runs.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path

import pytest

from ladder_plugins.catalogue import RULES, WORKLOG_RULES
from ladder_plugins.plugins import known_rules
from ladder_plugins.reports.explain import explain, rule_notes, rule_page

from .helpers.reports import ladder

HOOKS = Path(__file__).resolve().parents[1] / "docs" / "_hooks"
CODES = [*RULES, *WORKLOG_RULES]


@pytest.fixture(scope="module")
def site_rules():
    """The site's rule-page generator, imported as the MkDocs hook imports it."""
    sys.path.insert(0, str(HOOKS))
    try:
        from ladder_docs import configuration, rules
    finally:
        sys.path.remove(str(HOOKS))
    return rules, configuration.key_names()


def _rule(code: str):
    return RULES.get(code) or WORKLOG_RULES[code]


def test_rules_md_is_shipped_and_has_a_section_for_every_code_and_no_other():
    assert resources.files("ladder_plugins").joinpath("rules.md").is_file()
    assert set(rule_notes()) == set(CODES)
    assert "rules.md" in (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()  # package data


@pytest.mark.parametrize("code", CODES)
def test_the_site_page_and_ladder_explain_show_the_same_rule_text(code, site_rules):
    rules, keys = site_rules
    text = rule_page(_rule(code))
    assert "## Why it matters" in text and "## Example" in text and "## Use instead" in text, code
    assert text in rules.page(_rule(code), keys)
    explained = explain(code, [*known_rules(), *WORKLOG_RULES.values()])  # what `ladder explain CODE` prints
    # a terminal gets a link to another page of the site as its text: the same words, without the address
    assert re.sub(r"\[([^\]\n]+)\]\((?![a-z]+://)[^)\s]+\)", r"\1", text) in explained


def test_a_link_of_the_rule_text_is_its_text_in_a_terminal(tmp_path):
    assert "[Recurrence](../../explanation/recurrence.md)" in rule_page(RULES["LAD900"])
    explained = ladder(["explain", "LAD900"], tmp_path).stdout
    assert "(see Recurrence)" in explained and "](" not in explained
