"""The layout ``docs/contributing/layout.md`` describes is the layout of the code.

The import graph (read with ``ast``, see ``import_graph``) has no circles, no module
imports from a higher layer than its own in the page's layer list, no part reaches
into another part's private names, and the page's tree lists exactly the modules
there are. The checker itself is tested on small packages built here, so a circle or
an upward import cannot slip through a checker that finds nothing.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from tests.helpers.import_graph import Layer, build_graph, find_cycles, layer_of, private_imports, upward_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ladder_plugins"
EXCLUDED = ("demo_project",)  # the example project `ladder demo` copies: data, not our code


LAYOUT = ROOT / "docs" / "contributing" / "layout.md"


def _layout_section() -> str:
    """The page down to its generated part (the parts in their own words)."""
    text = LAYOUT.read_text(encoding="utf-8")
    assert text.startswith("# Layout\n"), f"{LAYOUT.relative_to(ROOT)} is not the layout page"
    return text.partition("\n## The parts, in their own words")[0]


def _layers() -> list[Layer]:
    layers = []
    for number, title, rest in re.findall(r"^(\d+)\. \*\*(.+?)\*\*:? ?(.*)$", _layout_section(), re.M):
        layers.append(Layer(int(number), title, tuple(re.findall(r"`([^`]+)`", rest))))
    assert layers, "the layout page lists no layers ('1. **name**: `module`, `package/`')"
    return layers


def _tree_paths() -> set[str]:
    """The files and folders of the layout page's tree, as paths below ``src/ladder_plugins``."""
    block = re.search(r"```text\nsrc/ladder_plugins/\n(.*?)```", _layout_section(), re.S)
    assert block, "the layout page has no ```text tree starting at src/ladder_plugins/"
    paths, parents = set(), []
    for line in block.group(1).splitlines():
        match = re.match(r"^((?:[│ ]   )*)[├└]── (\S+)", line)
        assert match, f"not a tree line: {line!r}"
        depth = len(match.group(1)) // 4
        parents[depth:] = [match.group(2).rstrip("/")]
        paths.add("/".join(parents))
    return paths


@pytest.fixture(scope="module")
def graph():
    return build_graph(PACKAGE, EXCLUDED)


def test_the_package_has_no_import_circles(graph):
    assert find_cycles(graph) == []


def test_every_module_belongs_to_exactly_one_layer(graph):
    layers = _layers()
    assert [m for m in sorted(graph.files) if layer_of(graph, m, layers) is None] == []


def test_no_module_imports_a_higher_layer(graph):
    assert upward_imports(graph, _layers()) == []


_WORKLOG_MAY_IMPORT = ("catalogue", "config", "errors", "hookspecs", "plugins", "ladderdir", "reports", "worklog",
                       "history.run", "readers")


def _outside_worklog_allowance(target: str) -> bool:
    name = target.partition(".")[2]
    return bool(name) and name not in ("history",) and not name.startswith(_WORKLOG_MAY_IMPORT)


def test_the_worklog_lint_imports_only_what_its_package_says(graph):
    """Its ``__init__`` allows the spine, ``ladderdir``, ``reports``, the clock and the front-matter reader (a
    parent package is an edge of every import below it, so ``history`` itself counts as
    allowed)."""
    worklog = {module: targets for module, targets in graph.edges.items() if module.startswith("ladder_plugins.worklog")}
    assert {(m, t) for m, targets in worklog.items() for t in targets if _outside_worklog_allowance(t)} == set()


def test_no_part_imports_private_names_of_another(graph):
    assert private_imports(graph) == []


def _listed(rel: Path) -> bool:
    """Whether the layout page's tree must show ``rel``: a subpackage's folder line stands for its
    ``__init__.py``, and the demo project is one line of data."""
    if "__pycache__" in rel.parts or rel.suffix == ".pyc":
        return False
    if len(rel.parts) == 1:
        return True
    return rel.parts[0] not in EXCLUDED and rel.name != "__init__.py"


def test_the_layout_pages_tree_lists_exactly_the_modules_there_are():
    actual = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*") if _listed(p.relative_to(PACKAGE))}
    assert _tree_paths() == actual


def test_every_subpackage_says_what_it_does_and_may_import(graph):
    for module, path in graph.files.items():
        if path.name == "__init__.py" and module != graph.package:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            assert "May import" in doc and "Must not" in doc, f"{path.relative_to(ROOT)}: docstring"


# -- the checker finds what it is there to find ------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


_TOY_LAYERS = [Layer(1, "base", ("__init__", "low/")), Layer(2, "top", ("high/",))]


def test_checker_finds_a_circle_through_a_lazy_import(tmp_path):
    root = _package(tmp_path, {
        "low/__init__.py": "", "low/a.py": "from . import b\n",
        "low/b.py": "def f():\n    from .c import g\n", "low/c.py": "from .a import x\n",
        "low/d.py": "from .a import x\n",
    })
    assert find_cycles(build_graph(root)) == [["pkg.low.a", "pkg.low.b", "pkg.low.c"]]


def test_checker_finds_an_upward_import_but_ignores_type_checking(tmp_path):
    root = _package(tmp_path, {
        "low/__init__.py": "", "high/__init__.py": "", "high/h.py": "from ..low import a\n",
        "low/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..high import h\n",
        "low/b.py": "import pkg.high.h\n",
    })
    graph = build_graph(root)
    assert upward_imports(graph, _TOY_LAYERS) == ["pkg.low.b (base) imports pkg.high (top)",
                                                  "pkg.low.b (base) imports pkg.high.h (top)"]
    assert find_cycles(graph) == []


def test_checker_finds_private_names_taken_from_another_part(tmp_path):
    root = _package(tmp_path, {
        "low/__init__.py": "", "low/a.py": "_x = 1\n", "low/b.py": "from .a import _x\n",
        "high/__init__.py": "", "high/h.py": "from ..low.a import _x, __doc__\n",
    })
    assert private_imports(build_graph(root)) == ["pkg.high.h imports _x from pkg.low.a"]


def test_checker_names_modules_no_layer_holds(tmp_path):
    graph = build_graph(_package(tmp_path, {"stray.py": "", "low/__init__.py": ""}))
    assert [m for m in sorted(graph.files) if layer_of(graph, m, _TOY_LAYERS) is None] == ["pkg.stray"]
