"""``readers.settings``: an agent host's settings file read safely (``read_text``), then as TOML, JSON or JSON
with comments (``parse_settings``); an unusable file is an error naming it, an unreadable text a reason with
its line and column."""

from __future__ import annotations

import json

import pytest

from ladder_plugins.errors import LadderError
from ladder_plugins.readers import settings as reader
from ladder_plugins.readers.settings import parse_settings, read_text, uncomment_json


def test_comments_are_blanked_keeping_lines_and_columns():
    text = '{\n  // a comment\n  "a": 1, /* two\nlines */ "b": "x // y /* z */"\n}\n'
    plain = uncomment_json(text)
    assert len(plain) == len(text)
    assert plain.count("\n") == text.count("\n")
    assert json.loads(plain) == {"a": 1, "b": "x // y /* z */"}
    assert plain.index('"b"') == text.index('"b"')


def test_a_string_with_an_escaped_quote_is_kept_whole():
    text = '{"a": "say \\"//hi\\"" // trailing\n}'
    assert json.loads(uncomment_json(text)) == {"a": 'say "//hi"'}


def test_parse_each_form():
    assert parse_settings('[hooks]\ncommand = "x"\n', "toml") == ({"hooks": {"command": "x"}}, None)
    assert parse_settings('{"hooks": []}', "json") == ({"hooks": []}, None)
    assert parse_settings('{"hooks": [] // gemini\n}', "jsonc") == ({"hooks": []}, None)


def test_comments_are_an_error_in_plain_json_with_line_and_column():
    data, why = parse_settings('{\n  "a": 1 // no\n}', "json")
    assert data is None
    assert why is not None and why.startswith("not valid JSON (") and "at line 2, column 10" in why


def test_bad_toml_says_why():
    data, why = parse_settings("[hooks\n", "toml")
    assert data is None
    assert why is not None and why.startswith("not valid TOML (")


def test_json_nested_too_deeply_is_a_reason_not_a_crash():
    data, why = parse_settings("[" * 100000 + "]" * 100000, "json")
    assert (data, why) == (None, "not valid JSON (nested too deeply)")


def test_read_text_of_a_missing_file_is_none(tmp_path):
    assert read_text(tmp_path / "settings.json") is None


def test_read_text_drops_a_bom(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert read_text(path) == '{"a": 1}'


def test_read_text_of_a_directory_names_it(tmp_path):
    folder = tmp_path / "settings.json"
    folder.mkdir()
    with pytest.raises(LadderError) as caught:
        read_text(folder)
    assert str(caught.value) == f"{folder}: not a regular settings file of at most 4 MiB; nothing changed"


def test_read_text_of_a_file_over_the_cap_names_it(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    path.write_bytes(b"{}" + b" " * 100)
    monkeypatch.setattr(reader, "MAX_BYTES", 64)
    with pytest.raises(LadderError, match="big.json: not a regular settings file"):
        read_text(path)


def test_read_text_of_bytes_that_are_not_utf8_names_the_byte(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(LadderError) as caught:
        read_text(path)
    assert str(caught.value) == f"{path}: not UTF-8 (byte 7); nothing changed"


def test_read_text_of_a_symlink_loop_names_it(tmp_path):
    path = tmp_path / "settings.json"
    path.symlink_to(path)
    with pytest.raises(LadderError) as caught:
        read_text(path)
    assert str(caught.value).startswith(f"{path}: cannot be read (")
    assert str(caught.value).endswith("); nothing changed")
