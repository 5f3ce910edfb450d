"""The README is short and leads into the documentation: at most 200 lines, the two commands exactly as CI runs
the second, and every link a relative one to a file of the repository (GitHub renders them), its ``#anchor`` a
heading there. Its examples are run by ``tests/test_docs_examples.py`` (output) and ``tests/test_ci_recipes.py``
(the GitHub job).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DEMO = "python3 -m pip install -e . && ladder demo"
SUITE = 'python3 -m pip install -e ".[test]" && python3 -m pytest -n auto'
LINK = re.compile(r"\[[^\]\n]+\]\(([^)\s]+)\)")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file (fenced blocks left out)."""
    headings = re.findall(r"^#{1,6} (.+)$", re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_the_readme_has_at_most_200_lines():
    assert len(_text().splitlines()) <= 200


def test_the_two_commands_are_there_as_they_were_and_ci_runs_the_second():
    assert f"```sh\n{DEMO}\n```" in _text() and f"```sh\n{SUITE}\n```" in _text()
    assert SUITE in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_every_link_is_a_file_of_the_repository_and_its_anchor_a_heading_there():
    links = LINK.findall(_text())
    assert len(links) >= 30
    for link in links:
        assert "://" not in link, f"{link}: the README links into the repository only"
        target, _, anchor = link.partition("#")
        path = ROOT / target
        assert path.is_file(), f"{link}: no such file"
        assert not anchor or anchor in slugs(path.read_text(encoding="utf-8")), f"{link}: no such heading"


def test_why_the_gate_failed_is_one_click_from_the_readme():
    """README -> the recurrence explanation's answer, and README -> LAD900's own text."""
    links = set(LINK.findall(_text()))
    assert {"docs/explanation/recurrence.md#why-did-the-gate-fail-on-this-function",
            "src/ladder_plugins/rules.md#lad900"} <= links


def _hand_written_pages() -> set[str]:
    """The site's pages written by hand, but the section indexes (the tutorial is one page: its index)."""
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md") if "_hooks" not in p.parts}
    return {page for page in pages if not page.endswith("/index.md")} | {"docs/index.md", "docs/tutorial/index.md"}


def test_every_page_of_the_site_that_is_written_by_hand_is_linked_from_the_readme():
    linked = {link.partition("#")[0] for link in LINK.findall(_text())}
    assert sorted(_hand_written_pages() - linked) == []
