"""The one place output is made safe: for a terminal, and for Markdown.

Paths, unit names and messages come from the code under analysis and from the
history, both untrusted: every report passes them through here.
"""

from __future__ import annotations

import re
from typing import Any, Optional

__all__ = ["clean", "md_escape"]

_CONTROL = {c: None for c in range(32) if c not in (9,)}
_CONTROL.update({0x7F: None})
_BIDI = {c: None for c in (0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)}
_ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])")


def clean(text: Optional[str]) -> str:
    """Strip ANSI sequences, control and bidi characters: a hostile name cannot rewrite a terminal."""
    if text is None:
        return ""
    return _ANSI.sub("", text).translate(_CONTROL).translate(_BIDI)


def md_escape(text: Any) -> str:
    """Safe inside a Markdown table cell or paragraph: no markup, no line breaks."""
    escaped = clean(str(text)).replace("\n", " ").replace("\r", " ")
    for char in "\\`*_[]<>|~":  # what can open markup or a cell inside a table cell
        escaped = escaped.replace(char, "\\" + char)
    return escaped
