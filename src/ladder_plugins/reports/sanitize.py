"""The one place output is made safe: for a terminal, for Markdown, and inside a TOML string.

Paths, unit names and messages come from the code under analysis and from the
history, both untrusted: every report passes them through here.
"""

from __future__ import annotations

import re
from typing import Any, Optional

__all__ = ["clean", "md_escape", "toml_string"]

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


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly: quotes, backslashes and control characters escaped
    (a directory name cannot end the string and add keys of its own); a lone surrogate (a name that was
    not UTF-8) becomes U+FFFD, which TOML can hold."""
    out = []
    for char in text:
        code = ord(char)
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\uFFFD")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
