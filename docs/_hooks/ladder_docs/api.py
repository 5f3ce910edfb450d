"""The hook specifications and the public Python API, from their signatures and docstrings (``inspect``).

The hooks are the methods of :class:`ladder_plugins.hookspecs.LadderSpec`; the API is what
``ladder_plugins.__all__`` lists. Docstrings are reStructuredText-flavoured (``:param x:``,
``:class:`~a.b.C```); they are turned into Markdown here, nothing else is changed.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Any

from . import table

_ROLE = re.compile(r":(?:class|func|meth|data|mod|attr|exc):`~?([^`]+)`")
_FIELD = re.compile(r"^:(param (\w+)|return|raises? (\w+)):\s*", re.M)


def markdown(doc: str) -> str:
    """A docstring as Markdown: roles and double backticks as code, ``:param:`` fields as a list."""
    doc = _ROLE.sub(lambda m: f"`{m.group(1).rpartition('.')[2]}`", doc)
    doc = re.sub(r"``([^`]+)``", r"`\1`", doc)
    doc = re.sub(r"\s*\(DESIGN §[\d.]+\)", "", doc)  # the design notes are not part of the repository

    def field(match: re.Match[str]) -> str:
        if match.group(2):
            return f"\n- **`{match.group(2)}`**: "
        return "\n- **returns**: " if match.group(1) == "return" else f"\n- **raises `{match.group(3)}`**: "

    return _FIELD.sub(field, doc)


def _signature(name: str, obj: Any) -> str:
    try:
        signature = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return name
    return f"{name}{signature}".replace("'", "")


def hooks_page() -> str:
    from ladder_plugins.hookspecs import LadderSpec

    parts = ["# Hook specifications", "",
             markdown(inspect.getdoc(LadderSpec) or ""), "",
             "Every hook of the `ladder` plugin host (pluggy), from `ladder_plugins/hookspecs.py`. A plugin "
             "registers in the `ladder` entry-point group and implements any of them as plain functions "
             "decorated with `ladder_plugins.hookimpl`; see [Writing a plugin](../how-to/plugin.md).", ""]
    for name, function in inspect.getmembers(LadderSpec, inspect.isfunction):
        if not name.startswith("ladder_"):
            continue
        options = getattr(function, "ladder_spec", {}) or {}
        first = " Only the first answer that is not `None` is used (`firstresult`)." if options.get(
            "firstresult") else ""
        signature = _signature(name, function).replace("(self, ", "(").replace("(self)", "()")
        parts += [f"## `{name}`", "", "```python", signature, "```", "",
                  markdown(inspect.getdoc(function) or "") + first, ""]
    return "\n".join(parts)


def _fields(cls: type) -> list[str]:
    if not dataclasses.is_dataclass(cls):
        return []
    rows = [[f"`{f.name}`", f"`{f.type}`"] for f in dataclasses.fields(cls)]
    return ["Fields:", "", table(["field", "type"], rows), ""]


def _methods(cls: type) -> list[str]:
    """Public methods and properties that have a docstring, as a definition list."""
    lines = []
    for name, member in vars(cls).items():
        target = member.fget if isinstance(member, property) else member
        if name.startswith("_") or not (inspect.isfunction(target) and inspect.getdoc(target)):
            continue
        shown = name if isinstance(member, property) else _signature(name, target).replace("(self, ", "(")
        doc = markdown(inspect.getdoc(target) or "").replace("\n", "\n    ")
        lines += [f"`{shown.replace('(self)', '()')}`", f": {doc}", ""]
    return lines


INTRO = """# Python API

What `ladder_plugins.__all__` lists, from the code's own signatures and docstrings. Every name is imported on
first use, so importing the package costs nothing until a name is used.

```python
from ladder_plugins import analyze_paths, analyze_source, load_settings

settings = load_settings(".")                       # finds the root, reads [tool.ladder]
report = analyze_source(text, "src/pkg/mod.py", settings)
for v in report.violations:
    print(v.path, v.line, v.text, v.severity, v.fingerprint)
result = analyze_paths(["src"], settings)           # an AnalysisResult: files, skipped, violations
```

`analyze_source` accepts `str` or `bytes` (decoded as Python would: BOM, PEP 263) and an optional
already-parsed `ast` tree, which flake8 hands over so the file is not parsed twice. Problems with a file come
back as `report.skipped` with a reason, never as an exception.
"""

#: what the code cannot say of a name that is data, not a function or a class
DATA = {"RULES": "The built-in rules by code, in catalogue order (plugins add theirs at run time); see "
                 "[Rules](rules/index.md)."}


def _entry(name: str, obj: Any) -> list[str]:
    kind = "class" if inspect.isclass(obj) else "function" if callable(obj) else "data"
    parts = [f"## `{name}`", "", f"*{kind}*, from `{getattr(obj, '__module__', 'ladder_plugins')}`", ""]
    if kind == "data":
        return parts + [DATA.get(name, ""), ""]
    parts += ["```python", _signature(name, obj), "```", "", markdown(inspect.getdoc(obj) or ""), ""]
    if kind == "class" and obj.__module__.startswith("ladder_plugins"):
        parts += _fields(obj) + _methods(obj)
    return parts


def api_page() -> str:
    import ladder_plugins

    parts = [INTRO]
    for name in ladder_plugins.__all__:
        if not name.startswith("__"):
            parts += _entry(name, getattr(ladder_plugins, name))
    return "\n".join(parts)
