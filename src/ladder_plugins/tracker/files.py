"""Reading the files the sources look at: inside the project root (or the memory directory) only, of a sane
size, decoded, with one warning for anything else. Everything read here is untrusted input."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Optional

from ..ladderdir.paths import inside
from .model import SourceContext

__all__ = ["read_source", "identity_of", "relative"]


def relative(path: Path, base: Path) -> str:
    """``path`` as a POSIX path relative to ``base`` (or as it is, outside it)."""
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def identity_of(rel: str, text: str) -> str:
    """``<path>#<sha256 of the text>``: the same words in the same file are one sighting."""
    return f"{rel}#{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"


def _refusal(path: Path, base: Path, max_bytes: int) -> Optional[str]:
    """Why ``path`` is not read (``""``: it does not exist, nothing to say), or ``None`` to read it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not inside(path, base):
        return f"leads outside {base} (a symlink), never followed"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > max_bytes:
        return f"{info.st_size} bytes, more than the {max_bytes} a source reads"
    return None


def read_source(path: Path, context: SourceContext, base: Optional[Path] = None) -> Optional[str]:
    """The text of ``path``, or ``None`` (said once through ``context.warn``) when it is missing (silently),
    leads outside ``base`` (default: the project root) through a symlink, is not a regular file, is
    bigger than ``context.max_bytes`` or is not UTF-8."""
    rel = relative(path, context.root)
    refusal = _refusal(path, (base or context.root).resolve(), context.max_bytes)
    if refusal is not None:
        if refusal:
            context.warn(f"{rel}: {refusal}; skipped")
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read(context.max_bytes + 1)
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        context.warn(f"{rel}: not UTF-8 (byte {exc.start}); skipped")
    except OSError as exc:
        context.warn(f"{rel}: cannot be read ({exc.strerror or exc}); skipped")
    return None
