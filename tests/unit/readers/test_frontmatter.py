"""``readers.frontmatter.split_front_matter``: the mapping, the body and its line, each key's lines, and a
malformed front matter as a problem with the file line it is at (never an exception)."""

from __future__ import annotations

import datetime

from ladder_plugins.readers.frontmatter import FrontMatter, split_front_matter


def test_no_front_matter_is_the_whole_text_as_body():
    text = "# Title\n\nbody\n"
    assert split_front_matter(text) == FrontMatter(body=text)


def test_a_mapping_its_body_and_the_body_line():
    text = "---\nname: memo\ntype: feedback\n---\nThe body.\n"
    got = split_front_matter(text)
    assert dict(got.data) == {"name": "memo", "type": "feedback"}
    assert got.body == "The body.\n"
    assert got.body_line == 5
    assert got.problem is None


def test_each_top_level_key_spans_its_file_lines():
    text = "---\nid: n1\ntags:\n  - a\n  - b\n\n# a comment\nstatus: open\n---\nbody\n"
    got = split_front_matter(text)
    assert got.keys == (("id", 2, 2), ("tags", 3, 5), ("status", 8, 8))


def test_a_flow_style_mapping_has_data_but_no_key_lines():
    got = split_front_matter("---\n{a: 1, b: 2}\n---\n")
    assert dict(got.data) == {"a": 1, "b": 2}
    assert got.keys == ()


def test_crlf_fences_and_a_fence_at_the_end_of_the_text():
    got = split_front_matter("---\r\nk: v\r\n---")
    assert dict(got.data) == {"k": "v"}
    assert got.body == ""


def test_an_empty_front_matter_is_no_data_and_no_problem():
    got = split_front_matter("---\n---\nrest\n")
    assert (dict(got.data), got.body, got.body_line, got.problem) == ({}, "rest\n", 3, None)


def test_keys_are_made_strings_and_dates_are_dates():
    got = split_front_matter("---\n1: one\ncreated: 2024-02-03\n---\n")
    assert dict(got.data) == {"1": "one", "created": datetime.date(2024, 2, 3)}


def test_invalid_yaml_names_the_file_line_and_keeps_the_whole_text():
    text = "---\nname: ok\nbad: [unclosed\nnext: 1\n---\nbody\n"
    got = split_front_matter(text)
    assert got.problem is not None and got.problem.startswith("front matter is not valid YAML at line ")
    assert got.problem_line == int(got.problem.rsplit(" ", 1)[1])
    assert 3 <= got.problem_line <= 5
    assert got.body == text
    assert dict(got.data) == {}


def test_a_tab_indent_error_is_at_its_own_line():
    got = split_front_matter("---\na: 1\nb:\n\t- x\n---\n")
    assert got.problem == "front matter is not valid YAML at line 4"
    assert got.problem_line == 4


def test_a_list_is_not_a_mapping():
    got = split_front_matter("---\n- a\n- b\n---\nbody\n")
    assert got.problem == "front matter is not a mapping of keys to values"
    assert got.body.startswith("---\n- a")


def test_an_impossible_date_is_a_problem_not_an_exception():
    got = split_front_matter("---\ncreated: 2024-02-30\n---\n")
    assert got.problem is not None and got.problem.startswith("front matter cannot be read (")


def test_python_tags_are_refused_by_the_safe_loader():
    got = split_front_matter("---\nx: !!python/object/apply:os.system ['true']\n---\n")
    assert got.problem is not None and "not valid YAML" in got.problem
    assert dict(got.data) == {}


def test_a_front_matter_over_max_chars_is_not_read():
    text = "---\n" + "k: " + "v" * 50 + "\n---\nbody\n"
    got = split_front_matter(text, max_chars=20)
    assert got.problem == "front matter is longer than 20 characters"
    assert got.body == text
    assert dict(split_front_matter(text, max_chars=100).data) == {"k": "v" * 50}


def test_an_odd_line_break_keeps_the_data_but_drops_the_key_lines():
    got = split_front_matter("---\na: 1\rb: 2\n---\n")
    assert got.problem is None
    assert got.keys == ()


def test_an_unclosed_fence_is_no_front_matter():
    text = "---\nname: x\nno closing fence\n"
    assert split_front_matter(text) == FrontMatter(body=text)
