"""``worklog.kbindex``: the ``_index.md`` text ``ladder kb index`` writes (deterministic: the newest
``updated`` as written, tags and ids sorted) and how a stale one differs: the first differing line, and the
tags missing, extra or listing other notes."""

from __future__ import annotations

from ladder_plugins.worklog.kbindex import difference, render
from ladder_plugins.worklog.notes import Note, note_of_text

from tests.helpers.kb import CURATED, RAW, note_text


def _note(ident, folder, **values):
    return note_of_text(note_text(ident, folder, **values), f"kb/{folder}/{ident}.md", folder, ident)


NOTES = [_note(RAW, "raw"),
         _note(CURATED, "curated", tags="[type/test, topic/db-pooling, bad tag]", updated="2026-03-05 17:00:00Z")]

INDEX = f"""# KB Index
Updated: 2026-03-05 17:00:00Z
Total notes: 3 (raw: 2, archive: 0, curated: 1)

## Tag Index
- topic/db-pooling: [{RAW}, {CURATED}]
- type/hypothesis: [{RAW}]
- type/test: [{CURATED}]
"""


def test_render_is_the_index_of_the_notes():
    assert render({"raw": 2, "curated": 1}, NOTES) == INDEX


def test_render_does_not_depend_on_the_order_of_the_notes():
    assert render({"raw": 2, "curated": 1}, list(reversed(NOTES))) == INDEX


def test_an_unread_note_counts_in_the_totals_only():
    broken = Note(shown="kb/raw/x.md", folder="raw", stem="x", read=False, data={"tags": ["topic/zzz"]})
    text = render({"raw": 1}, [broken])
    assert text == "# KB Index\nUpdated: -\nTotal notes: 1 (raw: 1, archive: 0, curated: 0)\n\n## Tag Index\n"


def test_an_index_as_written_does_not_differ_even_with_crlf_and_trailing_lines():
    assert difference(INDEX, INDEX) is None
    assert difference(INDEX.replace("\n", "\r\n") + "\r\n\r\n", INDEX) is None


def test_a_stale_count_is_its_line_and_both_texts():
    stale = INDEX.replace("Total notes: 3", "Total notes: 2")
    assert difference(stale, INDEX) == (3, "line 3 is 'Total notes: 2 (raw: 2, archive: 0, curated: 1)', expected "
                                           "'Total notes: 3 (raw: 2, archive: 0, curated: 1)'")


def test_tags_missing_extra_or_listing_other_notes():
    stale = INDEX.replace(f"- type/test: [{CURATED}]\n", "- type/old: [x]\n").replace(f", {CURATED}]", "]")
    line, how = difference(stale, INDEX)
    assert line == 6
    assert how == (f"tag type/test is missing; tag 'type/old' is in no note; tag topic/db-pooling lists [{RAW}], "
                   f"expected [{RAW}, {CURATED}]")


def test_a_shorter_file_differs_at_its_end_and_says_its_tags_first():
    short = "\n".join(INDEX.split("\n")[:3]) + "\n"
    assert difference(short, INDEX) == (4, "tag topic/db-pooling is missing; tag type/hypothesis is missing; "
                                           "tag type/test is missing")
    longer = INDEX + "A last line.\n"
    assert difference(INDEX, longer) == (9, "line 9 is the end of the file, expected 'A last line.'")


def test_more_than_three_tag_differences_are_counted():
    many = INDEX + "".join(f"- topic/x{n}: [a]\n" for n in range(5))
    assert difference(many, INDEX)[1].endswith(" and 2 more")
