"""``ladder suppress``: write ``# ladder: ignore[rule] reason`` where violations are.

What teams do with ``ruff --add-noqa`` when adopting a linter on legacy code. The
comment goes on the unit's signature (the line with its colon: for a one-line
signature, the ``def`` line) or, for file rules, into the module header. libcst
rewrites the source losslessly, so formatting and existing comments are kept
exactly; an existing comment is extended, never replaced. A recurring hotspot is not
suppressed without ``--force``: that is the feedback that keeps coming back.
libcst is imported here only, never on a lint or test run.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from .errors import LadderError

__all__ = ["SuppressPlan", "plan_suppressions", "apply_suppressions", "check_reason"]

_IGNORE = re.compile(r"ladder:\s*ignore\[([^\]]*)\]")


@dataclass
class SuppressPlan:
    """Per file: def line (0 for the file) -> rule keys to ignore; and what was refused."""

    targets: dict[str, dict[int, list[str]]]
    refused: list[str]


def check_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason or "\n" in reason or "\r" in reason or re.search(r"\s#\s", reason):
        raise LadderError("--reason must be one line of text without ' # ' (that would start another comment)")
    return reason


def plan_suppressions(result: Any, hotspot_prints: set[str], rule: Optional[Any], force: bool) -> SuppressPlan:
    plan = SuppressPlan({}, [])
    for v in result.violations:
        if v.severity != "red" or v.rule.kind == "meta" or (rule is not None and v.rule.key != rule.key):
            continue
        if v.fingerprint in hotspot_prints and not force:
            plan.refused.append(f"{v.path}:{v.line}: {v.rule.key} of '{v.unit}' is a recurring hotspot; "
                                "refactor it, or pass --force to suppress it anyway")
            continue
        lines = plan.targets.setdefault(v.path, {})
        keys = lines.setdefault(v.line if v.unit else 0, [])
        if v.rule.key not in keys:
            keys.append(v.rule.key)
    return plan


def _comment_text(existing: Optional[str], keys: Sequence[str], reason: str) -> str:
    if existing and _IGNORE.search(existing):
        def merge(match: re.Match) -> str:
            names = [n.strip() for n in match.group(1).split(",") if n.strip()]
            return f"ladder: ignore[{', '.join(names + [k for k in keys if k not in names])}]"
        return _IGNORE.sub(merge, existing, count=1)
    new = f"# ladder: ignore[{', '.join(keys)}] {reason}"
    return f"{existing}  {new}" if existing else new


def _transformer(targets: dict[int, list[str]], reason: str) -> Any:
    import libcst as cst
    from libcst.metadata import PositionProvider

    class AddIgnore(cst.CSTTransformer):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def _trailing(self, ws: Any, keys: list[str]) -> Any:
            text = _comment_text(ws.comment.value if ws.comment else None, keys, reason)
            spacing = ws.whitespace if ws.comment else cst.SimpleWhitespace("  ")
            return ws.with_changes(whitespace=spacing, comment=cst.Comment(text))

        def leave_FunctionDef(self, original: Any, updated: Any) -> Any:
            keys = targets.get(self.get_metadata(PositionProvider, original.name).start.line)
            if not keys:
                return updated
            body = updated.body
            if isinstance(body, cst.IndentedBlock):
                return updated.with_changes(body=body.with_changes(header=self._trailing(body.header, keys)))
            return updated.with_changes(body=body.with_changes(
                trailing_whitespace=self._trailing(body.trailing_whitespace, keys)))

        def leave_Module(self, original: Any, updated: Any) -> Any:
            keys = targets.get(0)
            if not keys:
                return updated
            line = cst.EmptyLine(comment=cst.Comment(_comment_text(None, keys, reason)))
            return updated.with_changes(header=[*updated.header, line])

    return AddIgnore()


def rewrite(source: bytes, targets: dict[int, list[str]], reason: str) -> bytes:
    import libcst as cst
    from libcst.metadata import MetadataWrapper

    module = cst.parse_module(source)
    return MetadataWrapper(module).visit(_transformer(targets, reason)).bytes


def apply_suppressions(plan: SuppressPlan, root: Path, reason: str, *, dry_run: bool) -> list[str]:
    """Rewrite (or, with ``dry_run``, diff) each file; returns the diff lines or the files written."""
    out: list[str] = []
    for rel, targets in sorted(plan.targets.items()):
        path = root / rel
        before = path.read_bytes()
        after = rewrite(before, targets, reason)
        if after == before:
            continue
        if dry_run:
            out += difflib.unified_diff(before.decode("utf-8", "replace").splitlines(True),
                                        after.decode("utf-8", "replace").splitlines(True), f"a/{rel}", f"b/{rel}")
        else:
            path.write_bytes(after)
            out.append(f"suppressed {sum(len(k) for k in targets.values())} violation(s) in {rel}\n")
    return out
