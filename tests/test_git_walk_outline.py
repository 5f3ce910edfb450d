"""The git walk parses only the versions whose change touched a unit asked about (history/outline.py), and
finds exactly what parsing every version whole finds: on versions made by random edits of real modules (the
running Python's standard library), edits chosen to break the shortcut (renamed classes, duplicated and
decorated units, syntax errors, role pragmas, emptied classes, dedents, tabs), and in a real git repository."""

from __future__ import annotations

import ast
import json
import random
import re
import sysconfig
from pathlib import Path
from typing import Callable

import pytest

from ladder_plugins.analysis.analyzer import Analyzer
from ladder_plugins.config import load_settings
from ladder_plugins.history.blobs import BlobFindings, Wanted
from tests.git_helpers import commit, new_repo

STDLIB = Path(sysconfig.get_paths()["stdlib"])
_DEF = re.compile(r"^( *)(?:async )?def (\w+)\(")
_CLASS = re.compile(r"^( *)class (\w+)")


def _class_body_end(lines: list[str], at: int) -> int:
    """The line after the body of the class whose header is line ``at``."""
    indent = _CLASS.match(lines[at]).group(1) + " "
    end = at + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith(indent)):
        end += 1
    return end


def _in_body(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    lines.insert(at + 1, f"{indent}    _x = {rng.randrange(1000)}")


def _duplicate(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    name = _DEF.match(lines[at]).group(2)
    lines[at:at] = [f"{indent}def {name}(self_or_x=None):", f"{indent}    return {name}(1) if self_or_x else 0"]


def _rename_class(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    classes = [i for i, line in enumerate(lines) if _CLASS.match(line)] or [at]
    c = rng.choice(classes)
    lines[c] = re.sub(r"class (\w+)", lambda m: f"class {m.group(1)}X", lines[c], count=1)


def _empty_class(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    classes = [i for i, line in enumerate(lines) if _CLASS.match(line)]
    if classes:
        c = rng.choice(classes)
        del lines[c + 1:_class_body_end(lines, c)]


def _add_method(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    classes = [i for i, line in enumerate(lines) if _CLASS.match(line)]
    if classes:
        c = rng.choice(classes)
        body = _CLASS.match(lines[c]).group(1) + "    "
        lines[c + 1:c + 1] = [f"{body}def added_{rng.randrange(99)}(self):", f"{body}    return self.added_1()"]


def _dedent(lines: list[str], at: int, indent: str, rng: random.Random) -> None:
    if at + 1 < len(lines) and lines[at + 1].startswith(indent + "    "):
        lines[at + 1] = lines[at + 1][4:]


#: each edit: where it goes wrong for a shortcut, and whether it lasts (one that breaks the file is undone by
#: the next version, as a fix would be)
_EDITS: dict[str, tuple[Callable[[list[str], int, str, random.Random], None], bool]] = {
    "body": (_in_body, True),
    "blank": (lambda lines, at, indent, rng: lines.insert(rng.randrange(5, len(lines)), ""), True),
    "delete": (lambda lines, at, indent, rng: lines.pop(rng.randrange(5, len(lines))), False),
    "duplicate": (_duplicate, True),
    "rename_class": (_rename_class, True),
    "decorate": (lambda lines, at, indent, rng: lines.insert(at, f"{indent}@staticmethod"), True),
    "syntax": (lambda lines, at, indent, rng: lines.insert(rng.randrange(5, len(lines)), "def (:"), False),
    "pragma": (lambda lines, at, indent, rng: lines.insert(rng.randrange(5, len(lines)), "# ladder: role=test"),
               True),
    "header": (lambda lines, at, indent, rng: lines.insert(1, "# a header line"), True),
    "dedent": (_dedent, False),
    "empty_class": (_empty_class, False),
    "method": (_add_method, True),
    "comment": (lambda lines, at, indent, rng: lines.insert(rng.randrange(5, len(lines)), f"{indent}# noqa: LAD102"),
                True),
    "tab": (lambda lines, at, indent, rng: lines.insert(at + 1, "\t_y = 1"), False),
    "rename_def": (lambda lines, at, indent, rng: lines.__setitem__(at, lines[at].replace("def ", "def _", 1)), True),
}
_KINDS = ["body"] * 4 + sorted(_EDITS)


def _edit(lines: list[str], rng: random.Random) -> tuple[list[str], bool]:
    """One random edit of a random unit (most of them where the shortcut could go wrong), and whether it
    lasts."""
    lines = list(lines)
    defs = [i for i, line in enumerate(lines) if _DEF.match(line)]
    at = rng.choice(defs)
    edit, lasting = _EDITS[rng.choice(_KINDS)]
    edit(lines, at, _DEF.match(lines[at]).group(1), rng)
    return lines, lasting


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _history(sources: dict[str, list[str]], count: int, rng: random.Random) -> list[dict[str, str]]:
    """``count`` states of the files, oldest first, each one or two random edits from the one before (a
    broken file stays broken until its next edit; now and then the state before comes back, a revert)."""
    states = [{rel: "\n".join(lines) for rel, lines in sources.items()}]
    while len(states) < count:
        state = dict(states[-2:][0]) if rng.random() < 0.05 else _edited(states[-1], sources, rng)
        states += [state] if state != states[-1] else []
    return states


def _edited(state: dict[str, str], sources: dict[str, list[str]], rng: random.Random) -> dict[str, str]:
    state = dict(state)
    for rel in rng.sample(sorted(sources), min(2, len(sources))):
        edited, lasting = _edit(sources[rel], rng)
        state[rel] = "\n".join(edited)
        if lasting and _parses(state[rel]):
            sources[rel] = edited
    return state


def _versions(module: str, count: int, seed: int) -> list[tuple[str, bytes]]:
    """``count`` versions of a standard-library module, newest first."""
    states = _history({module: (STDLIB / module).read_text(encoding="utf-8").split("\n")}, count,
                      random.Random(seed))
    return [(f"blob{n}", state[module].encode("utf-8")) for n, state in reversed(list(enumerate(states)))]


def _wanted(versions: list[tuple[str, bytes]], rel: str, settings: object, rng: random.Random) -> Wanted:
    """Unit keys of the newest version and of older ones (some present only in part of the history)."""
    analyzer = Analyzer(settings)  # type: ignore[arg-type]
    sizes: dict[str, int] = {}
    for _, data in versions[::7]:
        try:
            sizes.update((u.key, u.end_line - u.line) for u in analyzer.parse(data, rel).units)
        except Exception:  # a version the edits broke
            continue
    largest = sorted(sizes, key=lambda key: (-sizes[key], key))[:6]  # red, most likely
    chosen = largest + rng.sample(sorted(set(sizes) - set(largest)), min(8, len(sizes) - len(largest)))
    return Wanted(frozenset(chosen + [k + "#2" for k in chosen[:3]]))


@pytest.mark.parametrize("module,seed", [("textwrap.py", 1), ("pydoc.py", 2), ("argparse.py", 3),
                                         ("tarfile.py", 4), ("difflib.py", 5), ("configparser.py", 6)])
def test_measuring_only_the_versions_that_touched_a_unit_finds_what_parsing_every_version_finds(
        tmp_path: Path, module: str, seed: int) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    settings = load_settings(tmp_path)
    rel = f"pkg/{module}"
    versions = _versions(module, 40, seed)
    want = _wanted(versions, rel, settings, random.Random(seed))
    whole = BlobFindings(settings)
    whole.derive = False
    expected = whole.measure_file(rel, want, versions)
    derived = BlobFindings(settings).measure_file(rel, want, versions)
    assert json.dumps(derived, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert any(rows for rows, _ in expected.values())  # the units asked about were red somewhere


def _red_and_other() -> list[tuple[str, bytes]]:
    """Versions, newest first: a method changes, then a red function alone, then the red function so that it
    calls another function of the file (whether it recurses is then the whole file's business)."""
    head = "import os\n\n\n# one\n# two\n"
    red = "def red(a, b, c):\n" + "".join(f"    if a == {n}:\n        return {n}\n" for n in range(16))
    texts = [(0, "0", 0), (0, "0", 1), (0, "1", 1), (0, "helper()", 1), (0, "helper()", 2)]
    return [(f"b{n}", (f"{head}{red}    return {tail}\nclass K:\n    def other(self):\n        return {other}\n"
                       "def helper():\n    return red(1, 2, 3)\n").encode())
            for n, (_, tail, other) in enumerate(texts)]


def _cognitive(rows: list[list[object]]) -> list[object]:
    return [row[4] for row in rows if row[0] == "LAD102"]


def test_a_version_is_parsed_whole_only_where_its_change_met_a_unit_asked_about_that_calls_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ladder]\n")
    settings = load_settings(tmp_path)
    versions, want = _red_and_other(), Wanted(frozenset({"red"}))
    whole = BlobFindings(settings)
    whole.derive = False
    expected = whole.measure_file("m.py", want, versions)
    parsed: list[str] = []
    original = Analyzer.parse
    monkeypatch.setattr(Analyzer, "parse", lambda self, source, path: parsed.append(path) or original(self, source, path))
    found = BlobFindings(settings).measure_file("m.py", want, versions)
    assert len(parsed) == 2  # the newest version, and the one where `red` calls `helper`, which calls it back
    assert found == expected
    assert len({found[blob][1]["red"][1] for blob in found}) == 3  # three texts of `red`
    assert {row[2] for rows, _ in found.values() for row in rows} == {6}  # its line, in every version
    assert _cognitive(found["b3"][0]) == [_cognitive(found["b2"][0])[0] + 1]  # the cycle through `helper` counts


def test_the_walk_over_a_real_repository_reports_what_parsing_every_version_reports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ladder_plugins.cli.main import main

    repo = new_repo(tmp_path / "repo", '[tool.ladder]\npaths = ["src"]\n[tool.ladder.recurrence]\ngit_since = "all"\n')
    sources = {f"src/{name}": (STDLIB / name).read_text(encoding="utf-8").split("\n")
               for name in ("textwrap.py", "shlex.py", "netrc.py")}
    for n, state in enumerate(_history(sources, 56, random.Random(1))):
        commit(repo, state, f"2026-10-{n // 2 + 1:02d}T{10 + n % 2 * 5}:00:00Z")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("LADDER_NOW", "2026-11-01T09:00:00Z")
    outputs = []
    for derive in (False, True):
        monkeypatch.setattr(BlobFindings, "derive", derive)
        capsys.readouterr()
        main(["check", "--no-record", "--no-cache", "--jobs", "1", "--format", "json"])
        outputs.append(json.loads(capsys.readouterr().out))
        del outputs[-1]["run_id"]
    assert outputs[0] == outputs[1]
    assert outputs[0]["gate"]["failures"]  # git's versions were read, and some recur
