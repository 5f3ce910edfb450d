"""``tracker.sources.enforced.reading``: the small readers of option values, and the project's files each
read and parsed once, each file's first problem its one warning naming the file (and the line, where the
parser knows it)."""

from __future__ import annotations

import re

import pytest

from ladder_plugins.tracker.sources.enforced.reading import (
    SAFE_NAME, Evidence, clean, flag, number, option, runner, selectors, strings,
)

from tests.unit.tracker.sources.project_files import project


def test_clean_is_one_printable_line_cut_with_dots():
    assert clean("a\tb\n\x1b[31m c  ") == "a b [31m c"
    assert clean("x" * 30, 10) == "xxxxxxx..."
    assert clean("short", 10) == "short"


@pytest.mark.parametrize("value, expected", [(True, True), ("Yes", True), (" on ", True), ("1", True),
                                             (False, False), ("no", False), (1, False), (None, False)])
def test_flag(value, expected):
    assert flag(value) is expected


@pytest.mark.parametrize("value, expected", [(90, 90.0), (" 87.5 ", 87.5), ("x", None), (True, None),
                                             (None, None), (0, 0.0)])
def test_number(value, expected):
    assert number(value) == expected


def test_option_is_found_with_dashes_or_underscores():
    assert option({"max-complexity": 10}, "max_complexity") == ("max-complexity", 10)
    assert option({"fail_under": 90}, "fail-under") == ("fail_under", 90)
    assert option({}, "select") == ("", None)


def test_strings_of_a_list_or_the_lines_of_a_text():
    assert strings(["a", 1, "b"]) == ["a", "b"]
    assert strings("  E1\n\n  W2 \n") == ["E1", "W2"]
    assert strings(5) == []


def test_selectors_leave_out_what_is_not_one():
    pattern = re.compile(r"[A-Z]+[0-9]*")
    assert selectors("E1, W2  F", pattern) == ("E1", "W2", "F")
    assert selectors(["E722", "not a code", 3], pattern) == ("E722",)


def test_runner_is_the_first_evidence_with_a_signal():
    hook = Evidence(".pre-commit-config.yaml", "hook", ("precommit:ruff",))
    step = Evidence("ci.yml", "step", ("ci:ruff",))
    assert runner([hook, step], ["ci:ruff", "precommit:ruff"]) is hook
    assert runner([hook], ["tox:ruff"]) is None


def test_safe_name_refuses_names_that_could_say_more():
    assert SAFE_NAME.fullmatch("black-jupyter") and SAFE_NAME.fullmatch("ruff.check")
    assert not SAFE_NAME.fullmatch("a b") and not SAFE_NAME.fullmatch("-x") and not SAFE_NAME.fullmatch("a:b")


def test_the_identity_hashes_the_file_and_the_text():
    one = Evidence("a.toml", "loc", ("x",), "text")
    assert one.identity == Evidence("a.toml", "other loc", ("y",), "text").identity
    assert one.identity != Evidence("b.toml", "loc", ("x",), "text").identity
    assert Evidence("a.toml", "loc", ()).identity == Evidence("a.toml", "x", (), "loc").identity


def test_a_table_of_each_kind(tmp_path):
    files, warnings = project(tmp_path, {"pyproject.toml": "[tool.mypy]\nstrict = true\n",
                                         "setup.cfg": "[flake8]\nmax-line-length = 100\n"})
    assert files.table("pyproject.toml", "toml", ("tool", "mypy")) == {"strict": True}
    assert files.table("setup.cfg", "ini", ("flake8",)) == {"max-line-length": "100"}
    assert files.table("setup.cfg", "ini", ("mypy",)) is None
    assert files.table("pyproject.toml", "toml", ("tool", "ruff")) is None
    assert files.table("absent.toml", "toml", ("tool",)) is None
    assert warnings == []


def test_a_file_is_parsed_once(tmp_path):
    files, _ = project(tmp_path, {"pyproject.toml": "[tool.black]\n"})
    first = files.parsed("pyproject.toml", "toml")
    (tmp_path / "pyproject.toml").write_text("[tool.isort]\n")
    assert files.parsed("pyproject.toml", "toml") is first


@pytest.mark.parametrize("rel, kind, text, warning", [
    ("pyproject.toml", "toml", "[tool\n", "pyproject.toml: not valid TOML ("),
    ("setup.cfg", "ini", "no section\n", "setup.cfg: not a valid INI file ("),
    ("ci.yml", "yaml", "a: 1\nb: [\n", "ci.yml: not valid YAML (line 3)"),
    ("conftest.py", "python", "def f(:\n    pass\n", "conftest.py: not valid Python (line 1)"),
])
def test_a_malformed_file_is_one_warning_naming_it(tmp_path, rel, kind, text, warning):
    files, warnings = project(tmp_path, {rel: text})
    assert files.parsed(rel, kind) is None
    assert files.parsed(rel, kind) is None
    assert len(warnings) == 1 and warnings[0].startswith(warning) and warnings[0].endswith("; skipped")


def test_a_yaml_file_that_is_not_a_mapping_is_said_once(tmp_path):
    files, warnings = project(tmp_path, {".pre-commit-config.yaml": "- a\n- b\n"})
    assert files.mapping(".pre-commit-config.yaml") is None
    files.mapping(".pre-commit-config.yaml")
    assert warnings == [".pre-commit-config.yaml: expected a mapping at the top, found list; skipped"]


def test_a_file_over_the_size_cap_is_said_and_skipped(tmp_path):
    files, warnings = project(tmp_path, {"tox.ini": "[tox]\n" + "# pad\n" * 50}, max_bytes=64)
    assert files.parsed("tox.ini", "ini") is None
    assert len(warnings) == 1 and warnings[0].startswith("tox.ini: ")


def test_a_listing_is_sorted_by_suffix_and_skips_odd_names(tmp_path):
    files, warnings = project(tmp_path, {".github/workflows/b.yml": "", ".github/workflows/a.yaml": "",
                                         ".github/workflows/notes.txt": "", ".github/workflows/c\x07.yml": ""})
    assert files.listing(".github/workflows", (".yml", ".yaml")) == [".github/workflows/a.yaml",
                                                                     ".github/workflows/b.yml"]
    assert warnings == [".github/workflows: a file name with control characters; that file skipped"]
    assert files.listing("absent", (".yml",)) == []


def test_a_listing_never_follows_a_symlink_out_of_the_root(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yml").write_text("jobs: {}\n")
    root = tmp_path / "root"
    (root / ".github").mkdir(parents=True)
    (root / ".github" / "workflows").symlink_to(outside)
    files, warnings = project(root, {})
    assert files.listing(".github/workflows", (".yml",)) == []
    assert len(warnings) == 1 and warnings[0].startswith(".github/workflows: leads outside ")
