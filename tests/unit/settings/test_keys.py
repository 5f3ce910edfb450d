"""The key table of ``[tool.ladder]``: every key written once, and all that is made from it.

The parser, its errors, ``ladder init``'s starter and the site's configuration reference all come from
``settings.keys.KEYS``; these tests hold the table to the settings classes it fills and pin each kind of
value's error word for word (``tests/test_docs_site.py`` holds the configuration page to the table).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from ladder_plugins.config import MODES, Mode, Settings, load_settings, settings_from_table, toml_loads
from ladder_plugins.settings.keys import KEYS, SECTIONS, TOP_KEYS
from ladder_plugins.settings.model import section_class
from ladder_plugins.settings.reference import starter_table, toml_value
from ladder_plugins.errors import ConfigError
from ladder_plugins.plugins import known_rules


FILE = Path("/p/pyproject.toml")
#: the fields of Settings that no key fills: where the run is, not what the table says
NOT_KEYS = {"root", "config_file", "project_name", "in_project", *SECTIONS}


def read(body: str) -> Settings:
    rules = {rule.key: rule for rule in known_rules()}
    return settings_from_table(toml_loads("[tool.ladder]\n" + body)["tool"]["ladder"], FILE.parent, FILE, rules)


def _fields() -> set[tuple[str, str]]:
    """(table, field) of every settings field a key may fill: ``""`` for ``[tool.ladder]`` itself."""
    top = {("", f.name) for f in dataclasses.fields(Settings) if f.name not in NOT_KEYS}
    return top | {(name, f.name) for name in SECTIONS for f in dataclasses.fields(section_class(name))}


def test_every_settings_field_has_exactly_one_key_and_every_key_a_field():
    filled = [(key.table, key.attribute) for key in KEYS]
    assert len(filled) == len(set(filled))
    assert set(filled) == _fields()


def test_the_keys_of_a_table_are_in_its_settings_class_order():
    """The order of "known keys: ..." in an error, and of the reference."""
    for name in SECTIONS:
        assert [key.last for key in KEYS if key.table == name] == [
            f.name for f in dataclasses.fields(section_class(name))]
    assert TOP_KEYS[-len(SECTIONS):] == SECTIONS


def _written(key, value) -> str:
    """``[tool.ladder]``'s body with ``key`` set to ``value``, as TOML."""
    line = f"{key.last} = {toml_value(value)}\n"
    return f"[tool.ladder.{key.table}]\n{line}" if key.table else line


#: keys whose default no value written stands for: unset (None, source's "auto"), read whole (the tables), or an
#: empty list where one file at least is expected
_NOT_WRITTEN = {"thresholds", "roles", "recurrence.source", "worklog.files"}


@pytest.mark.parametrize("key", [key for key in KEYS if key.name not in _NOT_WRITTEN and key.default is not None],
                         ids=lambda key: key.name)
def test_a_key_written_as_its_default_reads_as_its_default(key):
    settings = read(_written(key, key.default))
    assert getattr(getattr(settings, key.table) if key.table else settings, key.attribute) == key.default


def test_a_key_whose_default_is_none_says_what_unset_means_in_the_reference():
    assert [key.name for key in KEYS if key.default is None and not key.default_doc] == []


@pytest.mark.parametrize("body, said", [
    ("zzz = 1", "[tool.ladder] zzz: unknown key; known keys: paths, exclude, mode, base, assertion_helpers, "
                "history_dir, yellow_ratio, skip_roles, show_yellow, thresholds, roles, recurrence, history, "
                "feedback, rules, hooks, worklog"),
    ("mdoe = 1", "[tool.ladder] mdoe: unknown key; did you mean 'mode'?"),
    ("[tool.ladder.recurrence]\nzzz = 1", "[tool.ladder.recurrence] zzz: unknown key; known keys: hotspot_min_count, "
                                          "hotspot_min_days, count, pattern_min_count, pattern_min_files, source, "
                                          "git_since, git_max_commits, shallow, sweep_files, ignore_revs"),
    ("[tool.ladder.recurrence]\nhotspot_min_coun = 1",
     "[tool.ladder.recurrence] hotspot_min_coun: unknown key; did you mean 'hotspot_min_count'?"),
    ("recurrence = 3", "[tool.ladder] recurrence = 3: expected a table"),
    ('paths = ["/x"]', "[tool.ladder] paths: '/x' is an absolute path; expected a path relative to the project root"),
    ('exclude = ["../a"]', "[tool.ladder] exclude: '../a' escapes the project root; expected a path inside it"),
    ('mode = "strcit"',
     "[tool.ladder] mode = \"strcit\": expected one of 'advisory', 'recurrence', 'new', 'strict' (did you mean 'strict'?)"),
    ("mode = 7", "[tool.ladder] mode = 7: expected one of 'advisory', 'recurrence', 'new', 'strict'"),
    ('base = "-x"', '[tool.ladder] base = "-x": expected a git revision such as "origin/main"'),
    ("assertion_helpers = [1]",
     '[tool.ladder] assertion_helpers = [1]: expected a list of function names or globs such as ["check_*", "verify"]'),
    ('history_dir = "a\\u0007"', '[tool.ladder] history_dir = "a\\u0007": expected a directory path relative to the '
                                 'project root (no control characters)'),
    ("yellow_ratio = 2.5", "[tool.ladder] yellow_ratio = 2.5: expected a number from 0.0 to 1.0"),
    ('skip_roles = ["generatd"]', "[tool.ladder] skip_roles = ['generatd']: expected a list of roles from app, test, "
                                  "library, script, generated, vendor"),
    ("show_yellow = 1", "[tool.ladder] show_yellow = 1: expected true or false"),
    ("thresholds = 7", "[tool.ladder] thresholds = 7: expected a table"),
    ("[tool.ladder.thresholds]\ncognitve_max = 1",
     "[tool.ladder.thresholds] cognitve_max: unknown key; did you mean 'cognitive_max'?"),
    ("[tool.ladder.thresholds.tset]", "[tool.ladder.thresholds] tset: unknown role; did you mean 'test'?"),
    ("[tool.ladder.thresholds]\ncognitive_max = -1",
     "[tool.ladder.thresholds] cognitive_max = -1: expected a number from 0 to 1000000, or false to turn the rule off"),
    ("roles = 7", '[tool.ladder.roles] "" = 7: expected a table of role = [globs]'),
    ("[tool.ladder.roles]\na = 1",
     "[tool.ladder.roles] a: unknown key; known keys: app, test, library, script, generated, vendor"),
    ("[tool.ladder.recurrence]\nhotspot_min_count = 0",
     "[tool.ladder.recurrence] hotspot_min_count = 0: expected a whole number from 1 to 10000"),
    ('[tool.ladder.recurrence]\ncount = "edit"',
     "[tool.ladder.recurrence] count = \"edit\": expected one of 'edits', 'runs' (did you mean 'edits'?)"),
    ('[tool.ladder.recurrence]\nsource = "x"', "[tool.ladder.recurrence] source = \"x\": expected one of 'log', 'git', 'both'"),
    ('[tool.ladder.recurrence]\ngit_since = "2026-13-01"', '[tool.ladder.recurrence] git_since = "2026-13-01": expected '
                                                           '"all", an ISO-8601 date such as 2026-09-01, or a commit such as v2.0'),
    ('[tool.ladder.recurrence]\nignore_revs = ["xyz"]', "[tool.ladder.recurrence] ignore_revs = ['xyz']: expected a list "
                                                        'of commit ids (7 to 64 hexadecimal digits) such as ["3f2a9c1"]'),
    ("[tool.ladder.recurrence]\nshallow = true", "[tool.ladder.recurrence] shallow = true: expected one of 'error', 'warn'"),
    ("[tool.ladder.history]\nmax_mb = 0.005", "[tool.ladder.history] max_mb = 0.005: expected a number from 0.01 to 100000"),
    ('[tool.ladder.feedback]\nstate = "/abs"',
     "[tool.ladder.feedback] state: '/abs' is an absolute path; expected a path relative to the project root"),
    ('[tool.ladder.feedback]\nmemory_dir = ""', '[tool.ladder.feedback] memory_dir = "": expected a directory path '
                                                "(absolute, ~ or relative to the project root)"),
    ("[tool.ladder.feedback]\ngrace_days = -1", "[tool.ladder.feedback] grace_days = -1: expected a whole number from 0 to 36500"),
    ("[tool.ladder.rules]\nfiles = []",
     "[tool.ladder.rules] files = []: expected a non-empty list of file paths relative to the project root"),
    ("[tool.ladder.rules]\nmax_bytes = 511", "[tool.ladder.rules] max_bytes = 511: expected a whole number from 512 to 1000000"),
    ('[tool.ladder.hooks]\nblock_on_hotspot = "x"', '[tool.ladder.hooks] block_on_hotspot = "x": expected true or false'),
    ('[tool.ladder.worklog]\nfiles = ["../a"]',
     "[tool.ladder.worklog] files: '../a' escapes the project root; expected a path inside it"),
    ("[tool.ladder.worklog]\nkb = 7", '[tool.ladder.worklog] kb = 7: expected a directory path relative to the project root, '
                                      'such as "kb"'),
    ("[tool.ladder.worklog]\nallow_gaps = 0", "[tool.ladder.worklog] allow_gaps = 0: expected true or false"),
])
def test_each_kind_of_value_says_file_table_key_and_what_is_expected(body, said):
    with pytest.raises(ConfigError) as info:
        read(body + "\n")
    assert str(info.value) == f"{FILE}: {said}"


def test_a_none_from_python_leaves_unset_a_key_whose_default_is_none():
    """TOML has no null; a table given from Python may hold None: a key that may be unset is then unset."""
    rules = {rule.key: rule for rule in known_rules()}
    table = {"base": None, "recurrence": {"git_since": None}, "feedback": {"memory_dir": None, "grace_days": None}}
    settings = settings_from_table(table, FILE.parent, FILE, rules)
    assert (settings.base, settings.recurrence.git_since, settings.feedback.grace_days) == (None, None, None)
    with pytest.raises(ConfigError, match=r"\[tool.ladder\] mode = None: expected one of"):
        settings_from_table({"mode": None}, FILE.parent, FILE, rules)


def test_the_mode_is_an_enum_that_is_still_its_name(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.ladder]\nmode = "new"\n')
    settings = load_settings(tmp_path)
    assert settings.mode is Mode.NEW and settings.mode == "new" and f"mode {settings.mode}" == "mode new"
    assert json.dumps({"mode": settings.mode}) == '{"mode": "new"}' and {"new": 1}[settings.mode] == 1
    assert settings.replace(mode="strict").mode is Mode.STRICT
    assert tuple(Mode) == tuple(map(Mode, MODES)) and all(type(mode) is str for mode in MODES)


def test_the_starter_writes_every_starter_key_and_every_choice_of_one_and_loads():
    table = starter_table({"paths": ["src", "we\"ird\u007f"], "roles": {"script": ["scripts/**"]}})
    ladder = toml_loads(table)["tool"]["ladder"]
    assert ladder == {"paths": ["src", "we\"ird\u007f"], "mode": "recurrence", "roles": {"script": ["scripts/**"]}}
    assert sorted(re.findall(r'mode = "(\w+)"', table)) == sorted(MODES)
    assert all(line.partition("  # ")[2] for line in table.splitlines() if line.lstrip("# ").startswith(("paths", "mode")))
    with pytest.raises(KeyError, match="mdoe"):
        starter_table({"mdoe": "strict"})
