"""Level 2, documentation: instruction files and rules files cut into pieces of feedback.

Each test builds a small project in ``tmp_path`` with the files as the hosts write them
(Claude Code ``CLAUDE.md`` and ``.claude/rules``, Codex ``AGENTS.md``, Gemini ``GEMINI.md``,
Cursor ``.cursor/rules/*.mdc``) and runs the source as the tracker does: through its hook.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ladder_plugins.tracker.sources import docs
from ladder_plugins.tracker.files import identity_of
from tests.helpers.feedback import locations, scan_with, texts, write


def scan(root: Path, max_bytes: int = 1 << 20) -> tuple[list, list]:
    return scan_with(docs, root, max_bytes)


CLAUDE_MD = """\
# Project guide

This project is a flake8 plugin suite.
It has a CLI.

## Testing

- Always add a regression test
  when you fix a bug.
* Use `tmp_path`, never the real home directory.
1. Run the suite with `-n auto`.

@AGENTS.md
"""


def test_every_instruction_file_at_the_root_is_read(tmp_path):
    for name in docs.ROOT_DOCUMENTS:
        write(tmp_path, name, f"- Follow {name}\n")
    found, warnings = scan(tmp_path)
    assert texts(found) == [f"Follow {name}" for name in docs.ROOT_DOCUMENTS]
    assert locations(found) == [f"{name}:1" for name in docs.ROOT_DOCUMENTS]
    assert {(s.level, s.source, s.dated) for s in found} == {(2, "docs", "file time (not a git repository)")}
    assert all(s.when for s in found)  # outside git, a file's modification time
    assert warnings == []


def test_a_list_item_or_a_paragraph_is_one_piece_with_its_heading_as_context(tmp_path):
    write(tmp_path, "CLAUDE.md", CLAUDE_MD)
    found, warnings = scan(tmp_path)
    assert texts(found) == [
        "This project is a flake8 plugin suite. It has a CLI.",
        "Always add a regression test when you fix a bug.",
        "Use `tmp_path`, never the real home directory.",
        "Run the suite with `-n auto`.",
    ]
    assert [s.context for s in found] == ["Project guide", "Testing", "Testing", "Testing"]
    assert locations(found) == ["CLAUDE.md:3", "CLAUDE.md:8", "CLAUDE.md:10", "CLAUDE.md:11"]
    assert found[1].identity == identity_of("CLAUDE.md", "Always add a regression test when you fix a bug.")
    assert warnings == []


def test_fenced_code_and_html_comments_are_not_feedback(tmp_path):
    write(tmp_path, "AGENTS.md", """\
        <!-- ladder:begin managed block -->
        - Keep functions short.
        <!--
        - A rule someone commented out.
        -->
        ```bash
        - not an item: inside a fence
        ```
        ~~~~
        ```
        still code
        ~~~~
        Prefer pathlib <!-- inline note --> over os.path.
        - Run the linter:
          ```
          - code inside a list item
          ```
        """)
    found, _ = scan(tmp_path)
    assert texts(found) == ["Keep functions short.", "Prefer pathlib over os.path.", "Run the linter:"]
    assert locations(found) == ["AGENTS.md:2", "AGENTS.md:13", "AGENTS.md:14"]


def test_headings_setext_headings_and_rules_alone_are_no_feedback(tmp_path):
    write(tmp_path, "GEMINI.md", "# Title\n\n## Empty section\n\nSetext heading\n==============\n\n---\n-\n")
    found, warnings = scan(tmp_path)
    assert found == []
    assert warnings == []


def test_a_table_row_is_a_piece_and_its_header_is_not(tmp_path):
    write(tmp_path, "CODING_STANDARDS.md", """\
        ## Review checklist

        | Rule | Why |
        |------|:---:|
        | No print calls | use logging |
        | Type hints on public functions | mypy --strict |
        """)
    found, _ = scan(tmp_path)
    assert texts(found) == [
        "No print calls | use logging",
        "Type hints on public functions | mypy --strict",
    ]
    assert locations(found) == ["CODING_STANDARDS.md:5", "CODING_STANDARDS.md:6"]


def test_an_instruction_files_front_matter_is_left_out_and_a_broken_one_is_text(tmp_path):
    write(tmp_path, "CLAUDE.md", "---\ntitle: guide\n---\n- Use ruff.\n")
    write(tmp_path, "AGENTS.md", "---\n- Keep it simple.\n---\n- Use mypy.\n")  # rules around a list, not YAML
    found, warnings = scan(tmp_path)
    assert texts(found) == ["Use ruff.", "Keep it simple.", "Use mypy."]
    assert locations(found) == ["CLAUDE.md:4", "AGENTS.md:2", "AGENTS.md:4"]
    assert warnings == []


RULE_WITH_LIST = """\
---
paths:
  - "src/api/**"
---
- Every endpoint validates its input.
"""

RULE_WITH_STRING = """\
---
paths: tests/**/*.py
description: How tests are written
---
# Tests
Name tests after the behaviour they check.
"""


def test_rules_are_found_recursively_with_the_paths_they_apply_to(tmp_path):
    write(tmp_path, ".claude/rules/api.md", RULE_WITH_LIST)
    write(tmp_path, ".claude/rules/team/deep/testing.md", RULE_WITH_STRING)
    write(tmp_path, ".claude/rules/general.md", "Answer in English.\n")
    write(tmp_path, ".claude/rules/notes.txt", "not a rule\n")
    found, warnings = scan(tmp_path)
    assert locations(found) == [
        ".claude/rules/api.md:5 (paths: src/api/**)",
        ".claude/rules/general.md:1",
        ".claude/rules/team/deep/testing.md:3 (paths: tests/**/*.py)",
        ".claude/rules/team/deep/testing.md:6 (paths: tests/**/*.py)",
    ]
    assert texts(found)[2:] == ["How tests are written", "Name tests after the behaviour they check."]
    assert warnings == []


CURSOR_ALWAYS = """\
---
description: Python style
globs:
alwaysApply: true
---
- Use f-strings, not `%` formatting.
"""

CURSOR_GLOBS = """\
---
description:
globs: src/**/*.py, tests/**/*.py
alwaysApply: false
---
Never catch bare exceptions.
"""


def test_cursor_rules_are_mdc_files_with_their_description_and_globs(tmp_path):
    write(tmp_path, ".cursor/rules/style.mdc", CURSOR_ALWAYS)
    write(tmp_path, ".cursor/rules/errors.mdc", CURSOR_GLOBS)
    write(tmp_path, ".cursor/rules/ignored.md", "- Cursor ignores plain Markdown here.\n")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["Never catch bare exceptions.", "Python style", "Use f-strings, not `%` formatting."]
    assert locations(found) == [
        ".cursor/rules/errors.mdc:6 (globs: src/**/*.py, tests/**/*.py)",
        ".cursor/rules/style.mdc:2 (alwaysApply)",
        ".cursor/rules/style.mdc:6 (alwaysApply)",
    ]
    assert warnings == []


def identities(root: Path) -> list:
    return [sighting.identity for sighting in scan(root)[0]]


def test_identities_are_stable_and_change_only_for_the_piece_that_changed(tmp_path):
    write(tmp_path, "CLAUDE.md", CLAUDE_MD)
    before = identities(tmp_path)
    assert identities(tmp_path) == before
    write(tmp_path, "CLAUDE.md", "\n\n" + CLAUDE_MD.replace("when you fix a bug.", "when you fix any bug."))
    after = identities(tmp_path)
    assert [a == b for a, b in zip(before, after)] == [True, False, True, True]


def test_rewrapping_a_piece_keeps_its_identity_and_another_file_gives_another(tmp_path):
    write(tmp_path, "CLAUDE.md", "- Keep functions\n  short.\n")
    write(tmp_path, "AGENTS.md", "- Keep functions short.\n")
    first = identities(tmp_path)
    write(tmp_path, "CLAUDE.md", "- Keep functions short.\n")
    assert identities(tmp_path) == first
    assert first[0] != first[1]


@pytest.mark.parametrize("text, problem, line", [
    ("---\npaths: [src/**\n---\n- Body still read.\n", "not valid YAML at line", 4),
    ("---\n- a list\n---\n- Body still read.\n", "not a mapping", 4),
    ("---\npaths: {src: 1}\n---\n- Body still read.\n", "`paths` is neither a glob nor a list of globs", 4),
    ("---\ndescription: [1]\npaths: [1]\n---\n- Body still read.\n", "`description` is not text", 5),
    ("---\nsince: 2026-13-45\n---\n- Body still read.\n", "cannot be read (month must be in 1..12)", 4),
    ("---\npaths: " + "[" * 500 + "\n---\n- Body still read.\n", "cannot be read (nested too deeply)", 4),
], ids=["bad-yaml", "a-list", "paths-a-mapping", "description-a-list", "bad-date", "deep-nesting"])
def test_a_malformed_front_matter_is_one_warning_and_the_body_is_still_read(tmp_path, text, problem, line):
    write(tmp_path, ".claude/rules/broken.md", text)
    found, warnings = scan(tmp_path)
    assert texts(found) == ["Body still read."]
    assert locations(found) == [f".claude/rules/broken.md:{line}"]
    assert len(warnings) == 1
    assert warnings[0].startswith(".claude/rules/broken.md: ") and problem in warnings[0]


def test_a_malformed_cursor_front_matter_is_one_warning(tmp_path):
    write(tmp_path, ".cursor/rules/bad.mdc", "---\nglobs: [*.py\n---\nKeep it.\n")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["Keep it."]
    assert len(warnings) == 1 and warnings[0].startswith(".cursor/rules/bad.mdc: ")


def test_huge_non_utf8_and_empty_files_are_skipped_each_with_one_warning(tmp_path):
    write(tmp_path, "CLAUDE.md", "- " + "x" * 200 + "\n")
    (tmp_path / "AGENTS.md").write_bytes(b"- caf\xe9\n")
    write(tmp_path, "GEMINI.md", "")
    write(tmp_path, ".claude/rules/big.md", "y" * 300)
    found, warnings = scan(tmp_path, max_bytes=100)
    assert found == []
    assert [w.split(":")[0] for w in warnings] == ["CLAUDE.md", "AGENTS.md", ".claude/rules/big.md"]
    assert "bytes" in warnings[0] and "UTF-8" in warnings[1]


def test_symlinks_leading_outside_the_root_are_never_followed(tmp_path):
    outside, root = tmp_path / "outside", tmp_path / "project"
    write(outside, "secret.md", "- outside file\n")
    write(outside, "shared/leak.md", "- outside directory\n")
    write(root, ".claude/rules/own.md", "- inside\n")
    os.symlink(outside / "secret.md", root / ".claude/rules/secret.md")
    os.symlink(outside / "shared", root / ".claude/rules/shared")
    os.symlink(outside / "secret.md", root / "CLAUDE.md")
    found, warnings = scan(root)
    assert texts(found) == ["inside"]
    assert sorted(w.split(":")[0] for w in warnings) == [
        ".claude/rules/secret.md", ".claude/rules/shared", "CLAUDE.md"]


def test_a_symlinked_rules_directory_leading_outside_is_one_warning(tmp_path):
    outside, root = tmp_path / "outside", tmp_path / "project"
    write(outside, "rules/leak.md", "- outside\n")
    (root / ".claude").mkdir(parents=True)
    os.symlink(outside / "rules", root / ".claude/rules")
    found, warnings = scan(root)
    assert found == []
    assert len(warnings) == 1 and warnings[0].startswith(".claude/rules: leads outside")


def test_a_symlinked_directory_inside_the_root_is_read_once_even_in_a_cycle(tmp_path):
    write(tmp_path, "shared/rules/common.md", "- shared rule\n")
    write(tmp_path, ".claude/rules/own.md", "- own rule\n")
    os.symlink(tmp_path / "shared/rules", tmp_path / ".claude/rules/common")
    os.symlink(tmp_path / ".claude/rules", tmp_path / "shared/rules/back")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["shared rule", "own rule"]
    assert warnings == []


def test_crlf_line_ends_and_odd_line_separators_keep_the_line_numbers(tmp_path):
    path = tmp_path / ".claude/rules/crlf.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\r\npaths: src/**\r\n---\r\n# Style\f\r\n- one\u2028two\r\n- three\r\n", newline="")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["one two", "three"] and {s.context for s in found} == {"Style"}
    assert locations(found) == [".claude/rules/crlf.md:5 (paths: src/**)", ".claude/rules/crlf.md:6 (paths: src/**)"]
    assert warnings == []


def test_the_walk_of_the_rules_is_bounded_with_one_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(docs, "MAX_RULE_FILES", 3)
    for number in range(5):
        write(tmp_path, f".claude/rules/r{number}.md", f"- rule {number}\n")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["rule 0", "rule 1", "rule 2"]
    assert len(warnings) == 1 and warnings[0].startswith(".claude/rules: more than 3 rule files")


def test_the_walk_of_the_rules_stops_after_so_many_directories(tmp_path, monkeypatch):
    monkeypatch.setattr(docs, "MAX_RULE_DIRS", 2)
    for name in ("a", "b", "c"):
        write(tmp_path, f".claude/rules/{name}/rule.md", f"- rule {name}\n")
    found, warnings = scan(tmp_path)
    assert texts(found) == ["rule a"]
    assert len(warnings) == 1 and warnings[0].startswith(".claude/rules: more than 2 directories")


def test_ladders_own_managed_block_is_not_read_as_documentation(tmp_path):
    write(tmp_path, "CLAUDE.md", "- Keep functions short.\n<!-- ladder:rules:begin -->\n### Major: bare except (3×)\n"
                                 "- Major: print calls (3×) (shortened to fit)\n<!-- ladder:rules:end -->\n- Name things.\n")
    found, warned = scan(tmp_path)
    assert texts(found) == ["Keep functions short.", "Name things."] and warned == []
