"""An agent host's settings file as data: TOML, JSON, or JSON with comments (Gemini CLI's).

The tracker's hooks source reads these files to find hook commands and the installer and
``ladder doctor`` read them to find ours; both parse them here, the same way. The installer and
doctor read the file's text here too: a regular file of a few MiB at most, UTF-8 (a BOM dropped).
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Optional, Tuple

from ..errors import LadderError

__all__ = ["read_text", "uncomment_json", "parse_settings"]

#: the largest settings file read
MAX_BYTES = 4 << 20

#: a JSON string (kept whole, even unterminated at a line's end) or a comment (blanked)
_JSON_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*(?:"|(?=\n)|\Z)|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S)


def uncomment_json(text: str) -> str:
    """JSON with ``//`` and ``/* */`` comments (Gemini CLI strips them) as JSON; lines and columns kept."""

    def blank(match: "re.Match[str]") -> str:
        token = match.group(0)
        return token if token.startswith('"') else re.sub(r"[^\n]", " ", token)

    return _JSON_TOKEN.sub(blank, text)


def parse_settings(text: str, form: str) -> Tuple[object, Optional[str]]:
    """The data of a settings file in ``form`` (``toml``, ``json`` or ``jsonc``), or why it cannot
    be read (with line and column when known)."""
    if form == "toml":
        from ..config import toml_loads

        try:
            return toml_loads(text), None
        except ValueError as exc:
            return None, f"not valid TOML ({exc})"
        except RecursionError:
            return None, "not valid TOML (nested too deeply)"
    try:
        return json.loads(uncomment_json(text) if form == "jsonc" else text), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    except (ValueError, RecursionError):
        return None, "not valid JSON (nested too deeply)"


def read_text(path: Path) -> Optional[str]:
    """The text of ``path``, ``None`` when it does not exist; a file that cannot be used is an error."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LadderError(f"{path}: cannot be read ({exc.strerror or exc}); nothing changed") from None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        raise LadderError(f"{path}: not a regular settings file of at most {MAX_BYTES >> 20} MiB; nothing changed")
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LadderError(f"{path}: not UTF-8 (byte {exc.start}); nothing changed") from None
    except OSError as exc:
        raise LadderError(f"{path}: cannot be read ({exc.strerror or exc}); nothing changed") from None
