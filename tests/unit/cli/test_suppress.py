"""``ladder suppress``: exact, formatting-preserving edits; hotspots refused without --force."""

from __future__ import annotations

import pytest

from tests.helpers.reports import ladder, three_edits

SOURCE = '''\
import functools


@functools.lru_cache(maxsize=None)   # keep: decorator comment
def wide(a, b, c, d, e, f):   # noqa: E501  (an existing comment)
    return a


def tall(
    a, b,
    c, d, e, f,
):
    return (a,
            b)


def fine(a):
    return a


class Box:
    def one_liner(self, a, b, c, d, e, f): return a
'''

EXPECTED = '''\
import functools


@functools.lru_cache(maxsize=None)   # keep: decorator comment
def wide(a, b, c, d, e, f):   # noqa: E501  (an existing comment)  # ladder: ignore[params_max] wire format, see #42
    return a


def tall(
    a, b,
    c, d, e, f,
):  # ladder: ignore[params_max] wire format, see #42
    return (a,
            b)


def fine(a):
    return a


class Box:
    def one_liner(self, a, b, c, d, e, f): return a  # ladder: ignore[params_max] wire format, see #42
'''


def _project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "src").mkdir()
    module = tmp_path / "src" / "mod.py"
    module.write_text(SOURCE)
    return module


def test_suppress_writes_exact_comments_and_they_work(tmp_path):
    module = _project(tmp_path)
    done = ladder(["suppress", "src", "--reason", "wire format, see #42"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert module.read_text() == EXPECTED
    check = ladder(["check", "--mode", "strict", "--no-record", "src"], tmp_path)
    assert check.returncode == 0 and "LAD105" not in check.stdout and "LAD001" not in check.stdout


def test_dry_run_shows_a_diff_and_writes_nothing(tmp_path):
    module = _project(tmp_path)
    done = ladder(["suppress", "src", "--reason", "why", "--dry-run"], tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("--- a/src/mod.py\n+++ b/src/mod.py\n")
    assert "+):  # ladder: ignore[params_max] why" in done.stdout
    assert module.read_text() == SOURCE


def test_rule_filter(tmp_path):
    module = _project(tmp_path)
    assert ladder(["suppress", "src", "--reason", "why", "--rule", "LAD101"], tmp_path).returncode == 0
    assert module.read_text() == SOURCE


def test_bad_reasons_and_rules_are_usage_errors(tmp_path):
    _project(tmp_path)
    for args in (["--reason", "two\nlines"], ["--reason", "x # y"], ["--reason", " "],
                 ["--reason", "ok", "--rule", "nonsense"]):
        done = ladder(["suppress", "src", *args], tmp_path)
        assert done.returncode == 2 and done.stderr.startswith("ladder: error:"), args


def test_a_recurring_hotspot_is_refused_without_force(tmp_path):
    project = three_edits(tmp_path / "shop")
    pricing = project / "src" / "shop" / "pricing.py"
    before = pricing.read_text()
    refused = ladder(["suppress", "src", "--reason", "later"], project, LADDER_NOW="2026-11-03T12:00:00Z")
    assert refused.returncode == 1
    assert "src/shop/pricing.py:1: cognitive_max of 'price' is a recurring hotspot" in refused.stderr
    assert pricing.read_text() == before
    assert "ladder: ignore[" in (project / "src" / "shop" / "legacy.py").read_text()  # untouched legacy: allowed
    forced = ladder(["suppress", "src", "--reason", "later", "--force"], project, LADDER_NOW="2026-11-03T12:00:00Z")
    assert forced.returncode == 0
    assert "ladder: ignore[cyclomatic_max, cognitive_max, abc_max] later" in pricing.read_text()


def test_a_file_that_leads_out_of_the_project_is_never_written(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    module = _project(project)
    outside = tmp_path / "elsewhere.py"
    outside.write_text(SOURCE)
    (project / "src" / "linked.py").symlink_to(outside)
    done = ladder(["suppress", "src", "--reason", "legacy"], project)
    assert done.returncode == 1 and "linked.py: resolves outside the project root" in done.stderr
    assert outside.read_text() == SOURCE  # untouched
    assert "ladder: ignore" in module.read_text()  # the rest is done


WIDE = "a, b, c, d, e, f"
#: sources where a written comment does not suppress (the body on the colon line of a multi-line
#: signature, a reason-less ignore already there, a capitalised directive): none may be reported as done
NOT_SUPPRESSED = {
    "body on the colon line": f"def wide(\n    {WIDE}\n): return a\n",
    "an existing reason-less ignore": f"def wide({WIDE}):  # ladder: ignore[params_max]\n    return a\n",
    "a capitalised directive": f"def wide({WIDE}):  # Ladder: Ignore[params_max] kept on purpose\n    return a\n",
}


def _violations(project) -> list[str]:
    check = ladder(["check", "--mode", "strict", "--no-record", "--format", "json", "src"], project)
    import json

    return [v["code"] for f in json.loads(check.stdout)["files"] for v in f["violations"]]


def test_what_is_said_to_be_suppressed_is_suppressed(tmp_path):
    for n, (case, source) in enumerate(NOT_SUPPRESSED.items()):
        project = tmp_path / f"p{n}"
        (project / "src").mkdir(parents=True)
        (project / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n")
        (project / "src" / "m.py").write_text(source)
        done = ladder(["suppress", "src", "--reason", "legacy"], project)
        if "LAD105" in _violations(project):  # not suppressed: never said to be, and said why
            assert done.returncode == 1 and "suppressed" not in done.stdout, (case, done.stdout)
            assert "src/m.py:1: params_max: a comment there does not suppress it" in done.stderr, case
            assert (project / "src" / "m.py").read_text() == source, case  # no comment that does nothing
        else:
            assert done.returncode == 0, (case, done.stderr)


DEF = b"def wide(a, b, c, d, e, f):"
COMMENT = b"  # ladder: ignore[params_max] legacy"


@pytest.mark.parametrize("before, after", [
    (b"\x0c" + DEF + b"\n    return a\n", b"\x0c" + DEF + COMMENT + b"\n    return a\n"),  # a form feed first
    (DEF + b"\r    return a\r", DEF + COMMENT + b"\r    return a\r"),  # CR-only, the last CR too
    (b"import os\r\r" + DEF + b"\r    return a\r", b"import os\r\r" + DEF + COMMENT + b"\r    return a\r"),
    (DEF + b"\r\n    return a\r\n", DEF + COMMENT + b"\r\n    return a\r\n"),
    (b"\xef\xbb\xbf" + DEF + b"\n\treturn a", b"\xef\xbb\xbf" + DEF + COMMENT + b"\n\treturn a"),  # BOM, tab, no EOL
    (b"# -*- coding: latin-1 -*-\n" + DEF + b"  # caf\xe9\n    return a\n",
     b"# -*- coding: latin-1 -*-\n" + DEF + b"  # caf\xe9" + COMMENT + b"\n    return a\n"),
], ids=["form feed", "CR only", "CR only, def on line 3", "CRLF", "BOM tab no final newline", "latin-1 comment"])
def test_every_byte_but_the_comment_stays(tmp_path, before, after):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_bytes(before)
    done = ladder(["suppress", "src", "--reason", "legacy"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "src" / "m.py").read_bytes() == after


def test_the_hotspot_the_gate_fails_on_now_is_refused(tmp_path):
    """Two versions of price() are in the history; the third is on disk, not yet checked: the gate counts
    it and fails, so suppress refuses it as well."""
    from tests.helpers.reports import STEPS, demo_copy

    project = demo_copy(tmp_path / "shop")
    pricing = project / "src" / "shop" / "pricing.py"
    for number, (now, edit) in enumerate(STEPS[:2], 1):
        if edit:
            pricing.write_text(pricing.read_text().replace(*edit))
        ladder(["check"], project, LADDER_NOW=now, LADDER_RUN_ID=f"run-{number}")
    pricing.write_text(pricing.read_text().replace(*STEPS[2][1]))
    before = pricing.read_text()
    check = ladder(["check", "--no-record"], project, LADDER_NOW="2026-11-03T12:00:00Z")
    assert check.returncode == 1 and "LAD900" in check.stdout
    refused = ladder(["suppress", "src", "--reason", "later"], project, LADDER_NOW="2026-11-03T12:00:00Z")
    assert refused.returncode == 1 and "cognitive_max of 'price' is a recurring hotspot" in refused.stderr
    assert pricing.read_text() == before


@pytest.mark.parametrize("config, name", [
    ("[flake8]\nmax-line-length = 60\n", "setup.cfg"), ("[flake8]\nmax_line_length = 60\n", "tox.ini"),
    ("line-length = 60\n", "ruff.toml"), ("[tool.ladder]\npaths = ['src']\n[tool.ruff]\nline-length = 60\n",
                                          "pyproject.toml")])
def test_a_comment_goes_where_the_projects_line_length_allows(tmp_path, config, name):
    """The colon line would pass 60 characters with the comment; the signature's def line has room."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n")
    (tmp_path / name).write_text(config)
    (tmp_path / "src").mkdir()
    source = "def wide(\n    a, b, c, d, e, f, g, h, i, j, k, l, m, n):\n    return a\n"
    (tmp_path / "src" / "m.py").write_text(source)
    done = ladder(["suppress", "src", "--reason", "legacy"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "src" / "m.py").read_text().splitlines()
    assert lines[0] == "def wide(  # ladder: ignore[params_max] legacy" and lines[1:] == source.splitlines()[1:]
    assert all(len(line) <= 60 for line in lines)
    assert "LAD105" not in ladder(["check", "--mode", "strict", "--no-record", "src"], tmp_path).stdout


def test_a_line_with_no_room_anywhere_is_said(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n[tool.ruff]\nline-length = 40\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("def wide(a, b, c, d, e, f):\n    return a\n")
    done = ladder(["suppress", "src", "--reason", "legacy"], tmp_path)
    assert done.returncode == 0 and "src/m.py:1: this line is now over the project's line length of 40" in done.stdout


def test_a_capitalised_ignore_is_extended_as_the_analysis_reads_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n")
    (tmp_path / "src").mkdir()
    module = tmp_path / "src" / "m.py"
    module.write_text(f"def wide({WIDE}):  # Ladder: Ignore[cognitive_max] kept\n    return a\n")
    done = ladder(["suppress", "src", "--reason", "legacy"], tmp_path)
    assert done.returncode == 0 and "suppressed 1 violation" in done.stdout, done.stderr
    assert module.read_text().splitlines()[0] == f"def wide({WIDE}):  # ladder: ignore[cognitive_max, params_max] kept"
    assert "LAD105" not in ladder(["check", "--mode", "strict", "--no-record", "src"], tmp_path).stdout


def test_a_rule_list_no_line_has_room_for_is_wrapped_over_the_signature_lines(tmp_path):
    """Neither line of the signature can hold both rules within 60 characters; each can hold one."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\npaths = ['src']\n[tool.ladder.thresholds]\nabc_max = 99\n"
                                             "[tool.ruff]\nline-length = 60\n")
    (tmp_path / "src").mkdir()
    body = "".join(f"    if a == {n}:\n        return {n}\n" for n in range(11))
    (tmp_path / "src" / "m.py").write_text("def wide(\n    a, b, c, d, e, f):\n" + body)
    done = ladder(["suppress", "src", "--reason", "legacy"], tmp_path)
    assert done.returncode == 0 and "suppressed 2 violation" in done.stdout, done.stdout + done.stderr
    lines = (tmp_path / "src" / "m.py").read_text().splitlines()
    assert all(len(line) <= 60 for line in lines) and "over the project's line length" not in done.stdout
    assert [line.count("# ladder: ignore[") for line in lines[:2]] == [1, 1]
    strict = ladder(["check", "--mode", "strict", "--no-record", "src"], tmp_path).stdout
    assert "LAD101" not in strict and "LAD105" not in strict


@pytest.mark.parametrize("newline", [b"\r", b"\n"], ids=["CR only", "LF"])
def test_a_signature_line_that_holds_a_comment_is_not_taken_for_a_free_one_whatever_the_line_endings(newline):
    """Line 3 has no room within 46 characters; line 2 holds a comment: the ignore goes on line 1."""
    from ladder_plugins.cli.rewrite import rewrite

    def comment(existing, keys):
        return f"# ladder: ignore[{', '.join(keys)}] legacy"

    lines = [b"def wide(", b"    a, b, c,  # first", b"    d, e, f):", b"    return a", b""]
    after, long = rewrite(newline.join(lines), {1: ["params_max"]}, comment, 46)
    assert after.split(newline)[:3] == [lines[0] + b"  # ladder: ignore[params_max] legacy", *lines[1:3]]
    assert long == []
