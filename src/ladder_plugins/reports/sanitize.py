"""The one place output is made safe: for a terminal, for Markdown, inside a TOML string, and as data for an agent.

Paths, unit names and messages come from the code under analysis and from the
history, both untrusted: every report passes them through here.
"""

from __future__ import annotations

import re
from typing import Any, Optional

__all__ = ["clean", "agent_data", "md_escape", "toml_string", "printable", "SURROGATE"]

#: C0 (tab kept), DEL, C1 (U+0085 NEL and U+009B, the 8-bit CSI, among them), and the Unicode line and
#: paragraph separators, which terminals, editors and models take as line breaks
_CONTROL = {c: None for c in (*range(32), *range(0x7F, 0xA0), 0x2028, 0x2029) if c != 9}
_BIDI = {c: None for c in (0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)}
#: 7-bit CSI, OSC (ended by BEL or ST) and two-byte escapes, and their 8-bit forms (CSI U+009B, OSC U+009D,
#: ST U+009C): removed whole, so no parameter text of a sequence is left behind
_ANSI = re.compile(r"(\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(\x1b\]|\x9d)[^\x07\x1b\x9c]*(\x07|\x1b\\|\x9c)?"
                   r"|\x1b[@-Z\\-_]")
#: a word an agent's host or model reads as a speaker when it opens a line (``SYSTEM:``, ``**Assistant**:``);
#: a backslash in front is the escape itself, so escaping twice changes nothing
_ROLE = re.compile(r"[^\w\\]*(system|user|assistant|human|developer|model|tool|ai)[^\w:]{0,3}:", re.IGNORECASE)
_AGENT_ESCAPES = {ord("<"): "\u2039", ord(">"): "\u203a"}
#: a lone surrogate: a name that was not UTF-8 (from the file system), or a "\\ud800" escape read from JSON
SURROGATE = re.compile("[\ud800-\udfff]")


def clean(text: Optional[str]) -> str:
    """Strip ANSI sequences (7- and 8-bit), C0 and C1 control characters (tab kept), line and paragraph
    separators and bidi controls: a hostile name cannot rewrite a terminal or add a line to it."""
    if text is None:
        return ""
    return _ANSI.sub("", text).translate(_CONTROL).translate(_BIDI)


def agent_data(text: Optional[str]) -> str:
    """An untrusted value (a path, a unit name, a line of a file) made safe to put in an agent's context as data.

    :func:`clean`, then every kind of line break and run of white space one space (the value is one line and
    cannot start another), ``<``/``>`` as ``‹``/``›`` (it cannot close or open a tag such as
    ``</system-reminder>`` or an HTML comment), a lone surrogate U+FFFD, and a value that opens with a
    speaker's word (``SYSTEM:``) escaped with a backslash, as the rules block escapes a line that would read
    as its structure."""
    if text is None:
        return ""
    line = " ".join(clean(" ".join(text.split())).split()).translate(_AGENT_ESCAPES)
    line = SURROGATE.sub("\ufffd", line)  # a name that was not UTF-8: no host's JSON parser chokes on it
    return "\\" + line if _ROLE.match(line) else line


def md_escape(text: Any) -> str:
    """Safe inside a Markdown table cell or paragraph: no markup, no line breaks."""
    escaped = clean(str(text)).replace("\n", " ").replace("\r", " ")
    for char in "\\`*_[]<>|~":  # what can open markup or a cell inside a table cell
        escaped = escaped.replace(char, "\\" + char)
    return escaped


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
#: what a TOML string holds as ``\uXXXX``: what :func:`clean` removes, so a printed snippet shows none of it raw
_TOML_UNICODE = frozenset(_CONTROL) | frozenset(_BIDI)


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly: quotes, backslashes, control characters, line separators
    and bidi controls escaped (a directory name cannot end the string and add keys of its own, nor reach a
    terminal raw when the snippet is printed); a lone surrogate (a name that was
    not UTF-8) becomes U+FFFD, which TOML can hold."""
    out = []
    for char in text:
        code = ord(char)
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif code in _TOML_UNICODE:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\uFFFD")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def printable(text: str) -> str:
    """``text`` as valid UTF-8: a name that is not UTF-8 (lone surrogates, from the file system) with its
    bytes written ``\\xff``, so no message or output fails on it."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no file system name gives
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
