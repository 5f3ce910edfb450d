"""The libcst half of ``ladder suppress``: where the ignore comments go, spliced into the file as it is.

libcst finds each target unit's signature line (the line of its colon, or of a
one-line body) and the module header; the comments are then written into the
original text line by line, so every other byte stays exactly as it was. (libcst's
own rendering drops a form feed at the start of a file and the last CR of a CR-only
file.) Imported only by :mod:`.suppress` when the command runs; nothing on a lint or
test run imports libcst.
"""

from __future__ import annotations

import codecs
import re
from typing import Callable, Optional, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

__all__ = ["rewrite"]

CommentMaker = Callable[[Optional[str], list[str]], str]
#: (the signature's last line, the comment already there or None, rule keys, the def line)
Edit = tuple[int, Optional[str], list[str], int]
_NEWLINES = re.compile(r"(\r\n|\r|\n)")


class _Signatures(cst.CSTVisitor):
    """Collects, for each target unit, the line that takes its comment and the comment already there."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, targets: dict[int, list[str]]) -> None:
        super().__init__()
        self.targets = targets
        self.edits: list[Edit] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # The name token is always on the def line, whatever the decorators above it.
        first = self.get_metadata(PositionProvider, node.name).start.line
        keys = self.targets.get(first)
        if not keys:
            return
        body = node.body
        # a suite is indented or on the def line (libcst has these two)
        trailing = body.header if isinstance(body, cst.IndentedBlock) \
            else cast(cst.SimpleStatementSuite, body).trailing_whitespace
        line = self.get_metadata(PositionProvider, trailing).start.line
        self.edits.append((line, trailing.comment.value if trailing.comment else None, keys, first))


def _commented(content: str, existing: Optional[str], keys: list[str], comment: CommentMaker) -> str:
    """One line with its trailing comment extended (or a new one added after two spaces)."""
    text = comment(existing, keys)
    if existing and content.endswith(existing):
        return content[:len(content) - len(existing)] + text
    return content.rstrip(" \t") + "  " + text


def _lines(source: bytes, encoding: str) -> tuple[bytes, str, list[list[str]]]:
    """The BOM (kept as bytes), the encoding of the rest, and each line as [content, its own line ending]
    (CR LF, CR, LF, or none at the end)."""
    bom = codecs.BOM_UTF8 if source.startswith(codecs.BOM_UTF8) else b""
    encoding = "utf-8" if bom else encoding
    parts = _NEWLINES.split(source[len(bom):].decode(encoding))
    return bom, encoding, [[parts[i], parts[i + 1] if i + 1 < len(parts) else ""] for i in range(0, len(parts), 2)]


def rewrite(source: bytes, targets: dict[int, list[str]], comment: CommentMaker,
            limit: Optional[int] = None) -> tuple[bytes, list[int]]:
    """``source`` with comments added at ``targets`` (def line -> rule keys; 0 = the file), and the lines
    left longer than ``limit`` (the project's line length) because no signature line had room."""
    module = cst.parse_module(source)
    found = _Signatures(targets)
    MetadataWrapper(module).visit(found)
    return _spliced(source, module, found.edits, (targets, comment), limit)


def _commented_lines(lines: list[list[str]]) -> set[int]:
    """Line numbers (1-based) that already hold a comment, as the tokenizer reads them."""
    import io
    import tokenize

    text = "".join(content + newline for content, newline in lines)
    try:
        # newline=None: lines end at CR too, as ``lines`` has them (a CR-only file is not one line)
        return {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text, newline=None).readline)
                if tok.type == tokenize.COMMENT}
    except (tokenize.TokenError, SyntaxError):
        return set(range(1, len(lines) + 1))  # cannot tell: no line is free


def _placed(lines: list[list[str]], edit: Edit, comment: CommentMaker, limit: Optional[int],
            taken: set[int]) -> Optional[int]:
    """Write one unit's comment: on the signature's last line, or, where that line would pass ``limit``,
    on the first earlier signature line with room and no comment, or else with its rule list wrapped over
    the signature's free lines (each part an ignore of its own, with the reason). Returns a line left
    too long."""
    line, existing, keys, first = edit
    new = _commented(lines[line - 1][0], existing, keys, comment)
    if limit is None or len(new) <= limit:
        lines[line - 1][0] = new
        return None
    parts = None if existing else _spread(lines, keys, comment, range(first, line + 1), (limit, taken))
    if parts is None:
        lines[line - 1][0] = new
        return line
    for number, part in parts.items():
        lines[number - 1][0] = lines[number - 1][0].rstrip(" \t") + "  " + comment(None, part)
    return None


def _spread(lines: list[list[str]], keys: list[str], comment: CommentMaker, candidates: range,
            bounds: tuple[int, set[int]]) -> Optional[dict[int, list[str]]]:
    """Rule keys by the candidate line that takes them, the fewest lines first: all on the first free line
    with room for them all, else as many as fit on each free line in turn; ``None`` if some fit nowhere."""
    free = _free(lines, candidates, bounds)
    whole = next((n for n, room in free if len(comment(None, keys)) <= room), None)
    if whole is not None:
        return {whole: list(keys)}
    rest = list(keys)
    parts = {number: _fill(rest, room, comment) for number, room in free}
    return {n: part for n, part in parts.items() if part} if not rest else None


def _free(lines: list[list[str]], candidates: range, bounds: tuple[int, set[int]]) -> list[tuple[int, int]]:
    """The candidate lines without a comment, each with the room a comment has on it within the limit."""
    limit, taken = bounds
    return [(n, limit - len(lines[n - 1][0].rstrip(" \t")) - 2) for n in candidates if n not in taken]


def _fill(rest: list[str], room: int, comment: CommentMaker) -> list[str]:
    """As many of ``rest`` (taken from it) as a comment within ``room`` holds."""
    part: list[str] = []
    while rest and len(comment(None, part + rest[:1])) <= room:
        part.append(rest.pop(0))
    return part


def _spliced(source: bytes, module: cst.Module, edits: list[Edit],
             wanted: tuple[dict[int, list[str]], CommentMaker], limit: Optional[int]) -> tuple[bytes, list[int]]:
    targets, comment = wanted
    bom, encoding, lines = _lines(source, module.encoding)
    taken = _commented_lines(lines) if limit is not None else set()
    long = [line for edit in edits if (line := _placed(lines, edit, comment, limit, taken)) is not None]
    if targets.get(0):  # after the comments and blank lines that open the file
        lines.insert(len(module.header), [comment(None, targets[0]), module.default_newline])
    return bom + "".join(content + newline for content, newline in lines).encode(encoding), long
