"""``worklog.noteschema.check_note``: one note judged alone against the schema, each problem under its rule at
the line of the key it is about, saying what is there and what is expected."""

from __future__ import annotations

import pytest

from ladder_plugins.worklog.noteschema import EXPECTED, check_note
from ladder_plugins.worklog.notes import note_of_text

from tests.helpers.kb import ARCHIVED, CURATED, RAW, line_of, note_text


def _check(ident=RAW, folder="raw", stem=None, body=None, **values):
    text = note_text(ident, folder, **values) if body is None else note_text(ident, folder, body=body, **values)
    note = note_of_text(text, f"kb/{folder}/{stem or ident}.md", folder, stem or ident)
    return [(p.rule.key, p.line, p.message) for p in check_note(note)]


def test_a_valid_note_has_no_problem():
    assert _check() == []
    assert _check(CURATED, "curated") == []
    assert _check(ARCHIVED, "archive", archived_reason='"superseded by pooling"') == []


@pytest.mark.parametrize("key, value, rule, message", [
    ("title", '"abc"', "kb_field", "title has 3 characters; expected a text of 5 to 80 characters"),
    ("domain", "cooking", "kb_field", f"domain is 'cooking'; expected {EXPECTED['domain']}"),
    ("confidence", "1.5", "kb_field", f"confidence is 1.5; expected {EXPECTED['confidence']}"),
    ("confidence", ".nan", "kb_field", f"confidence is nan; expected {EXPECTED['confidence']}"),
    ("created", "yesterday", "kb_field", f"created is 'yesterday'; expected {EXPECTED['created']}"),
    ("tags", "[]", "kb_field", f"tags is a list of 0 items; expected {EXPECTED['tags']}"),
    ("links", "[{a: 1}]", "kb_link", "links item 1 is a mapping; expected a note id"),
    ("links", "x", "kb_link", "links is 'x'; expected a list of note ids"),
    ("evidence", "[E1, X2]", "kb_evidence", "evidence item 2 is 'X2'; expected an E# reference such as E1 or E1.2"),
    ("decision_id", "3", "kb_field", f"decision_id is 3; expected {EXPECTED['decision_id']}"),
])
def test_a_field_out_of_the_schema_is_said_at_its_line(key, value, rule, message):
    assert _check(**{key: value}) == [(rule, line_of(key), message)]


def test_a_near_tag_prefix_is_named_with_the_one_meant():
    (found,) = _check(tags="[tpye/test, topic/x]")
    assert found[:2] == ("kb_field", line_of("tags"))
    assert found[2].startswith("tag 'tpye/test' has the prefix 'tpye/': did you mean 'type/'? (prefixes: ")


def test_a_required_field_missing_is_at_line_one():
    assert _check(domain=None) == [("kb_field", 1, f"has no domain; expected domain: {EXPECTED['domain']}")]


def test_an_id_that_is_not_the_file_name_or_no_real_time():
    assert _check(stem="other") == [
        ("kb_id", line_of("id"), f"id '{RAW}' is not the file name 'other' without .md; expected them equal")]
    bad = "20261399-250000-slug"
    assert _check(bad) == [
        ("kb_id", line_of("id"), f"id '{bad}' does not start with a real date and time; expected {EXPECTED['id']}")]


def test_a_status_in_the_wrong_folder_says_where_it_lives():
    (found,) = _check(status="curated")
    assert found[:2] == ("kb_status", line_of("status"))
    assert found[2] == ("status is 'curated' but the note is in raw/: expected 'raw' there (curated notes live in "
                        "curated/; 'ladder kb move' moves a note and sets its status)")


def test_updated_before_created():
    assert _check(updated="2026-03-03T14:00:00") == [
        ("kb_field", line_of("updated"), "updated 2026-03-03T14:00:00 is before created 2026-03-03T14:30:00; "
                                         "expected updated on or after created")]


def test_a_curated_note_needs_evidence_that_its_section_holds():
    assert _check(CURATED, "curated", evidence="[]") == [
        ("kb_evidence", line_of("evidence"), "a curated note has no evidence; expected evidence: [E1, ...] naming "
                                             "E# entries of its ## Evidence section")]
    (found,) = _check(CURATED, "curated", evidence="[E1, E2]")
    assert found[:2] == ("kb_evidence", line_of("evidence"))
    assert found[2].startswith("evidence names E2, which is no entry of the ## Evidence section")


def test_an_evidence_entry_without_its_fields_is_at_its_own_line():
    body = "\n# Pooling\n\n## Evidence\n\n- E1: [benchmark] a number\n"
    found = _check(body=body)
    assert found == [("kb_evidence", line_of("confidence") + 7, "evidence entry E1 has no fetched_at and method; "
                      "expected 'fetched_at: <when>' and 'method: <how>' (or '=') on its line or the lines below it")]


def test_an_archived_note_needs_a_reason():
    assert _check(ARCHIVED, "archive") == [
        ("kb_archived_reason", line_of("status"), "an archived note has no archived_reason; expected "
                                                  f"archived_reason: {EXPECTED['archived_reason']}")]


def test_a_note_that_cannot_be_read_says_only_why():
    note = note_of_text("---\nid: [x\n---\n", f"kb/raw/{RAW}.md", "raw", RAW)
    found = check_note(note)
    assert [p.rule.key for p in found] == ["kb_frontmatter"]
    assert found[0].line == 3
