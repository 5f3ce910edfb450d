"""``worklog.kbscan``: the ``kb/`` folders walked, the note files read and counted, and every layout problem
named by its path: notes out of place, a missing folder or index, a name that is not UTF-8, a symlink that
leads out of the project (never followed), an entry that cannot be examined."""

from __future__ import annotations

import os
from pathlib import Path

from ladder_plugins.worklog.kbscan import INDEX, Kind, is_utf8, kind_of, scan_kb

from tests.helpers.kb import ARCHIVED, CURATED, RAW, write, write_note


def _valid(root: Path) -> None:
    write_note(root, "raw", RAW)
    write_note(root, "curated", CURATED)
    write_note(root, "archive", ARCHIVED, archived_reason='"superseded"')
    write(root, INDEX, "# KB Index\n")


def _layout(scan):
    assert all(p.rule.key == "kb_layout" and p.line == 1 for p in scan.problems)
    return [(p.path, p.message) for p in scan.problems]


def test_kind_of_each_kind_of_path(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "d").mkdir()
    (tmp_path / "dangling").symlink_to(tmp_path / "absent")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    os.mkfifo(tmp_path / "pipe")
    assert kind_of(tmp_path / "f") == Kind("file")
    assert kind_of(tmp_path / "d") == Kind("dir")
    assert kind_of(tmp_path / "absent") == Kind("missing")
    assert kind_of(tmp_path / "dangling") == Kind("other", link=True)
    assert kind_of(tmp_path / "pipe") == Kind("other")
    loop = kind_of(tmp_path / "loop")
    assert (loop.name, loop.link) == ("error", True) and loop.why
    assert kind_of(Path("a\0b")).name == "error"


def test_is_utf8():
    assert is_utf8("20260303-143000-slug.md")
    assert not is_utf8(b"caf\xe9.md".decode("utf-8", "surrogateescape"))


def test_a_valid_knowledge_base(tmp_path):
    _valid(tmp_path)
    scan = scan_kb(tmp_path, "kb")
    assert scan.listed and scan.problems == []
    assert scan.counts == {"raw": 1, "archive": 1, "curated": 1}
    assert sorted(note.stem for note in scan.notes) == sorted([RAW, CURATED, ARCHIVED])
    assert scan.index == tmp_path / "kb" / INDEX
    assert {note.shown for note in scan.notes} >= {f"kb/raw/{RAW}.md"}


def test_no_knowledge_base(tmp_path):
    scan = scan_kb(tmp_path, "kb")
    assert not scan.listed
    assert _layout(scan) == [("kb", "does not exist: no knowledge base; expected raw/, archive/, curated/ and "
                                    "_index.md in it")]


def test_a_missing_folder_and_index(tmp_path):
    write_note(tmp_path, "raw", RAW)
    scan = scan_kb(tmp_path, "kb")
    assert _layout(scan) == [
        ("kb/archive", "is missing; expected the folder of the archived notes"),
        ("kb/curated", "is missing; expected the folder of the curated notes"),
        ("kb/_index.md", "is missing; expected the index 'ladder kb index' writes")]
    assert scan.counts == {"raw": 1, "archive": 0, "curated": 0}


def test_notes_out_of_place_and_other_files(tmp_path):
    """Hidden files are ignored; any other file that is no note, in a note folder, is reported (issue 33)."""
    _valid(tmp_path)
    write(tmp_path, "stray.md", "x")
    write(tmp_path, "raw/sub/deep.md", "x")
    write(tmp_path, "images/notes.md/a.png", "x")
    write(tmp_path, "raw/picture.png", "x")
    write(tmp_path, "raw/.hidden.md", "x")
    scan = scan_kb(tmp_path, "kb")
    assert _layout(scan) == [
        ("kb/raw/picture.png", "is not a note (a note is a .md file) in a note folder; expected only notes in raw/, "
                               "archive/ and curated/: keep other files outside the knowledge base (a note may name "
                               "them)"),
        ("kb/raw/sub/deep.md", "is in a sub-folder of raw/; expected notes directly in raw/, archive/ or curated/"),
        ("kb/images/notes.md", "is a folder, not a note file; expected a note to be a .md file"),
        ("kb/stray.md", "is a note outside raw/, archive/ and curated/; expected every note in one of them")]
    assert scan.counts["raw"] == 1


def test_a_name_that_is_not_utf8_is_not_read(tmp_path):
    _valid(tmp_path)
    (tmp_path / "kb" / "raw").joinpath(os.fsdecode(b"caf\xe9.md")).write_text("---\n---\n")
    scan = scan_kb(tmp_path, "kb")
    ((path, message),) = _layout(scan)
    assert path == "kb/raw/caf\\xe9.md"
    assert message.startswith("its name is not UTF-8")
    assert scan.counts["raw"] == 1


def test_a_symlink_out_of_the_project_is_said_never_read(tmp_path):
    root = tmp_path / "project"
    _valid(root)
    secret = tmp_path / "secret.md"
    secret.write_text("---\nid: leaked\n---\n")
    (root / "kb" / "raw" / "link.md").symlink_to(secret)
    scan = scan_kb(root, "kb")
    assert _layout(scan) == [("kb/raw/link.md", "leads outside the project root (a symlink or a path out of it); "
                                                "it is not read: expected the knowledge base's files inside the "
                                                "project")]
    assert all(note.data.get("id") != "leaked" for note in scan.notes)


def test_a_symlink_loop_and_a_dangling_note_are_said(tmp_path):
    _valid(tmp_path)
    raw = tmp_path / "kb" / "raw"
    (raw / "loop.md").symlink_to(raw / "loop.md")
    (raw / "gone.md").symlink_to(raw / "absent.md")
    found = dict(_layout(scan_kb(tmp_path, "kb")))
    assert found["kb/raw/gone.md"] == ("is not a regular file (a dangling symlink, a pipe or a device); expected a "
                                       "note file")
    assert found["kb/raw/loop.md"].startswith("cannot be examined (")


def test_an_index_that_is_a_folder_and_a_folder_that_is_a_file(tmp_path):
    write_note(tmp_path, "raw", RAW)
    write(tmp_path, "curated", "not a folder")
    (tmp_path / "kb" / "archive").mkdir()
    (tmp_path / "kb" / INDEX).mkdir()
    found = _layout(scan_kb(tmp_path, "kb"))
    assert ("kb/curated", "is not a folder; expected the folder of the curated notes") in found
    assert ("kb/_index.md", "is not a regular file; expected the index 'ladder kb index' writes") in found
    assert len(found) == 2
