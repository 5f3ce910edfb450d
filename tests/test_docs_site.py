"""The documentation site builds, strictly, and its reference is the code's.

``mkdocs build --strict`` runs once for the module, into a temporary directory: a broken link or anchor, a
page missing from the nav, a rule without its notes, a configuration key or an event field without its
meaning is a warning, and a warning fails the build. The checks after it read the built pages: every code
``ladder explain --list`` prints has a page, the command-line page holds every command's ``--help``, the
configuration page lists every key. The build is skipped, saying why, only where mkdocs is not installed
(``python3 -m pip install -e ".[docs]"``; the ``test`` extra pulls it in).
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "_hooks"


def _text(page: Path) -> str:
    """A built page's text as a reader sees it: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs or mkdocs-material is not installed (python3 -m pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def generators():
    """The site's generator modules, imported as the MkDocs hook imports them."""
    sys.path.insert(0, str(HOOKS))
    try:
        from ladder_docs import cli, configuration
    finally:
        sys.path.remove(str(HOOKS))
    return cli, configuration


def test_the_site_builds_strictly_with_every_section(site):
    for section in ("tutorial", "how-to", "reference", "explanation", "contributing"):
        assert (site / section / "index.html").is_file(), section
    assert (site / "reference" / "rules" / "LAD102" / "index.html").is_file()


def test_every_code_ladder_explain_lists_has_a_page(site):
    listed = subprocess.run([sys.executable, "-m", "ladder_plugins", "explain", "--list"], capture_output=True,
                            text=True, timeout=60, check=True).stdout
    codes = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert len(codes) >= 40, listed
    for code in codes:
        page = site / "reference" / "rules" / code / "index.html"
        assert page.is_file(), f"{code} has no page"
        text = _text(page)
        assert f"{code} " in text and "Limits per role" in text and "Use instead" in text, code


def test_a_rule_page_holds_its_definition_and_its_limits(site):
    text = _text(site / "reference" / "rules" / "LAD102" / "index.html")
    assert "How it counts" in text and "Differences from sonar-python" in text
    assert re.search(r"test\s+8", text) and re.search(r"script\s+25", text)


def test_the_command_line_page_holds_every_commands_help(site, generators):
    cli, _ = generators
    text = _text(site / "reference" / "cli" / "index.html")
    helps = list(cli.helps())
    assert len(helps) >= 30 and {"ladder check", "ladder history prune", "ladder hook install"} <= {w for w, _ in helps}
    for words, help_text in helps:
        assert help_text.strip() in text, f"{words}: its --help is not on the page"


def test_the_configuration_page_lists_every_key(site, generators):
    _, configuration = generators
    text = _text(site / "reference" / "configuration" / "index.html")
    keys = configuration.key_names()  # the package's key table
    assert {"mode", "recurrence.git_since", "feedback.grace_days", "worklog.kb"} <= set(keys)
    for name in keys:
        assert name in text, f"configuration key {name} is not on the page"
    from ladder_plugins.catalogue import RULES

    for rule in RULES.values():
        if rule.kind in ("max", "min"):
            assert rule.key in text, f"{rule.key}: no limits on the configuration page"


def test_the_configuration_page_is_the_key_table_the_parser_reads(generators):
    """The page's key table is ``reference_markdown()`` itself, where the page's marker puts it."""
    from ladder_plugins.settings.reference import reference_markdown

    _, configuration = generators
    assert reference_markdown().strip() in configuration.page()
    assert "<!-- ladder-docs: configuration -->" in (ROOT / "docs" / "reference" / "configuration.md").read_text()


def test_the_html_report_screenshot_is_there_or_says_why(site):
    text = _text(site / "how-to" / "read-history" / "index.html")
    shot = site / "assets" / "html-report.png"
    assert shot.is_file() or "No screenshot in this build" in text
    if shot.is_file():
        assert shot.read_bytes().startswith(b"\x89PNG")
