"""What ``ladder worklog check`` and ``ladder kb check`` print: text, JSON, SARIF, GitHub commands.

Text is ``path:line:col: CODE message [rule key]`` per problem, the form editors and
problem matchers read, then the notes (where the skill's awk one-liner would disagree,
a mismatch a correction report acknowledges), then one verdict line. JSON is a
versioned contract (``"schema": "ladder-worklog", "version": 1``). Every value that
came from a file is cleaned here, the one place this output is built.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Sequence

from ..catalogue import WORKLOG_RULES, plural
from ..reports.sanitize import clean
from .model import Problem

__all__ = ["FORMATS", "render", "lint_text", "lint_json", "lint_sarif", "lint_github"]

FORMATS = ("text", "json", "sarif", "github")
_SCHEMA_VERSION = 1


def _line(p: Problem) -> str:
    return f"{clean(p.path)}:{p.line}:{p.col}: {p.code} {clean(p.message)} [{p.rule.key}]"


def _verdict(problems: Sequence[Problem], checked: Sequence[str], what: str) -> str:
    files = ", ".join(clean(c) for c in checked) or "nothing"
    if not problems:
        return f"passed: {what} {files}: no problems"
    codes = ", ".join(sorted({p.code for p in problems}))
    return f"failed: {what} {files}: {plural(len(problems), 'problem')} ({codes})"


def lint_text(problems: Sequence[Problem], notes: Sequence[Problem], checked: Sequence[str], what: str) -> str:
    lines = [_line(p) for p in problems]
    lines += [f"{clean(p.path)}:{p.line}:{p.col}: note: {clean(p.message)}" for p in notes]
    return "\n".join(lines + [_verdict(problems, checked, what)]) + "\n"


def _json(p: Problem) -> dict[str, Any]:
    return {"code": p.code, "rule": p.rule.key, "path": p.path, "line": p.line, "column": p.col,
            "message": p.message}


def lint_json(problems: Sequence[Problem], notes: Sequence[Problem], checked: Sequence[str], what: str) -> str:
    payload = {"schema": "ladder-worklog", "version": _SCHEMA_VERSION, "what": what, "passed": not problems,
               "checked": list(checked), "problems": [_json(p) for p in problems], "notes": [_json(n) for n in notes]}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _fingerprints(problems: Sequence[Problem]) -> list[str]:
    """Stable while reports are added on top, which moves every line and renumbers none: the code, the file,
    the flagged line's text (else the message), and which of several such problems it is."""
    seen: dict[tuple[str, str, str], int] = {}
    found = []
    for p in problems:
        key = (p.code, p.path, p.context or p.message)
        seen[key] = seen.get(key, 0) + 1
        text = "\0".join([*key, str(seen[key])])
        found.append(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return found


def lint_sarif(problems: Sequence[Problem], version: str) -> str:
    from ..reports.sarif import Finding, sarif_document, sarif_result

    listed = list(WORKLOG_RULES.values())
    index = {rule.code: i for i, rule in enumerate(listed)}
    results = [sarif_result(index, Finding(p.code, "error", p.message, p.path, p.line, mark))
               for p, mark in zip(problems, _fingerprints(problems))]
    return sarif_document(listed, results, version) + "\n"


def lint_github(problems: Sequence[Problem]) -> str:
    from ..reports.github import command

    lines = [command(p.path, p.line, f"{p.code} {p.rule.key}", p.message) for p in problems]
    return "\n".join(lines) + ("\n" if lines else "")


def render(fmt: str, problems: Sequence[Problem], notes: Sequence[Problem], checked: Sequence[str],
           what: str) -> str:
    """The output in ``fmt`` (one of :data:`FORMATS`); ``what`` names what was checked (``work log``)."""
    if fmt == "json":
        return lint_json(problems, notes, checked, what)
    if fmt == "sarif":
        from .. import __version__

        return lint_sarif(problems, __version__)
    if fmt == "github":
        return lint_github(problems)
    return lint_text(problems, notes, checked, what)
