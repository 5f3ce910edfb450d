"""The libcst half of ``ladder suppress``: a lossless rewrite adding ignore comments.

Imported only by :mod:`.suppress` when the command runs; nothing on a lint or test
run imports libcst.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

__all__ = ["rewrite"]

CommentMaker = Callable[[Optional[str], list[str]], str]


class _AddIgnore(cst.CSTTransformer):
    """Adds (or extends) the comment on each target unit's signature line, or in the header."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, targets: dict[int, list[str]], comment: CommentMaker) -> None:
        super().__init__()
        self.targets = targets
        self.comment = comment

    def _trailing(self, ws: Any, keys: list[str]) -> Any:
        text = self.comment(ws.comment.value if ws.comment else None, keys)
        spacing = ws.whitespace if ws.comment else cst.SimpleWhitespace("  ")
        return ws.with_changes(whitespace=spacing, comment=cst.Comment(text))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        # The name token is always on the def line, whatever the decorators above it.
        keys = self.targets.get(self.get_metadata(PositionProvider, original.name).start.line)
        if not keys:
            return updated
        body = updated.body
        if isinstance(body, cst.IndentedBlock):
            return updated.with_changes(body=body.with_changes(header=self._trailing(body.header, keys)))
        return updated.with_changes(body=body.with_changes(trailing_whitespace=self._trailing(
            body.trailing_whitespace, keys)))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        keys = self.targets.get(0)
        if not keys:
            return updated
        line = cst.EmptyLine(comment=cst.Comment(self.comment(None, keys)))
        return updated.with_changes(header=[*updated.header, line])


def rewrite(source: bytes, targets: dict[int, list[str]], comment: CommentMaker) -> bytes:
    """``source`` with comments added at ``targets`` (def line -> rule keys; 0 = the file)."""
    module = cst.parse_module(source)
    return MetadataWrapper(module).visit(_AddIgnore(targets, comment)).bytes
