"""``ladderdir.atomic.write_atomic``: a file replaced whole, its mode kept or given, no temporary file left."""

from __future__ import annotations

import os
import stat

import pytest

from ladder_plugins.ladderdir.atomic import write_atomic


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_file_gets_the_data_and_mode_0644(tmp_path):
    target = tmp_path / "state.json"
    write_atomic(target, b'{"a": 1}\n')
    assert target.read_bytes() == b'{"a": 1}\n'
    assert _mode(target) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def test_an_old_file_is_replaced_and_keeps_its_mode(tmp_path):
    target = tmp_path / "hook.sh"
    target.write_bytes(b"old text that is longer than the new one\n")
    os.chmod(target, 0o750)
    write_atomic(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert _mode(target) == 0o750


def test_a_given_mode_wins_over_the_old_one(tmp_path):
    target = tmp_path / "f"
    target.write_bytes(b"x")
    os.chmod(target, 0o600)
    write_atomic(target, b"y", 0o640, sync=False)
    assert (target.read_bytes(), _mode(target)) == (b"y", 0o640)


def test_the_file_is_a_new_inode_so_an_open_reader_keeps_the_old_text(tmp_path):
    target = tmp_path / "f"
    target.write_bytes(b"before")
    with open(target, "rb") as reader:
        write_atomic(target, b"after")
        assert reader.read() == b"before"
    assert target.read_bytes() == b"after"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "f"
    target.write_bytes(b"kept")
    with pytest.raises(TypeError):
        write_atomic(target, "text, not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"kept"
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


def test_a_missing_folder_is_an_os_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere" / "f"
    with pytest.raises(FileNotFoundError) as caught:
        write_atomic(missing, b"x")
    assert "nowhere" in str(caught.value)
    assert not (tmp_path / "nowhere").exists()


def test_a_target_that_is_a_directory_is_refused_and_cleaned_up(tmp_path):
    target = tmp_path / "adir"
    target.mkdir()
    (target / "inside").write_text("keep")
    with pytest.raises(OSError):
        write_atomic(target, b"x")
    assert (target / "inside").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]
