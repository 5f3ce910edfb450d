"""The knowledge-base lint (``ladder kb check|index|move``) on real files: one failing case per rule, with its
code, line and the key part of its message; a valid base passes; the index is deterministic; ``move`` edits
only the lines it must and changes nothing when it refuses; nothing read is trusted."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.worklog import kb, kbmove
from tests.helpers.kb import (ARCHIVED, CURATED, RAW, build_kb, checked, code, found, line_of, loop, messages,
                              note_text, register_text, write, write_note)

NOW = datetime(2026, 3, 5, 10, 0, 0, 123456, tzinfo=timezone.utc)
#: NOW as the local wall-clock time of the ``tokyo`` fixture (UTC+9), to the second
NOW_IN_TOKYO = "2026-03-05T19:00:00"


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def tokyo(monkeypatch):
    """Local time is UTC+9 (a POSIX zone: no tz database needed), as for a note an agent wrote in Tokyo."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# -- a valid base, the layout ---------------------------------------------------------------


def test_a_valid_knowledge_base_has_no_problem(tmp_path):
    build_kb(tmp_path)
    assert kb.check_kb(tmp_path) == []


def test_a_missing_knowledge_base_is_one_layout_problem(tmp_path):
    assert [(p.code, p.path, p.line) for p in kb.check_kb(tmp_path)] == [(code("kb_layout"), "kb", 1)]
    assert "does not exist: no knowledge base" in kb.check_kb(tmp_path)[0].message


@pytest.mark.parametrize("rel, part", [
    ("stray.md", "outside raw/, archive/ and curated/"),
    ("raw/sub/x.md", "in a sub-folder of raw/"),
    ("notes/deep/y.md", "outside raw/, archive/ and curated/"),
])
def test_a_note_outside_the_three_folders_is_a_layout_problem(tmp_path, rel, part):
    build_kb(tmp_path)
    write(tmp_path, rel, note_text(RAW, "raw"))
    problems = [p for p in checked(tmp_path) if p.path == f"kb/{rel}"]
    assert [(p.code, p.line) for p in problems] == [(code("kb_layout"), 1)]
    assert part in problems[0].message


def test_a_missing_folder_or_index_is_a_layout_problem(tmp_path):
    build_kb(tmp_path)
    (tmp_path / "kb" / "archive" / f"{ARCHIVED}.md").unlink()
    (tmp_path / "kb" / "archive").rmdir()
    (tmp_path / "kb" / "_index.md").unlink()
    layout = {(p.path, p.line) for p in kb.check_kb(tmp_path) if p.code == code("kb_layout")}
    assert layout == {("kb/archive", 1), ("kb/_index.md", 1)}


def test_a_folder_named_like_a_note_and_other_files(tmp_path):
    """Every item of the knowledge base is a note (a .md file): a stray file in a note folder is reported (issue
    33), hidden files (an editor's, .gitkeep) are not."""
    build_kb(tmp_path)
    (tmp_path / "kb" / "raw" / "x.md").mkdir()
    (tmp_path / "kb" / "raw" / "plot.png").write_bytes(b"\x89PNG\0")
    (tmp_path / "kb" / "curated" / "20260303-170000-idea.MD").write_text("---\n---\n")
    (tmp_path / "kb" / "archive" / ".gitkeep").write_text("")
    assert found(tmp_path) == [(code("kb_layout"), "kb/curated/20260303-170000-idea.MD", 1),
                               (code("kb_layout"), "kb/raw/plot.png", 1), (code("kb_layout"), "kb/raw/x.md", 1)]
    messages = [p.message for p in kb.check_kb(tmp_path)]
    assert "is a folder, not a note file" in messages[2]
    assert messages[1] == ("is not a note (a note is a .md file) in a note folder; expected only notes in raw/, "
                           "archive/ and curated/: keep other files outside the knowledge base (a note may name "
                           "them)")


def test_a_symlink_out_of_the_project_is_reported_not_read(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside.md"
    build_kb(project)
    outside.write_text("---\n: [ not yaml\n---\n")
    os.symlink(outside, project / "kb" / "raw" / "20260303-170000-elsewhere.md")
    assert found(project) == [(code("kb_layout"), "kb/raw/20260303-170000-elsewhere.md", 1)]
    assert "outside the project root" in kb.check_kb(project)[0].message


def test_a_folder_symlinked_out_of_the_project_is_not_walked(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    build_kb(project)
    write(tmp_path / "outside", "raw/not-a-note.md", "no frontmatter")
    (project / "kb" / "archive" / f"{ARCHIVED}.md").unlink()
    (project / "kb" / "archive").rmdir()
    os.symlink(outside / "kb" / "raw", project / "kb" / "archive")
    assert found(project) == [(code("kb_layout"), "kb/archive", 1)]


# -- the frontmatter ------------------------------------------------------------------------


@pytest.mark.parametrize("text, line, part", [
    ("# no frontmatter\n", 1, "has no frontmatter"),
    ("---\nid: [unclosed\ntitle: x\n---\n", 3, "not valid YAML at line 3"),
    ("---\n- a list\n---\n", 1, "not a mapping"),
    ("---\nid: x\n", 1, "no closing '---'"),
])
def test_a_frontmatter_that_cannot_be_read(tmp_path, text, line, part):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", text)
    problems = [p for p in checked(tmp_path) if p.code == code("kb_frontmatter")]
    assert [(p.path, p.line) for p in problems] == [(f"kb/raw/{RAW}.md", line)]
    assert part in problems[0].message


def test_a_note_that_is_not_utf8_says_the_byte(tmp_path):
    build_kb(tmp_path)
    (tmp_path / "kb" / "raw" / f"{RAW}.md").write_bytes(b"---\nid: x\ntitle: caf\xe9\n---\n")
    assert messages(tmp_path, "kb_frontmatter") == ["is not UTF-8 (byte 20 is 0xe9); expected UTF-8 text"]
    assert found(tmp_path)[0][2] == 3


def test_a_binary_note_is_a_frontmatter_problem(tmp_path):
    build_kb(tmp_path)
    (tmp_path / "kb" / "raw" / f"{RAW}.md").write_bytes(b"\x7fELF\x02\x01\x00\x00binary")
    assert "binary file (a NUL byte at byte 6)" in messages(tmp_path, "kb_frontmatter")[0]


def test_a_yaml_tag_never_runs(tmp_path):
    build_kb(tmp_path)
    marker = tmp_path / "ran"
    write_note(tmp_path, "raw", RAW, title=f"!!python/object/apply:os.system ['touch {marker}']")
    assert [p[2] for p in found(tmp_path) if p[0] == code("kb_frontmatter")] == [line_of("title")]
    assert not marker.exists()


def test_a_key_written_twice_is_a_frontmatter_problem(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", note_text(RAW, "raw").replace("confidence: 0.6", "confidence: 0.6\nstatus: raw"))
    assert (code("kb_frontmatter"), f"kb/raw/{RAW}.md", line_of("status")) in found(tmp_path)
    assert "key 'status' appears 2 times" in messages(tmp_path, "kb_frontmatter")[0]


def test_a_frontmatter_too_long_is_not_parsed(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, padding="'" + "x" * 40000 + "'")
    assert "longer than 32768 characters" in messages(tmp_path, "kb_frontmatter")[0]


# -- the fields -----------------------------------------------------------------------------


@pytest.mark.parametrize("key, value, part", [
    ("title", '"Pool"', "title has 4 characters; expected a text of 5 to 80"),
    ("domain", "backend", "domain is 'backend'; expected research, code"),
    ("tags", "[]", "tags is a list of 0 items"),
    ("tags", "[tpye/benchmark]", "did you mean 'type/'"),
    ("tags", "[[a, b]]", "tag 1 is a list of 2 items"),
    ("created", "'yesterday'", "created is 'yesterday'; expected an ISO-8601 date"),
    ("updated", "2026-03-01", "updated 2026-03-01 is before created 2026-03-03T14:30:00"),
    ("confidence", "true", "confidence is true (a boolean); expected a number from 0.0 to 1.0"),
    ("confidence", "1.5", "confidence is 1.5"),
    ("confidence", "0x" + "f" * 400, "confidence is a very large integer"),
    ("decision_id", "3", "decision_id is 3; expected a D# of the work log"),
])
def test_a_field_of_the_wrong_form(tmp_path, key, value, part):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, **{key: value}, links=f"[{CURATED}]")
    assert (code("kb_field"), f"kb/raw/{RAW}.md", line_of(key)) in found(tmp_path)
    assert any(part in m for m in messages(tmp_path, "kb_field"))


def test_a_missing_required_field_is_named(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", note_text(RAW, "raw", drop=("confidence",), links=f"[{CURATED}]"))
    assert found(tmp_path) == [(code("kb_field"), f"kb/raw/{RAW}.md", 1)]
    assert messages(tmp_path, "kb_field") == ["has no confidence; expected confidence: a number from 0.0 to 1.0"]


def test_values_of_any_yaml_type_are_problems_not_errors(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, title="[{a: 1}, {b: 2}]", domain="null", tags="{x: 1}", created="2026-03-03",
               updated="!!binary aGVsbG8=", links=f"[{CURATED}, [[{CURATED}]], 7]", confidence=".nan")
    keys = {p.message.split(" ")[0] for p in checked(tmp_path) if p.path == f"kb/raw/{RAW}.md"}
    assert keys == {"title", "domain", "tags", "updated", "links", "confidence"}


# -- id, status, links ----------------------------------------------------------------------


@pytest.mark.parametrize("ident, part", [
    ("20260303-143000-Connection_Pooling", "expected YYYYMMDD-HHMMSS-slug"),
    ("20261303-143000-connection-pooling", "does not start with a real date and time"),
    ("20260303-143001-connection-pooling", "is not the file name '20260303-143000-connection-pooling'"),
])
def test_an_id_of_the_wrong_form_or_not_the_file_name(tmp_path, ident, part):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", note_text(ident, "raw", links=f"[{CURATED}]"))
    assert (code("kb_id"), f"kb/raw/{RAW}.md", line_of("id")) in found(tmp_path)
    assert any(part in m for m in messages(tmp_path, "kb_id"))


def test_an_id_used_twice_is_reported_at_both_notes(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "curated", RAW, links=f"[{CURATED}]")
    assert {p for p in found(tmp_path) if p[0] == code("kb_id")} == {
        (code("kb_id"), f"kb/raw/{RAW}.md", 2), (code("kb_id"), f"kb/curated/{RAW}.md", 2)}


def test_a_status_that_is_not_its_folders(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", note_text(RAW, "curated", links=f"[{CURATED}]"))
    assert found(tmp_path) == [(code("kb_status"), f"kb/raw/{RAW}.md", line_of("status"))]
    assert "status is 'curated' but the note is in raw/: expected 'raw'" in messages(tmp_path, "kb_status")[0]


def test_a_link_to_no_note_says_what_was_meant(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}, 20260303-150000-pool-size-tset]")
    assert found(tmp_path) == [(code("kb_link"), f"kb/raw/{RAW}.md", line_of("links"))]
    assert f"did you mean '{CURATED}'" in messages(tmp_path, "kb_link")[0]


def test_a_body_link_one_way_is_reported_where_the_back_link_goes(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "archive", ARCHIVED, title='"Polling approach"', evidence=None, archived_reason='"slow"',
               body=f"\n# Polling\n\nContradicted by [[{RAW}|pooling]].\n")
    assert found(tmp_path) == [(code("kb_link"), f"kb/raw/{RAW}.md", line_of("links"))]
    assert f"does not link back to '{ARCHIVED}'" in messages(tmp_path, "kb_link")[0]


# -- evidence, archived reason --------------------------------------------------------------


def test_a_curated_note_without_evidence(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, f"curated/{CURATED}.md", note_text(CURATED, "curated", links=f"[{RAW}]", drop=("evidence",)))
    assert found(tmp_path) == [(code("kb_evidence"), f"kb/curated/{CURATED}.md", 1)]
    assert "a curated note has no evidence" in messages(tmp_path, "kb_evidence")[0]


def test_an_evidence_entry_without_method_or_a_reference_to_no_entry(tmp_path):
    build_kb(tmp_path)
    body = "\n# Pool\n\n## Evidence\n\n### E1\nfetched_at: 12:05\n\n## Links\n"
    write_note(tmp_path, "curated", CURATED, links=f"[{RAW}]", evidence="[E1, E2]", body=body)
    path = f"kb/curated/{CURATED}.md"
    assert found(tmp_path) == [(code("kb_evidence"), path, line_of("evidence")), (code("kb_evidence"), path, 18)]
    assert "evidence entry E1 has no method" in messages(tmp_path, "kb_evidence")[1]


def test_an_archived_note_without_a_reason(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "archive", ARCHIVED, evidence=None)
    assert found(tmp_path) == [(code("kb_archived_reason"), f"kb/archive/{ARCHIVED}.md", line_of("status"))]
    assert "an archived note has no archived_reason" in messages(tmp_path, "kb_archived_reason")[0]


# -- registers, index -----------------------------------------------------------------------


def test_each_missing_register_is_one_problem(tmp_path):
    build_kb(tmp_path)
    for name in ("UNCERTAINTY-REGISTER", "GAP-REGISTER"):
        (tmp_path / "kb" / "curated" / f"{name}.md").unlink()
    assert found(tmp_path) == [(code("kb_register"), "kb/curated/GAP-REGISTER.md", 1),
                               (code("kb_register"), "kb/curated/UNCERTAINTY-REGISTER.md", 1)]


def test_a_register_with_other_columns_or_without_its_tag(tmp_path):
    build_kb(tmp_path)
    table = "| Gap | Missing Data |\n|---|---|\n"
    write(tmp_path, "curated/GAP-REGISTER.md", register_text("GAP-REGISTER", tags="[type/gap]", table=table))
    assert found(tmp_path) == [(code("kb_register"), "kb/curated/GAP-REGISTER.md", 2),
                               (code("kb_register"), "kb/curated/GAP-REGISTER.md", 6)]
    assert "expected | Gap ID | Missing Data | Impact" in messages(tmp_path, "kb_register")[1]


def test_a_stale_index_says_what_differs(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", tags="[topic/db-pooling, priority/high]")
    problems = kb.check_kb(tmp_path)
    assert [(p.code, p.path) for p in problems] == [(code("kb_index"), "kb/_index.md")]
    assert "stale: run 'ladder kb index'" in problems[0].message and "tag priority/high is missing" in problems[0].message


def test_the_index_format(tmp_path):
    build_kb(tmp_path)
    assert kb.index_text(tmp_path) == (
        "# KB Index\nUpdated: 2026-03-03T15:00:00\nTotal notes: 5 (raw: 1, archive: 1, curated: 3)\n\n"
        f"## Tag Index\n- loop/3: [{CURATED}]\n- topic/db-pooling: [{RAW}, {CURATED}]\n"
        f"- type/hypothesis: [{RAW}, {ARCHIVED}]\n- type/register: [GAP-REGISTER, UNCERTAINTY-REGISTER]\n")


def test_the_index_is_the_same_whatever_the_order_or_time_of_the_files(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    build_kb(first)
    build_kb(second)
    for number, path in enumerate(sorted((second / "kb").rglob("*.md"), reverse=True)):
        os.utime(path, (1_000_000 + number, 1_000_000 + number))
    assert kb.index_text(first) == kb.index_text(second) == kb.index_text(first)
    assert kb.write_index(second) is False


# -- move -----------------------------------------------------------------------------------


def test_move_to_curated_keeps_every_other_byte(tmp_path, tokyo):
    build_kb(tmp_path)
    source = tmp_path / "kb" / "raw" / f"{RAW}.md"
    before = source.read_text()
    moved = kbmove.move_note(tmp_path, "kb", RAW, "curated", reason=None, now=NOW)
    expected = before.replace("status: raw", "status: curated").replace(
        "updated: 2026-03-03T15:00:00", f"updated: {NOW_IN_TOKYO}")
    assert moved == tmp_path / "kb" / "curated" / f"{RAW}.md" and not source.exists()
    assert moved.read_text() == expected
    assert f"- topic/db-pooling: [{RAW}, {CURATED}]" in (tmp_path / "kb" / "_index.md").read_text()


def test_move_to_archive_adds_a_quoted_reason_and_keeps_crlf(tmp_path):
    build_kb(tmp_path)
    source = tmp_path / "kb" / "raw" / f"{RAW}.md"
    source.write_bytes(source.read_bytes().replace(b"\n", b"\r\n"))
    moved = kbmove.move_note(tmp_path, "kb", RAW, "archive", reason='p99 "45ms" was\na fluke', now=NOW)
    lines = moved.read_bytes().split(b"\r\n")
    assert lines[line_of("confidence")] == b'archived_reason: "p99 \\"45ms\\" was\\na fluke"'
    assert b"\n" not in moved.read_bytes().replace(b"\r\n", b"")


def test_move_replaces_a_multi_line_value_and_keeps_the_comments_after_it(tmp_path):
    build_kb(tmp_path)
    text = note_text(RAW, "raw", links=f"[{CURATED}]", archived_reason="|\n  an old reason\n  on two lines")
    write(tmp_path, f"raw/{RAW}.md", text.replace("two lines\n", "two lines\n\n# kept\n"))
    moved = kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="falsified", now=NOW)
    assert 'archived_reason: "falsified"\n\n# kept\n---\n' in moved.read_text()


def test_archive_without_a_reason_changes_nothing(tmp_path):
    build_kb(tmp_path)
    before = _tree(tmp_path)
    with pytest.raises(LadderError, match="needs a reason"):
        kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="  ", now=NOW)
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("note_id, target, part", [
    ("20260303-143000-connection-poling", "curated", f"did you mean '{RAW}'"),
    (CURATED, "curated", "in curated/ already"),
    (RAW, "trash", "unknown target 'trash'"),
    ("GAP-REGISTER", "archive", "is a register"),
    ("../../etc/passwd", "curated", "no note"),
])
def test_a_move_that_cannot_be_done_changes_nothing(tmp_path, note_id, target, part):
    build_kb(tmp_path)
    before = _tree(tmp_path)
    reason = "why" if target == "archive" else None
    with pytest.raises(LadderError, match=part):
        kbmove.move_note(tmp_path, "kb", note_id, target, reason=reason, now=NOW)
    assert _tree(tmp_path) == before


def test_a_move_never_overwrites(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "curated", RAW, links=f"[{CURATED}]")
    before = _tree(tmp_path)
    with pytest.raises(LadderError, match="several folders"):
        kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="x", now=NOW)
    assert _tree(tmp_path) == before


def test_a_note_that_cannot_be_read_is_not_moved(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, f"raw/{RAW}.md", "---\n{id: x, status: raw}\n---\n")
    with pytest.raises(LadderError, match="not one key per line"):
        kbmove.move_note(tmp_path, "kb", RAW, "curated", reason=None, now=NOW)
    assert (tmp_path / "kb" / "raw" / f"{RAW}.md").exists()


# -- robustness -----------------------------------------------------------------------------


def test_a_ten_megabyte_note_is_read_to_its_last_line(tmp_path):
    build_kb(tmp_path)
    body = "\n# Big\n\n" + ("a line of text\n" * 700_000) + "see [[20260303-180000-nowhere]]\n"
    note = write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", evidence=None, body=body)
    last = note.read_text().count("\n")
    assert [(p.code, p.line) for p in kb.check_kb(tmp_path)] == [(code("kb_link"), last)]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_an_unreadable_note_is_a_problem(tmp_path):
    build_kb(tmp_path)
    (tmp_path / "kb" / "raw" / f"{RAW}.md").chmod(0)
    assert "cannot be read (Permission denied)" in messages(tmp_path, "kb_frontmatter")[0]


# -- what review found: entries that cannot be examined, names that are not UTF-8 -------------


@pytest.mark.parametrize("rel", ["raw/loop.md", "_index.md", "loop2", "notes/loop"])
def test_a_symlink_loop_is_a_layout_problem_of_that_entry(tmp_path, rel):
    build_kb(tmp_path)
    loop(tmp_path, rel)
    problems = [p for p in kb.check_kb(tmp_path) if p.path == f"kb/{rel}"]
    assert [(p.code, p.line) for p in problems] == [(code("kb_layout"), 1)]
    assert "cannot be examined (Too many levels of symbolic links)" in problems[0].message


@pytest.mark.parametrize("rel", ["raw/loop.md", "_index.md", "notes/loop"])
def test_every_kb_command_survives_a_symlink_loop(tmp_path, rel):
    build_kb(tmp_path)
    loop(tmp_path, rel)
    assert "# KB Index" in kb.index_text(tmp_path)
    if rel == "_index.md":
        with pytest.raises(LadderError, match="_index.md: cannot be examined"):
            kb.write_index(tmp_path)
    else:
        moved = kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="x", now=NOW)
        assert moved.exists()


def test_an_entry_without_permission_is_a_layout_problem(tmp_path, monkeypatch):
    build_kb(tmp_path)
    denied = os.path.join(str(tmp_path), "kb", "raw", f"{RAW}.md")
    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if os.fspath(path) == denied:
            raise PermissionError(errno.EACCES, "Permission denied", denied)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    problems = kb.check_kb(tmp_path)
    assert (code("kb_layout"), f"kb/raw/{RAW}.md", 1) in [(p.code, p.path, p.line) for p in problems]
    assert any("cannot be examined (Permission denied)" in p.message for p in problems)


def test_a_note_id_too_long_for_a_file_name_is_no_note(tmp_path):
    build_kb(tmp_path)
    with pytest.raises(LadderError, match="no note"):
        kbmove.move_note(tmp_path, "kb", "x" * 5000, "curated", reason=None, now=NOW)


def test_a_file_name_that_is_not_utf8_is_reported_and_left_out_of_the_index(tmp_path):
    build_kb(tmp_path)
    index = kb.index_text(tmp_path)
    bad = tmp_path / "kb" / "raw" / os.fsdecode(b"20260303-170000-caf\xe9.md")
    bad.write_text(note_text("20260303-170000-cafe", "raw", tags="[topic/other]"))
    assert kb.write_index(tmp_path) is False and kb.index_text(tmp_path) == index
    problems = kb.check_kb(tmp_path)
    assert [(p.code, p.path) for p in problems] == [(code("kb_layout"), "kb/raw/20260303-170000-caf\\xe9.md")]
    assert "its name is not UTF-8" in problems[0].message and problems[0].message.encode("utf-8")


def test_a_name_that_is_not_utf8_elsewhere_is_shown_safely(tmp_path):
    build_kb(tmp_path)
    write(tmp_path, os.fsdecode(b"notes/\xff/x.md"), "no frontmatter")
    assert [p.path for p in kb.check_kb(tmp_path)] == ["kb/notes/\\xff/x.md"]


# -- what review found: move ------------------------------------------------------------------


@pytest.mark.parametrize("written, expected", [
    ("2026-03-05T18:30:00", NOW_IN_TOKYO),
    ("2026-03-05", NOW_IN_TOKYO),
    ("2026-03-05T18:30:00+09:00", "2026-03-05T10:00:00+00:00"),
    ("2026-03-05 09:30:00Z", "2026-03-05T10:00:00+00:00"),
])
def test_move_writes_updated_in_the_notes_own_style(tmp_path, tokyo, written, expected):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", created=written, updated=written)
    moved = kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="falsified", now=NOW)
    assert f"\nupdated: {expected}\n" in moved.read_text()
    assert kb.check_kb(tmp_path) == []


@pytest.mark.parametrize("key, written", [
    ("created", "2026-03-05T19:30:00"),
    ("updated", "2026-03-05T19:00:01"),
    ("updated", "2026-03-05T10:30:00Z"),
])
def test_move_never_writes_an_updated_before_the_notes_times(tmp_path, tokyo, key, written):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", **{key: written})
    before = _tree(tmp_path)
    with pytest.raises(LadderError, match=f"before {key} {written}.*clock behind"):
        kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="falsified", now=NOW)
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("evidence, body", [(None, None), ("[E1]", "\n# Pool\n\n## Evidence\n\n- E1: method=x\n")])
def test_curating_a_note_without_evidence_is_refused(tmp_path, evidence, body):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", evidence=evidence, **({"body": body} if body else {}))
    before = _tree(tmp_path)
    with pytest.raises(LadderError, match=f"{RAW}.md: a curated note needs evidence.*add them first"):
        kbmove.move_note(tmp_path, "kb", RAW, "curated", reason=None, now=NOW)
    assert _tree(tmp_path) == before


def _index_a_folder(root: Path) -> None:
    (root / "kb" / "_index.md").unlink()
    (root / "kb" / "_index.md").mkdir()


def _archive_a_file(root: Path) -> None:
    (root / "kb" / "archive" / f"{ARCHIVED}.md").rename(root / "kb" / "curated" / f"{ARCHIVED}.md")
    (root / "kb" / "archive").rmdir()
    (root / "kb" / "archive").write_text("not a folder")


@pytest.mark.parametrize("breaks, part", [(_index_a_folder, "_index.md: is not a regular file"),
                                          (_archive_a_file, "kb/archive: is not a folder")])
def test_a_move_that_would_fail_part_way_changes_nothing(tmp_path, breaks, part):
    build_kb(tmp_path)
    breaks(tmp_path)
    before = _tree(tmp_path)
    with pytest.raises(LadderError, match=part):
        kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="x", now=NOW)
    assert _tree(tmp_path) == before


def test_an_index_that_fails_after_the_move_says_the_note_moved(tmp_path, monkeypatch):
    build_kb(tmp_path)

    def fails(root, directory="kb"):
        raise LadderError("kb/_index.md: cannot be written (No space left on device)")

    monkeypatch.setattr(kbmove, "write_index", fails)
    with pytest.raises(LadderError, match=f"{RAW}.md was moved to kb/archive/.*only the index.*No space"):
        kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="x", now=NOW)
    assert (tmp_path / "kb" / "archive" / f"{RAW}.md").exists()


def test_move_keeps_the_comment_of_a_line_it_replaces(tmp_path, tokyo):
    build_kb(tmp_path)
    text = note_text(RAW, "raw", links=f"[{CURATED}]", archived_reason="'old'  # first try")
    write(tmp_path, f"raw/{RAW}.md", text.replace("status: raw", "status: raw   # reviewed by Ann"))
    moved = kbmove.move_note(tmp_path, "kb", RAW, "archive", reason="# not a comment", now=NOW)
    assert "\nstatus: archived   # reviewed by Ann\n" in moved.read_text()
    assert '\narchived_reason: "# not a comment"  # first try\n' in moved.read_text()


# -- what review found: the evidence heading, the index's Updated ------------------------------


def test_an_evidence_heading_with_more_words_is_the_evidence_section(tmp_path):
    build_kb(tmp_path)
    body = "\n# Pool\n\n## Evidence (sources)\n\n- E1: method=x fetched_at=2026-03-03\n"
    write_note(tmp_path, "curated", CURATED, links=f"[{RAW}]", body=body)
    assert found(tmp_path) == []


def test_the_index_shows_updated_as_written(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, links=f"[{CURATED}]", updated="2026-03-03 17:00:00Z  # after the test")
    assert "\nUpdated: 2026-03-03 17:00:00Z\n" in kb.index_text(tmp_path)


def test_lone_surrogates_of_yaml_escapes_reach_neither_the_index_nor_a_message(tmp_path):
    build_kb(tmp_path)
    write_note(tmp_path, "raw", RAW, id='"\\udcff"', tags='["topic/\\udcff", type/x]', updated='"\\udcff"',
               links=f"[{CURATED}]")
    kb.write_index(tmp_path)
    assert "type/x" in kb.index_text(tmp_path)
    assert all(p.message.encode("utf-8") for p in kb.check_kb(tmp_path))


_MOVER = """import sys
from ladder_plugins.cli.main import build_parser, main
from ladder_plugins.worklog import kbmove, service

build_parser()  # everything imported before the start, so the two start their moves together
target, notes = sys.argv[1], sys.argv[2:]
print("ready", flush=True)
sys.stdin.readline()
extra = ["--reason", "racing"] if target == "archive" else []
sys.exit(max(main(["kb", "move", note, target, *extra]) for note in notes))
"""


def _folders_of(root: Path, notes: list[str]) -> dict[str, list[str]]:
    return {note: [f for f in ("raw", "curated", "archive") if (root / "kb" / f / f"{note}.md").exists()]
            for note in notes}


def _race(root: Path, notes: list[str]) -> list[tuple[int, str]]:
    """Two processes moving ``notes``, one to curated, one to archive, let go together: their exit statuses and
    standard errors."""
    movers = [subprocess.Popen([sys.executable, "-c", _MOVER, target, *notes], cwd=root, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for target in ("curated", "archive")]
    assert [m.stdout.readline() for m in movers] == ["ready\n", "ready\n"]
    for mover in movers:
        mover.stdin.close()
    return [(m.wait(timeout=120), m.stderr.read()) for m in movers]


def test_moves_of_the_same_notes_to_curated_and_to_archive_at_once_leave_each_in_one_folder(tmp_path):
    """Two processes move the same 12 notes, one to curated, one to archive, in step: each move waits for the
    other, so both succeed one after the other and every note ends in exactly one folder, the index with it."""
    build_kb(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    notes = [f"20260303-1430{n:02d}-race-{n}" for n in range(12)]
    for note in notes:
        write_note(tmp_path, "raw", note)
    outcomes = _race(tmp_path, notes)
    assert {note: where for note, where in _folders_of(tmp_path, notes).items() if len(where) != 1} == {}
    assert outcomes == [(0, ""), (0, "")]
    assert kb.write_index(tmp_path) is False  # the last move's index is the one the folders give
