"""Unit hashes follow the code, not its formatting; fingerprints never hold lines."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.analysis.identity import fingerprint, unit_hash

ORIGINAL = '''
def f(a, b):
    """Docstring."""
    if a and b:  # comment
        return a
    return b
'''

SAME_CODE = '''


def f(a,
      b):
    """A different docstring, moved down, reformatted, new comment."""
    # a new comment
    if (a and
            b):
        return a
    return b
'''

EDITED = ORIGINAL.replace("return b", "return b + 1")


def _hash(code: str) -> str:
    return unit_hash(ast.parse(textwrap.dedent(code)).body[0])


def test_formatting_comments_docstring_and_position_do_not_change_the_hash():
    assert _hash(ORIGINAL) == _hash(SAME_CODE)


def test_a_real_edit_changes_the_hash():
    assert _hash(ORIGINAL) != _hash(EDITED)


def test_string_values_cannot_collide_with_structure():
    assert _hash("def f():\n    return ')'\n") != _hash("def f():\n    return ''\n")


def test_fingerprint_has_no_line_numbers():
    assert fingerprint("src/a.py", "Parser.parse", "cognitive_max") == "src/a.py::Parser.parse::cognitive_max"
    assert fingerprint("src/a.py", None, "file_lines_max") == "src/a.py::file_lines_max"


def test_duplicate_qualified_names_get_stable_suffixes(settings):
    code = "def f(a, b, c, d, e, g):\n    pass\n\ndef f(a, b, c, d, e, g):\n    pass\n"
    report = analyze_source(code, "m.py", settings)
    assert [u.key for u in report.units] == ["f", "f#2"]
    prints = [v.fingerprint for v in report.violations]
    assert prints == ["m.py::f::params_max", "m.py::f#2::params_max"]
    shifted = analyze_source("\n\n# inserted\n" + code, "m.py", settings)
    assert [v.fingerprint for v in shifted.violations] == prints


def test_fingerprints_and_hashes_do_not_depend_on_hash_seed(tmp_path):
    script = (
        "from ladder_plugins.analysis.analyzer import analyze_source\n"
        "from ladder_plugins.config import load_settings\n"
        "import sys\n"
        "s = load_settings(sys.argv[1])\n"
        "r = analyze_source('def f(a,b,c,d,e,g):\\n    return {1, 2, a}\\n', 'm.py', s)\n"
        "print([(v.fingerprint, v.unit_hash) for v in r.violations])\n"
    )
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_file_versions_ignore_blank_and_comment_lines_but_not_code():
    from ladder_plugins.analysis.identity import file_hash

    base = ["import os", "", "x = 1"]
    assert file_hash(base) == file_hash(["# header", "import os   ", "", "", "    # note", "x = 1"])
    assert file_hash(base) != file_hash(["import os", "x = 2"])


def test_the_fast_rendering_equals_the_iterative_one_on_real_and_deep_code():
    """Unit hashes must not change with the rendering that computes them (stored histories rely on them)."""
    from ladder_plugins.analysis.identity import _fast_tokens, _tokens

    stdlib = Path(ast.__file__).parent
    units = [node for path in sorted(stdlib.glob("*.py"))[:80] for node in ast.walk(ast.parse(path.read_bytes()))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert len(units) > 1000
    assert all(_fast_tokens(node) == _tokens(node) for node in units)
    deep = ast.parse("def f(x):\n    return " + " + ".join(["x"] * 2000) + "\n").body[0]
    assert _fast_tokens(deep) == _tokens(deep)  # past the recursion limit: the iterative fallback
