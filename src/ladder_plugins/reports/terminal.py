"""Colour for a terminal, decided as pytest decides it, and added after the text is made safe.

``NO_COLOR`` (any non-empty value) turns colour off, then ``FORCE_COLOR`` (any non-empty value) turns it on,
``TERM=dumb`` off; otherwise colour only when the stream is a terminal. A file given
with ``--output`` or a pipe gets plain text. The codes are added around text that
:mod:`.sanitize` already cleaned, so a hostile name cannot bring codes of its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, Mapping, Optional

__all__ = ["Style", "wants_colour", "PLAIN"]

_CODES = {"red": "31", "yellow": "33", "green": "32", "bold": "1", "dim": "2", "bold-red": "1;31"}


def wants_colour(stream: Optional[IO[str]], environ: Optional[Mapping[str, str]] = None) -> bool:
    """Whether text written to ``stream`` should be coloured."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb" or stream is None:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream: plain
        return False


@dataclass(frozen=True)
class Style:
    """Paints already-cleaned text, or leaves it as it is."""

    colour: bool = False

    def paint(self, text: str, name: str) -> str:
        return f"\x1b[{_CODES[name]}m{text}\x1b[0m" if self.colour and text else text


PLAIN = Style(False)
