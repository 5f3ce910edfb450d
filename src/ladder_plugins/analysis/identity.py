"""What makes a violation "the same" across runs: fingerprints and versions.

A fingerprint names the place and the rule, never a line number, so inserting lines
above a unit does not change it. A version names what was judged. For a unit it is
the unit hash of its *code*: computed from the ``ast`` (so formatting and comments
are gone) without positions and without the docstring, so it changes with every real
edit and with nothing else. For a file rule it is the measured value
(:func:`value_version`): a file of 1,037 lines is the same violation of a line limit
whatever else was edited in it. Both are built from text only (no ``hash()``), hence
identical across ``PYTHONHASHSEED`` values, processes and machines.

The unit hash is of a canonical form, the same on every supported Python (3.9 to
3.14): fields are written by name in sorted order, a field that holds its empty
default (``None``, an empty list) is left out, so a field that a newer Python added
(``type_params`` in 3.12, ``default_value`` in 3.13) changes nothing while it is
empty; values are written with ``ascii()``, whose escapes do not depend on the
Unicode database the interpreter was built with (``repr`` does); the parts of an
f-string are merged and empty parts dropped, as parsers of different versions split
them differently. No node or field has been renamed between 3.9 and 3.14, so names
are the ``ast`` module's own. :data:`HASH_VERSION` names this form: events carry it,
and versions of another form are never compared with these.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from types import MappingProxyType
from typing import Any, Mapping, Optional

__all__ = ["HASH_VERSION", "body_hash", "body_text", "body_tokens", "fingerprint", "text_hash", "text_tokens",
           "unit_hash", "unit_hashes", "value_version"]

#: The canonical form of unit hashes and value versions; 1 was the form before 2026-12
#: (fields by position, ``repr`` values, the file's text for file rules).
HASH_VERSION = 2

_SKIPPED = frozenset({"lineno", "col_offset", "end_lineno", "end_col_offset", "type_comment"})


def _hashed_fields(cls: type) -> tuple[str, ...]:
    return tuple(sorted(name for name in getattr(cls, "_fields", ()) if name not in _SKIPPED))


#: The hashed fields of every node type, sorted by name, worked out once.
_FIELDS: Mapping[type, tuple[str, ...]] = MappingProxyType({
    cls: _hashed_fields(cls) for cls in vars(ast).values() if isinstance(cls, type) and issubclass(cls, ast.AST)
})


def fingerprint(path: str, unit_key: Optional[str], rule_key: str) -> str:
    """``path::unit::rule`` for units, ``path::rule`` for file rules."""
    if unit_key:
        return f"{path}::{unit_key}::{rule_key}"
    return f"{path}::{rule_key}"


def _without_docstring(node: ast.AST) -> list[ast.AST]:
    body = list(getattr(node, "body", []))
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1:]
    return body


def _is_text(part: Any) -> bool:
    return isinstance(part, ast.Constant) and isinstance(part.value, str)


def _joined(values: list[Any]) -> list[Any]:
    """An f-string's parts with adjacent text merged and empty text dropped."""
    merged: list[Any] = []
    for part in values:
        if not _is_text(part):
            merged.append(part)
        elif part.value and merged and isinstance(merged[-1], str):
            merged[-1] += part.value
        elif part.value:
            merged.append(part.value)
    return [ast.Constant(value=p) if isinstance(p, str) else p for p in merged]


def _canonical(cls: type, name: str, value: Any) -> Any:
    return _joined(value) if cls is ast.JoinedStr and name == "values" else value


def _fields(node: ast.AST, body: Optional[list[ast.AST]]) -> list[tuple[str, Any]]:
    """The fields that are written: by name, empty defaults left out, the root's body without docstring."""
    cls = type(node)
    names = _FIELDS.get(cls)
    found = []
    for name in _hashed_fields(cls) if names is None else names:
        value = body if body is not None and name == "body" else getattr(node, name, None)
        if value is not None and (type(value) is not list or value):
            found.append((name, _canonical(cls, name, value)))
    return found


class _Name(str):
    """A field name on the iterative renderer's stack (a plain ``str`` there is a value)."""


# Structure markers are unique objects: no value in the tree can be mistaken for them.
_OPEN, _CLOSE, _LIST, _END = object(), object(), object(), object()
_MARKS = {id(_OPEN): "(", id(_CLOSE): ")", id(_LIST): "[", id(_END): "]"}


def _push_node(node: ast.AST, stack: list[object], body: Optional[list[ast.AST]]) -> str:
    """Schedule a node's fields (name, then value); return its token."""
    stack.append(_CLOSE)
    for name, value in reversed(_fields(node, body)):
        stack += [value, _Name(name)]
    stack.append(_OPEN)
    return type(node).__name__


def _tokens(root: ast.AST) -> list[str]:
    """The canonical rendering of the tree, iteratively: no depth limit."""
    out: list[str] = []
    stack: list[object] = [root]
    while stack:
        item = stack.pop()
        mark = _MARKS.get(id(item))
        if mark is not None:
            out.append(mark)
        elif isinstance(item, ast.AST):
            out.append(_push_node(item, stack, _without_docstring(root) if item is root else None))
        elif type(item) is list:
            stack += [_END, *reversed(item), _LIST]
        else:
            out.append(_leaf(item))
    return out


def _leaf(item: object) -> str:
    """A field name as it is; any other value in its ``ascii()`` form."""
    return str(item) if type(item) is _Name else ascii(item)


_AST = ast.AST
_JOINED = ast.JoinedStr
_SEP = "\x1f"
#: per node type, its opening tokens joined once ("Name", "(" as one string: the text hashed is the same)
#: and its hashed fields; plain dicts, never changed, because these are the hottest lookups of a run
_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {
    cls: (f"{cls.__name__}{_SEP}(", names) for cls, names in _FIELDS.items()}
#: the whole rendering of node types without fields (``Load``, ``Add``: a fifth of all nodes)
_BARE: dict[type, str] = {cls: f"{cls.__name__}{_SEP}({_SEP})" for cls, names in _FIELDS.items() if not names}


def _shape(cls: type) -> tuple[str, tuple[str, ...]]:
    """A node type that is not the ``ast`` module's own (a plugin's, a future Python's)."""
    return f"{cls.__name__}{_SEP}(", _hashed_fields(cls)


def _emit(node: ast.AST, out: list[str]) -> None:
    """The text of :func:`_tokens`, recursively, with fixed runs of tokens joined in advance: a
    quarter less time than rendering token by token (a test holds the two texts together)."""
    cls = type(node)
    head, names = _SHAPES.get(cls) or _shape(cls)
    out.append(head)
    for name in names:
        value = getattr(node, name, None)
        if type(value) is list:
            if value:
                _emit_list(cls, name, value, out)
        elif isinstance(value, _AST):
            out.append(name)
            _emit_node(value, out)
        elif value is not None:
            out += (name, ascii(value))
    out.append(")")


def _emit_node(node: ast.AST, out: list[str]) -> None:
    bare = _BARE.get(type(node))
    if bare is None:
        _emit(node, out)
    else:
        out.append(bare)


def _emit_list(cls: type, name: str, value: list[Any], out: list[str]) -> None:
    out += (name, "[")
    for item in _joined(value) if cls is _JOINED and name == "values" else value:
        if isinstance(item, _AST):
            _emit_node(item, out)
        else:
            _emit_value(item, out)
    out.append("]")


def _emit_value(value: object, out: list[str]) -> None:
    if isinstance(value, ast.AST):
        _emit_node(value, out)
    elif type(value) is list:
        out.append("[")
        for item in value:
            _emit_value(item, out)
        out.append("]")
    else:
        out.append(ascii(value))


def _text(root: ast.AST) -> str:
    """The canonical text of a unit: its body without the docstring."""
    out: list[str] = []
    shown = copy.copy(root)
    if hasattr(root, "body"):
        shown.body = _without_docstring(root)  # type: ignore[attr-defined]
    try:
        _emit(shown, out)
    except RecursionError:  # deeply nested code: the iterative rendering has no depth limit
        return _SEP.join(_tokens(root))
    return _SEP.join(out)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def unit_hash(node: ast.AST) -> str:
    """A hash of the node's code, independent of formatting, comments, position, docstring
    and of the Python version that parsed it.

    Every field is written with its name, so the flat rendering is unambiguous; it is
    hashed once. Deeply nested code falls back to an iterative rendering of the same
    tokens, so it cannot raise RecursionError.
    """
    return _digest(_text(node))


def _nameless(node: ast.AST) -> ast.AST:
    shown = copy.copy(node)
    if isinstance(shown, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        shown.name = ""
    return shown


def body_hash(node: ast.AST) -> str:
    """:func:`unit_hash` without the unit's own name: the same for a unit moved to another file or renamed,
    so a move can be told from new code (``history.lineage`` follows units by it)."""
    return _digest(body_text(node))


def body_text(node: ast.AST) -> str:
    """The canonical text :func:`body_hash` hashes: kept instead of a tree where many units are compared
    (a string is a fraction of a tree's memory)."""
    return _text(_nameless(node))


def text_hash(text: str) -> str:
    """:func:`body_hash` of a unit whose :func:`body_text` is ``text``."""
    return _digest(text)


def text_tokens(text: str) -> list[str]:
    """:func:`body_tokens` of a unit whose :func:`body_text` is ``text``."""
    return text.split(_SEP)


def unit_hashes(node: ast.AST) -> tuple[str, str]:
    """:func:`unit_hash` and :func:`body_hash` of a unit, rendered once: fields render in name order, so the
    unit's own name is the last ``name`` field (only ``returns`` comes after it, which holds no name of that
    kind; type parameters may, and such a unit is rendered twice)."""
    text = _text(node)
    name = getattr(node, "name", None)
    own = f"{_SEP}name{_SEP}{ascii(name)}"
    at = text.rfind(own)
    if not isinstance(name, str) or at < 0 or getattr(node, "type_params", None):
        return _digest(text), body_hash(node)
    return _digest(text), _digest(f"{text[:at]}{_SEP}name{_SEP}''{text[at + len(own):]}")


def body_tokens(node: ast.AST) -> list[str]:
    """The canonical tokens :func:`body_hash` hashes, to measure how alike two units are."""
    return _text(_nameless(node)).split(_SEP)


def value_version(rule_key: str, value: float) -> str:
    """The version of a file rule's violation: its rule and measured value, nothing else."""
    return _digest(f"value\x1f{rule_key}\x1f{ascii(float(value))}")
