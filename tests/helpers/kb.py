"""A knowledge base built in a temporary directory: notes written field by field, so a test knows the line
of every key (``id`` is line 2, ``title`` line 3, ... in :data:`FIELDS` order), and a valid base to break."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ladder_plugins.catalogue import lint_rule
from ladder_plugins.worklog import kb

RAW = "20260303-143000-connection-pooling"
CURATED = "20260303-150000-pool-size-test"
ARCHIVED = "20260303-160000-polling-approach"

#: the fields of a note, in the reference's order: (key, YAML text)
FIELDS = (
    ("id", None),
    ("title", '"Connection pooling for DB access"'),
    ("status", None),
    ("domain", "code"),
    ("tags", "[topic/db-pooling, type/hypothesis]"),
    ("created", "2026-03-03T14:30:00"),
    ("updated", "2026-03-03T15:00:00"),
    ("links", "[]"),
    ("evidence", "[E1]"),
    ("confidence", "0.6"),
)

BODY = """
# Connection pooling

The pool keeps five connections.

## Evidence

- E1: [benchmark] method=locust_load_test fetched_at=2026-03-03T15:00
  metric=p99_latency value=45ms

## Links
"""

_STATUS = {"raw": "raw", "archive": "archived", "curated": "curated"}

REGISTERS = {
    "UNCERTAINTY-REGISTER": "| Item | Type (epistemic/aleatory) | Likelihood | Impact | Next Test |\n|---|---|---|---|---|\n",
    "GAP-REGISTER": "| Gap ID | Missing Data | Impact | Fallback | Confidence Penalty | Follow-up |\n"
                    "|---|---|---|---|---|---|\n| GAP-1 | pool size | low | 5 | 0.1 | test |\n",
}


def code(key: str) -> str:
    return lint_rule(key).code


def line_of(key: str) -> int:
    """The file line of ``key`` in a note :func:`note_text` writes with its default fields (a key of its own,
    the first added, right after them)."""
    names = [name for name, _ in FIELDS]
    return 2 + (names.index(key) if key in names else len(names))


def note_text(ident: str, folder: str, body: str = BODY, drop: tuple = (), **values: Optional[str]) -> str:
    """A note's text: :data:`FIELDS` with ``values`` put in (a key given ``None`` left out; new keys last)."""
    fields = dict(FIELDS, id=ident, status=_STATUS[folder])
    fields.update(values)
    lines = [f"{key}: {value}" for key, value in fields.items() if value is not None and key not in drop]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


def write(root: Path, rel: str, text: str) -> Path:
    path = root / "kb" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_note(root: Path, folder: str, ident: str, **values: Optional[str]) -> Path:
    return write(root, f"{folder}/{ident}.md", note_text(ident, folder, **values))


def register_text(name: str, tags: str = "[type/register]", table: Optional[str] = None) -> str:
    return f"---\ntags: {tags}\n---\n# {name}\n\n{REGISTERS[name] if table is None else table}"


def build_kb(root: Path, index: bool = True) -> Path:
    """A valid knowledge base: a raw and a curated note linking each other, an archived note, the registers,
    the index. Returns the ``kb`` folder."""
    write_note(root, "raw", RAW, links=f"[{CURATED}]")
    write_note(root, "curated", CURATED, title='"Pool size test"', tags="[topic/db-pooling, loop/3]",
               links=f'["[[{RAW}]]"]', decision_id="D1")
    write_note(root, "archive", ARCHIVED, title='"Polling approach"', tags="[type/hypothesis]", evidence=None,
               archived_reason='"polling missed updates under load"')
    for name in REGISTERS:
        write(root, f"curated/{name}.md", register_text(name))
    if index:
        kb.write_index(root)
    return root / "kb"


def checked(root: Path) -> list:
    """The problems of the base at ``root`` once its index is rewritten (so a broken note is not also a stale
    index)."""
    kb.write_index(root)
    return kb.check_kb(root)


def found(root: Path) -> list[tuple[str, str, int]]:
    """The problems of the base at ``root`` (index rewritten) as (code, path, line)."""
    return [(p.code, p.path, p.line) for p in checked(root)]


def messages(root: Path, key: str) -> list[str]:
    return [p.message for p in checked(root) if p.code == code(key)]


def loop(root: Path, rel: str) -> Path:
    """``kb/rel`` made a symlink to itself (what was there removed): examining it fails with ELOOP."""
    path = root / "kb" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    path.symlink_to(path.name)
    return path
