"""Reading and parsing a source file once, and finding its units.

A unit is a module-level function or a method of a class at any depth of class
nesting (``Outer.Inner.method``); functions nested in a function belong to it. The
file is decoded as Python decodes it (BOM, PEP 263 cookie), parsed once with
``ast``; comments are read with ``tokenize`` only when the text could hold a
suppression or a pragma, because that is the only thing we need them for.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

from ..errors import SourceError

__all__ = ["Unit", "ParsedSource", "decode", "parse", "read_comments", "find_units", "header_lines", "FunctionNode"]

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Statements whose bodies still belong to the enclosing module or class scope.
_BLOCKS: tuple[type[ast.stmt], ...] = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)
if hasattr(ast, "TryStar"):  # Python 3.11+
    _BLOCKS = _BLOCKS + (ast.TryStar,)
if hasattr(ast, "Match"):  # Python 3.10+: definitions under a case are units, as radon finds them
    _BLOCKS = _BLOCKS + (ast.Match,)


@dataclass(frozen=True)
class Unit:
    """A function or method; ``key`` is the qualified name plus ``#n`` for duplicates."""

    name: str
    key: str
    node: FunctionNode = field(compare=False, repr=False)
    line: int
    end_line: int
    is_method: bool
    is_test: bool
    is_public: bool

    @property
    def short_name(self) -> str:
        return self.node.name


@dataclass(frozen=True)
class ParsedSource:
    """One parsed file: what every metric plugin receives."""

    path: str
    text: str
    lines: Sequence[str] = field(repr=False)
    tree: ast.Module = field(repr=False)
    role: str
    comments: Mapping[int, str] = field(repr=False)
    units: tuple[Unit, ...] = ()
    #: scratch space for plugins: a fact about the whole file (say, which units recurse) worked out
    #: once per file, not once per unit; keys are the plugin's own (``"cognitive.recursive"``)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: the run's effective settings (a metric's own options, such as ``assertion_helpers``)
    settings: Any = field(default=None, repr=False, compare=False)


def decode(data: bytes, path: str) -> str:
    """Bytes to text as the interpreter would read them; bad input is a :class:`SourceError`."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise SourceError(f"{path}:{line}: contains a NUL byte; not a Python source file")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(
            f"{path}: cannot be decoded: {getattr(exc, 'msg', exc)}; save it as UTF-8 "
            "or declare its encoding (PEP 263)"
        ) from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = data[: getattr(exc, "start", 0)].count(b"\n") + 1
        raise SourceError(
            f"{path}:{line}: cannot be decoded as {encoding}: {exc}; save it as UTF-8 "
            "or declare its encoding (PEP 263)"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


_NEWLINE = re.compile(r"\r\n|\r|\n")
#: where ``str.splitlines`` splits and the tokenizer does not
_OTHER_BREAKS = ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def split_lines(text: str) -> list[str]:
    """Lines as Python's tokenizer (and so ``ast``'s line numbers) counts them.

    ``str.splitlines`` also splits at form feeds, ``\\x1c``-``\\x1e``, U+0085,
    U+2028 and U+2029, which the tokenizer treats as ordinary characters; one of
    those before a unit would shift every later unit's lines.
    """
    if not any(char in text for char in _OTHER_BREAKS):  # nearly every file: str's own split, five times faster
        return text.splitlines()
    lines = _NEWLINE.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def parse(text: str, path: str) -> ast.Module:
    """Parse once; syntax errors and parser limits become a :class:`SourceError`.

    The compiler's warnings about the code (``SyntaxWarning: invalid escape sequence``,
    ``'int' object is not callable``) are the interpreter's to give when it runs the
    file, not a linter's stray stderr lines: they are silenced here.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)  # invalid escapes before Python 3.12
            return ast.parse(text, filename=path)
    except SyntaxError as exc:
        where = f"{path}:{exc.lineno}" if exc.lineno else path
        raise SourceError(f"{where}: syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise SourceError(
            f"{path}: too deeply nested for the Python parser; split the expression or block"
        ) from None
    except ValueError as exc:
        raise SourceError(f"{path}: {exc}") from None


def header_lines(tree: ast.Module) -> int:
    """Last line of the module header (before the first statement that is not a docstring): where a file-level
    suppression may sit."""
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return (body[0].lineno - 1) if body else 10**9


def read_comments(text: str, tokens: Optional[Iterable[Any]] = None) -> Mapping[int, str]:
    """Comment text by line number, only when the text may hold a directive for us; ``tokens``: the
    file's tokens where a host already has them (flake8's ``file_tokens``), so it is not tokenized twice."""
    lowered = text.lower()
    if "noqa" not in lowered and "ladder:" not in lowered:
        return MappingProxyType({})
    comments: dict[int, str] = {}
    try:
        # newline=None: lines end at CR too, as the parser counts them (a CR-only file is not one line)
        for tok in tokenize.generate_tokens(io.StringIO(text, newline=None).readline) if tokens is None else tokens:
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # the file parsed, so this is an unterminated construct at EOF: keep what we have
    return MappingProxyType(comments)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_is_private(path: str) -> bool:
    parts = path.split("/")
    parts[-1] = parts[-1][:-3] if parts[-1].endswith(".py") else parts[-1]
    return any(_is_private(part) for part in parts)


def _is_test_class(node: ast.ClassDef) -> bool:
    if node.name.startswith("Test"):
        return True
    for base in node.bases:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        if name.endswith("TestCase"):
            return True
    return False


def _scope_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a module or class body, looking into if/try/with/for blocks."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, _BLOCKS):
            inner: list[ast.stmt] = []
            for name in ("body", "orelse", "finalbody"):
                inner.extend(getattr(node, name, ()))
            for part in list(getattr(node, "handlers", ())) + list(getattr(node, "cases", ())):
                inner.extend(part.body)
            stack.extend(reversed(inner))
        else:
            yield node


@dataclass(frozen=True)
class _Scope:
    """Where a definition sits: enclosing classes, and what they imply."""

    classes: tuple[str, ...] = ()
    in_test_class: bool = False
    private: bool = False

    def enter(self, node: ast.ClassDef) -> "_Scope":
        is_test = _is_test_class(node) and (not self.classes or self.in_test_class)
        return _Scope(self.classes + (node.name,), is_test, self.private or _is_private(node.name))


def _definitions(tree: ast.Module, module_private: bool) -> list[tuple[FunctionNode, _Scope]]:
    """Every unit-level function with its scope, in source order (classes at any depth)."""
    found: list[tuple[FunctionNode, _Scope]] = []
    stack: list[tuple[_Scope, Sequence[ast.stmt]]] = [(_Scope(private=module_private), tree.body)]
    while stack:
        scope, body = stack.pop()
        for node in _scope_statements(body):
            if isinstance(node, ast.ClassDef):
                stack.append((scope.enter(node), node.body))
            elif isinstance(node, _FUNCTIONS):
                found.append((node, scope))
    return sorted(found, key=lambda item: (item[0].lineno, item[0].col_offset))


def _is_test(node: FunctionNode, scope: _Scope, qualname: str, role: str,
             test_names: Optional[frozenset[str]]) -> bool:
    if test_names is not None:
        return qualname in test_names
    in_test_scope = not scope.classes or scope.in_test_class
    return role == "test" and node.name.startswith("test") and in_test_scope


def find_units(
    tree: ast.Module, path: str, role: str, test_names: Optional[frozenset[str]] = None
) -> tuple[Unit, ...]:
    """All units in source order, with stable ``#n`` keys for repeated qualified names.

    ``test_names`` (qualified names) overrides which units are tests, for front ends
    that know what the test runner collects; otherwise a test-role file's tests are
    found the way pytest finds them by default (``test*`` functions, ``test*``
    methods of ``Test*`` classes or ``TestCase`` subclasses).
    """
    seen: dict[str, int] = {}
    units = []
    for node, scope in _definitions(tree, _module_is_private(path)):
        qualname = ".".join(scope.classes + (node.name,))
        seen[qualname] = seen.get(qualname, 0) + 1
        key = qualname if seen[qualname] == 1 else f"{qualname}#{seen[qualname]}"
        units.append(_unit(node, scope, qualname, key, _is_test(node, scope, qualname, role, test_names)))
    return tuple(units)


def _unit(node: FunctionNode, scope: _Scope, qualname: str, key: str, is_test: bool) -> Unit:
    end = getattr(node, "end_lineno", None) or node.lineno
    public = not (scope.private or _is_private(node.name))
    return Unit(qualname, key, node, node.lineno, end, bool(scope.classes), is_test, public)
