"""Unit hashes follow the code, not its formatting; fingerprints never hold lines."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from ladder_plugins.analysis.analyzer import analyze_source
from ladder_plugins.analysis import identity
from ladder_plugins.analysis.identity import fingerprint, unit_hash, value_version

from tests.helpers.paths import REPO

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


def test_a_file_rule_version_is_its_measured_value_not_its_text(settings):
    long_file = "x = 1\n" * 1040
    first = analyze_source(long_file, "src/m.py", settings).violations
    other_edit = analyze_source(long_file.replace("x = 1", "y = 2", 1), "src/m.py", settings).violations
    longer = analyze_source(long_file + "z = 3\n", "src/m.py", settings).violations
    (before,), (after,), (grown,) = ([v for v in vs if v.rule.key == "file_lines_max"] for vs in (first, other_edit, longer))
    assert before.unit_hash == after.unit_hash == value_version("file_lines_max", 1040)
    assert grown.unit_hash != before.unit_hash


def test_the_fast_rendering_equals_the_iterative_one_on_real_and_deep_code():
    """Unit hashes must not change with the rendering that computes them (stored histories rely on them)."""
    from ladder_plugins.analysis.identity import _text, _tokens

    stdlib = Path(ast.__file__).parent
    units = [node for path in sorted(stdlib.glob("*.py"))[:80] for node in ast.walk(ast.parse(path.read_bytes()))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert len(units) > 1000
    assert [_text(node) for node in units] == ["\x1f".join(_tokens(node)) for node in units]
    deep = ast.parse("def f(x):\n    return " + " + ".join(["x"] * 2000) + "\n").body[0]
    assert _text(deep) == "\x1f".join(_tokens(deep))  # past the recursion limit: the iterative fallback


def _units(source: bytes) -> list[ast.AST]:
    return [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _stdlib_units(count: int) -> list[ast.AST]:
    stdlib = Path(ast.__file__).parent
    return [unit for path in sorted(stdlib.glob("*.py"))[:count] for unit in _units(path.read_bytes())]


def _strip_empty_fields(nodes: list[ast.AST]) -> None:
    for node in nodes:
        for name in node._fields:
            if getattr(node, name, None) in (None, []):
                delattr(node, name)


def _all_nodes(units: list[ast.AST]) -> list[ast.AST]:
    return list({id(node): node for unit in units for node in ast.walk(unit)}.values())  # units nest


def test_fields_missing_or_left_empty_do_not_change_the_hash():
    """A Python that never had a field (3.11 and ``type_params``) hashes as one that leaves it empty."""
    units = _stdlib_units(30)
    before = [unit_hash(u) for u in units]
    _strip_empty_fields(_all_nodes(units))
    assert [unit_hash(u) for u in units] == before


def _set_everywhere(nodes: list[ast.AST], name: str, value: object) -> None:
    for node in nodes:
        setattr(node, name, value)


def test_a_field_a_future_python_adds_changes_nothing_while_empty(monkeypatch):
    units = _stdlib_units(30)
    before = [unit_hash(u) for u in units]
    fields = dict(identity._FIELDS)
    fields[ast.FunctionDef] = tuple(sorted(fields[ast.FunctionDef] + ("zz_future",)))
    monkeypatch.setattr(identity, "_FIELDS", fields)
    head = identity._SHAPES[ast.FunctionDef][0]
    monkeypatch.setattr(identity, "_SHAPES", {**identity._SHAPES, ast.FunctionDef: (head, fields[ast.FunctionDef])})
    nodes = _all_nodes(units)
    for empty in (None, []):
        _set_everywhere(nodes, "zz_future", empty)
        assert [unit_hash(u) for u in units] == before
    function = next(u for u in units if isinstance(u, ast.FunctionDef))
    function.zz_future = [ast.Name(id="T", ctx=ast.Load())]
    assert unit_hash(function) != before[units.index(function)]  # a field that holds something counts


def test_fstring_parts_and_unicode_are_rendered_alike_on_every_parser():
    """3.12.1 adds an empty text part to ``{x:>{y}}`` format specs; ``repr`` of U+2C5F differs on 3.9."""
    (node,) = _units(b"def f(x, y):\n    return f'{x!r:>{y}}' + '\\u2c5f'\n")
    spec = node.body[0].value.left.values[0].format_spec
    plain = unit_hash(node)
    spec.values.append(ast.Constant(value=""))
    spec.values.insert(0, ast.Constant(value=""))
    assert unit_hash(node) == plain
    assert "\x1f".join(identity._tokens(node)) == identity._text(node)
    assert "'\\u2c5f'" in identity._tokens(node)


_SAMPLE = """\
import typing
def f(x, y=1, /, *a, k, **kw) -> "typing.Any":
    s = f"a{{b}}c{x!r:>{y}}d{x=}e" f'{x:%Y-%m}' "plain" f"{'q'}" rf"\\d{y}" f"{x:{y}.{y}f}"
    t = [i for i in a if (n := i)] + [*a] + list({**kw}) + [lambda: (yield), ..., 1j, 0x1F, b"\\xff", "\\u2c5f"]
    del x[1:2, ::3]
    return s if t else None
async def g():
    async with a as b, c:
        async for i in b:
            await i
    try:
        pass
    except (ValueError, TypeError) as exc:
        raise RuntimeError from exc
    finally:
        global q
@decorator(1)
class C(Base, metaclass=M):
    x: int = 1
    def m(self, *, a=[], **b):
        nonlocal_ = {k: v for k, v in b.items()}
        assert a, "message"
        with open(a) as h, open(b):
            return h.read()[::-1]
"""

_HASH_SCRIPT = (
    "import ast, json, sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from ladder_plugins.analysis.identity import unit_hash\n"
    "out = {}\n"
    "for path in sys.argv[2:]:\n"
    "    tree = ast.parse(open(path, 'rb').read())\n"
    "    for n in ast.walk(tree):\n"
    "        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):\n"
    "            out[path + ':' + str(n.lineno)] = unit_hash(n)\n"
    "print(json.dumps(out))\n"
)


def _candidates() -> list[str]:
    import glob
    import shutil

    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    on_path = [shutil.which(f"python3.{minor}") for minor in range(9, 15)]
    return [exe for exe in on_path if exe] + sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3")))


def _version_of(exe: str) -> tuple[int, ...]:
    probe = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                           capture_output=True, text=True)
    return tuple(map(int, probe.stdout.split("."))) if probe.returncode == 0 else ()


def _other_pythons() -> list[str]:
    """Interpreters of the other supported versions (3.9 and newer) on PATH or under pyenv."""
    found: dict[tuple[int, ...], str] = {}
    for exe in _candidates():
        version = _version_of(exe)
        if version >= (3, 9) and version != sys.version_info[:2]:
            found.setdefault(version, exe)
    return [found[v] for v in sorted(found)]


def _corpus(tmp_path: Path) -> tuple[Path, list[str]]:
    """The source directory and the files to hash: a sample of much syntax, and this package."""
    sample = tmp_path / "sample.py"
    sample.write_text(_SAMPLE)
    src = REPO / "src"
    package = sorted(str(p) for p in (src / "ladder_plugins").rglob("*.py") if "demo_project" not in p.parts)
    return src, [str(sample)] + package


def test_unit_hashes_are_the_same_on_every_python_version(tmp_path):
    pythons = _other_pythons()
    if not pythons:
        import pytest

        pytest.skip("no other Python 3.9+ interpreter on PATH or under pyenv to compare with")
    src, files = _corpus(tmp_path)
    results = {}
    for exe in [sys.executable] + pythons:
        done = subprocess.run([exe, "-c", _HASH_SCRIPT, str(src), *files], capture_output=True, text=True)
        assert done.returncode == 0, f"{exe}: {done.stderr[-2000:]}"
        results[exe] = json.loads(done.stdout)
    reference = results[sys.executable]
    assert len(reference) > 300
    assert {exe: sorted(k for k in reference if got.get(k) != reference[k]) for exe, got in results.items()} == {
        exe: [] for exe in results}


def _counting_hashes(monkeypatch) -> list:
    """Every unit the analysis hashes, in order."""
    from ladder_plugins.analysis import analyzer

    hashed: list = []

    def counting(node):
        hashed.append(node.name)
        return unit_hash(node)

    monkeypatch.setattr(analyzer, "unit_hash", counting)
    return hashed


TWO_BAD_UNITS = "def f(a):\n" + "    if a and a or a:\n        pass\n" * 12 + "\ndef g(a):\n    return a\n"
YELLOW_TOO = TWO_BAD_UNITS + "\ndef h(a):\n" + "    if a:\n        pass\n" * 9  # h: cyclomatic 10 of 10: yellow


def test_a_run_that_stores_nothing_hashes_only_red_units_the_history_knows(monkeypatch, settings):
    from ladder_plugins.analysis.analyzer import Analyzer

    hashed = _counting_hashes(monkeypatch)
    known = {"src/m.py::f::cyclomatic_max", "src/m.py::h::cyclomatic_max"}  # h is only yellow
    report = Analyzer(settings, versions=known).source(YELLOW_TOO, "src/m.py")
    versions = {v.fingerprint: v.unit_hash for v in report.violations}
    assert hashed == ["f"] and versions["src/m.py::f::cyclomatic_max"] == unit_hash(ast.parse(YELLOW_TOO).body[0])
    assert {fp: h for fp, h in versions.items() if h} == {"src/m.py::f::cyclomatic_max": versions[
        "src/m.py::f::cyclomatic_max"]}


def test_a_run_with_a_cache_or_a_record_hashes_every_violating_unit(monkeypatch, settings):
    from ladder_plugins.analysis.analyzer import Analyzer

    hashed = _counting_hashes(monkeypatch)
    Analyzer(settings).source(YELLOW_TOO, "src/m.py")
    Analyzer.for_run(settings, versions=frozenset()).source(YELLOW_TOO, "src/m.py")  # the cache keeps all
    assert hashed == ["f", "h", "f", "h"]


def test_check_without_recording_hashes_nothing_the_history_does_not_know(tmp_path):
    """A one-shot check (no record, no cache, no git, empty history) computes no unit hash at all."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "m.py").write_text(YELLOW_TOO)
    probe = ("import sys\nfrom ladder_plugins.analysis import analyzer\nfrom ladder_plugins.cli.main import main\n"
             "seen = []\nreal = analyzer.unit_hash\n"
             "analyzer.unit_hash = lambda node: seen.append(node.name) or real(node)\n"
             "code = main(['check', '--no-record', '--no-cache', 'm.py'])\nprint(code, seen)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr


def test_a_run_that_records_nothing_builds_events_for_red_violations_only(settings):
    from ladder_plugins.history.recorder import Recorder
    from ladder_plugins.history.run import RunContext

    report = analyze_source(YELLOW_TOO, "src/m.py", settings)
    assert {v.severity for v in report.violations if v.unit == "h"} == {"yellow"}
    recorder = Recorder(settings, RunContext.create("cli", "recurrence", "r"))
    outcome = recorder.violations(report.violations, record=False)
    assert {e.unit_name for e in outcome.events} == {"f"}


def test_check_without_recording_reads_the_history_once(tmp_path):
    """The history that decides which red units are hashed is the one the gate decides with: read once."""
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    (tmp_path / "m.py").write_text(YELLOW_TOO)
    probe = ("from ladder_plugins.history.store import HistoryStore\nfrom ladder_plugins.cli.main import main\n"
             "reads = []\nreal = HistoryStore.peek\n"
             "HistoryStore.peek = lambda self: reads.append(1) or real(self)\n"
             "code = main(['check', '--no-record', '--no-cache', 'm.py'])\nprint(code, len(reads))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "0 1", done.stdout + done.stderr


def test_a_units_two_hashes_rendered_once_are_its_hash_and_its_body_hash():
    """The git walk hashes a unit and its name-less body from one rendering: the same two hashes as apart,
    a nested function of the unit's own name and an async or class unit included."""
    import sysconfig

    from ladder_plugins.analysis.source import find_units

    source = textwrap.dedent("""
        def f(a):
            def f(b):
                return b
            return f(a)

        async def g() -> "g":
            return g

        class C:
            def m(self, name='m'):
                return name
    """)
    nodes = [u.node for u in find_units(ast.parse(source), "m.py", "app")]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in ("textwrap.py", "argparse.py", "ast.py"):
        nodes += [u.node for u in find_units(ast.parse((stdlib / name).read_bytes()), name, "app")]
    assert len(nodes) > 200
    for node in nodes + [ast.parse(source).body[2]]:
        assert identity.unit_hashes(node) == (unit_hash(node), identity.body_hash(node))
