"""One text per rule, shown twice: ``ladder explain CODE`` and the documentation site's page for the rule both
show the rule's section of the shipped ``rules.md`` (why it matters, an example, what to write instead), read
through ``ladder_plugins.reports.explain.rule_page``; the site from the generator the MkDocs hook runs.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

from ladder_plugins.catalogue import RULES, WORKLOG_RULES
from ladder_plugins.plugins import known_rules
from ladder_plugins.reports.explain import explain, for_terminal, rule_notes, rule_page

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
    assert for_terminal(text) in explained


def test_a_terminal_gets_the_words_without_site_links_or_example_markers(tmp_path):
    assert "[Recurrence](../../explanation/recurrence.md)" in rule_page(RULES["LAD900"])
    assert "<!-- example: demo check 3 -->" in rule_page(RULES["LAD900"])
    explained = ladder(["explain", "LAD900"], tmp_path).stdout
    assert "(see Recurrence)" in explained and "](" not in explained and "<!--" not in explained
    assert for_terminal("a [page](../x.md#a), [PEP 8](https://peps.python.org/pep-0008/)\n<!-- m -->\nb\n") == (
        "a page, [PEP 8](https://peps.python.org/pep-0008/)\nb\n")
