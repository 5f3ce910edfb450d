"""Edge cases of the git walk's shortcut (history/outline.py): each builds explicit versions of one file,
newest first, and holds what the walk finds against what parsing every version whole finds: backslash-only
lines, names Python normalises, decorated and duplicated units, line endings, roles, headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder_plugins.config import Settings, load_settings
from ladder_plugins.history.blobs import BlobFindings, Wanted

#: a function of cognitive complexity 16 (red for an app file), whose last line is ``return {tail}``
_RED = "def red(a, b, c):\n" + "".join(f"    if a == {n}:\n        return {n}\n" for n in range(16))


def _settings(tmp_path: Path) -> Settings:
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    return load_settings(tmp_path)


def _both_ways(settings: Settings, rel: str, want: Wanted, texts: list[str]) -> tuple[dict, dict]:
    """What parsing every version whole finds, and what the walk finds (``texts``: newest first)."""
    versions = [(f"b{n}", text.encode("utf-8")) for n, text in enumerate(texts)]
    whole = BlobFindings(settings)
    whole.derive = False
    return whole.measure_file(rel, want, versions), BlobFindings(settings).measure_file(rel, want, versions)


def _assert_same(tmp_path: Path, rel: str, want: Wanted, texts: list[str]) -> dict:
    expected, derived = _both_ways(_settings(tmp_path), rel, want, texts)
    assert derived == expected
    return expected


def test_deleting_the_statement_after_a_backslash_line_leaves_a_file_that_does_not_parse(tmp_path: Path) -> None:
    good = "def f(a):\n    return a\n\\\nx = 1\n"
    expected = _assert_same(tmp_path, "m.py", Wanted(frozenset({"f"})), [good, good.replace("x = 1\n", "")])
    assert expected["b1"] == ([], {})


def test_deleting_the_statement_after_an_indented_backslash_line_moves_the_next_function_into_the_class(
        tmp_path: Path) -> None:
    old = "class A:\n    def f(self):\n        return 1\n    \\\n    x = 1\ndef g():\n        return 2\n"
    want = Wanted(frozenset({"g", "A.g"}))
    expected = _assert_same(tmp_path, "m.py", want, [old, old.replace("    x = 1\n", "")])
    assert [set(bodies) for _, bodies in expected.values()] == [{"g"}, {"A.g"}]


_BACKSLASHED = "class A:\n    def f(self):\n        return 1\n    \\\ndef g():\n        return 2\n"


@pytest.mark.parametrize("edit", [("    \\\n", "    \\\n    y = 1\n"), ("    \\\n", "")])
def test_an_edit_at_an_indented_backslash_line_moves_the_next_method_out_of_the_class(
        tmp_path: Path, edit: tuple[str, str]) -> None:
    want = Wanted(frozenset({"g", "A.g"}))
    expected = _assert_same(tmp_path, "m.py", want, [_BACKSLASHED, _BACKSLASHED.replace(*edit)])
    assert [set(bodies) for _, bodies in expected.values()] == [{"A.g"}, {"g"}]


def _cognitive(rows: list[list[object]]) -> list[object]:
    return [row[4] for row in rows if row[0] == "LAD102"]


def _cycle(call: str, helper: str = "helper") -> str:
    return f"{_RED}    return {call}\n\n\ndef {helper}():\n    return red(1, 2, 3)\n"


@pytest.mark.parametrize("call,helper", [("\uff48elper()", "helper"), ("he\u00b7lper()", "he\u00b7lper")])
def test_a_call_cycle_through_a_name_that_is_not_a_word(tmp_path: Path, call: str, helper: str) -> None:
    texts = [_cycle("0", helper), _cycle(call, helper)]
    expected = _assert_same(tmp_path, "m.py", Wanted(frozenset({"red"})), texts)
    assert _cognitive(expected["b1"][0]) == [17]  # 16, and 1 for the cycle


def test_a_call_cycle_through_a_plainly_written_name_is_measured_whole(tmp_path: Path) -> None:
    expected = _assert_same(tmp_path, "m.py", Wanted(frozenset({"red"})), [_cycle("0"), _cycle("helper()")])
    assert _cognitive(expected["b1"][0]) == [17]


def _setter(value: str, header: str = "@decorated\nclass A:  # the class\n    # a comment first\n") -> str:
    return (f"{header}    @property\n    def x(self):\n        return 1\n\n"
            f"    @x.setter\n    def x(self, v):\n{_ifs(value)}\n\ndef x():\n    return 2\n")


def _ifs(value: str) -> str:
    return "".join(f"        if v == {n}:\n            self._v = {value}\n" for n in range(16))


def test_a_property_setter_changed_under_a_decorated_class_with_a_comment_before_its_first_statement(
        tmp_path: Path) -> None:
    want = Wanted(frozenset({"A.x", "A.x#2", "x"}), file=True)
    expected = _assert_same(tmp_path, "m.py", want, [_setter("1"), _setter("2"), _setter("2", "class A:\n"),
                                                     _setter("3", "class _A:\n")])
    assert [sorted({row[1] for row in rows}) for rows, _ in expected.values()] == [["A.x"]] * 3 + [[]]


def _nested(body: str, newline: str = "\n", indent: str = "    ") -> str:
    lines = ["class A:", f"{indent}def f(self):", f"{indent}{indent}return 1", f"{indent}class B:",
             f"{indent}{indent}def f(self):", f"{indent}{indent}{indent}return {body}",
             f"{indent}{indent}def f(self):", f"{indent}{indent}{indent}return self.f()", "\f", "def g():",
             f"{indent}return A"]
    return newline.join(lines) + newline


@pytest.mark.parametrize("newline,indent", [("\n", "    "), ("\r", "    "), ("\r\n", "\t")])
def test_a_method_of_a_nested_class_among_duplicates_with_any_line_ending_and_indentation(
        tmp_path: Path, newline: str, indent: str) -> None:
    want = Wanted(frozenset({"A.f", "A.B.f", "A.B.f#2", "g"}))
    texts = [_nested(body, newline, indent) for body in ("1", "2", "self.f()", "(1 +\n 2)".replace("\n", newline))]
    expected = _assert_same(tmp_path, "m.py", want, texts)
    assert all(set(bodies) == set(want.units) for _, bodies in expected.values())


def _blocks(value: str) -> str:
    return ("import sys\n\n\nclass K:\n    if sys.platform:\n        async def f(self):\n            return 1\n"
            "    else:\n        async def f(self):\n            return 2\n\n    def g(self):\n"
            f"        return {value}\n\n\nmatch sys.argv:\n    case [_]:\n        def h():\n            return 1\n"
            "    case _:\n        def h():\n            return 2\n")


def test_duplicates_in_if_and_match_blocks_keep_their_numbers_when_a_later_unit_changes(tmp_path: Path) -> None:
    want = Wanted(frozenset({"K.f", "K.f#2", "K.g", "h", "h#2"}))
    texts = [_blocks("0"), _blocks("1"), _blocks("1").replace("return 2\n\n    def", "return 3\n\n    def"),
             _blocks("1").replace("case _:\n        def h():\n            return 2", "case _:\n        pass")]
    expected = _assert_same(tmp_path, "m.py", want, texts)
    assert set(expected["b3"][1]) == {"K.f", "K.f#2", "K.g", "h"}


def _long(first: str, value: str) -> str:
    return f"{first}\"\"\"A module.\"\"\"\n\nimport os\n" + "x = 1\n" * 1000 + f"\n\ndef f():\n    return {value}\n"


def test_a_file_suppression_on_line_one_is_kept_while_the_header_is_and_read_again_when_it_changes(
        tmp_path: Path) -> None:
    texts = [_long("# noqa: LAD107\n", "1"), _long("# noqa: LAD107\n", "2"), _long("", "2"), _long("", "3"),
             _long("# noqa: LAD107\n", "3")]
    expected = _assert_same(tmp_path, "pkg/m.py", Wanted(frozenset({"f"}), file=True), texts)
    assert [bool(rows) for rows, _ in expected.values()] == [False, False, True, True, False]


def test_a_broken_version_and_one_that_does_not_decode_between_good_ones(tmp_path: Path) -> None:
    good = _cycle("0")
    texts = [good, good.replace("return 0", "return (0"), good.replace("return 0", "return 1"), good, good]
    versions = [(f"b{n}", text.encode("utf-8")) for n, text in enumerate(texts)]
    versions[3] = ("b3", good.encode("utf-8").replace(b"return 0", b"return '\xff'"))
    whole = BlobFindings(_settings(tmp_path))
    whole.derive = False
    want = Wanted(frozenset({"red", "helper"}), file=True)
    expected = whole.measure_file("m.py", want, versions)
    assert BlobFindings(_settings(tmp_path)).measure_file("m.py", want, versions) == expected
    assert expected["b1"] == expected["b3"] == ([], {})


def _tests(assertion: str, first: str = "") -> str:
    return (f"{first}import unittest\n\n\nclass Checks(unittest.TestCase):\n    class TestInner:\n"
            "        def test_inner(self):\n            assert 1\n\n    def test_one(self):\n"
            f"        {assertion}\n\n    def helper(self):\n        return 1\n")


@pytest.mark.parametrize("rel", ["tests/test_m.py", "pkg/m.py"])
def test_a_test_role_from_the_path_or_a_pragma_and_a_header_that_becomes_generated(tmp_path: Path, rel: str) -> None:
    want = Wanted(frozenset({"Checks.test_one", "Checks.TestInner.test_inner", "Checks.helper"}), file=True)
    pragma = "# ladder: role=test\n" if rel.startswith("pkg/") else ""
    texts = [_tests("pass", pragma), _tests("assert 1", pragma), _tests("pass", pragma), _tests("pass"),
             _tests("pass", "# Generated by a tool. Do not edit.\n"), _tests("pass", pragma)]
    expected = _assert_same(tmp_path, rel, want, texts)
    assert [row[0] for row in expected["b0"][0]] == ["LAD108"]  # the test without an assertion, as a test


def test_a_noqa_added_to_a_def_line_and_a_unit_whose_line_moves_while_its_text_stays(tmp_path: Path) -> None:
    def text(noqa: str, above: str) -> str:
        return f"{above}{_RED.replace(':', ':' + noqa, 1)}    return 0\n\n\ndef helper():\n    return red(1, 2, 3)\n"

    texts = [text("", ""), text("  # noqa: LAD102", ""), text("  # noqa: LAD102", "X = 1\n\n"), text("", "X = 1\n")]
    expected = _assert_same(tmp_path, "m.py", Wanted(frozenset({"red", "helper"})), texts)
    assert [sorted({(row[0], row[2]) for row in rows if row[0] == "LAD102"}) for rows, _ in expected.values()] == [
        [("LAD102", 1)], [], [], [("LAD102", 2)]]
