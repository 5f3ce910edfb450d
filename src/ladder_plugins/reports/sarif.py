"""``ladder check --format sarif``: SARIF 2.1.0 for GitHub code scanning.

Rule metadata carries help text and a help URI, rule ids are the stable LAD codes,
locations are URIs relative to the project root (``%SRCROOT%``), and each result
carries our fingerprint under the versioned key ``ladderFingerprint/v1`` in
``partialFingerprints`` so code scanning tracks a violation across line moves.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Sequence
from urllib.parse import quote

from ..analysis.report import AnalysisResult
from ..catalogue import GATE, Rule

__all__ = ["check_sarif", "sarif_document", "sarif_result", "Finding", "FINGERPRINT_KEY"]

FINGERPRINT_KEY = "ladderFingerprint/v1"
_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"red": "error", "yellow": "note"}
_HOME = "https://pypi.org/project/ladder-plugins/"


def _rule_json(rule: Rule) -> dict[str, Any]:
    help_text = f"{rule.summary} Definition: {rule.reference}"
    return {
        "id": rule.code,
        "name": "".join(part.capitalize() for part in rule.key.split("_")),
        "shortDescription": {"text": rule.what},
        "fullDescription": {"text": rule.summary},
        "help": {"text": help_text, "markdown": f"**{rule.code} `{rule.key}`**: {rule.summary}"},
        "helpUri": rule.reference if rule.reference.startswith("http") else _HOME,
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": [rule.family], "ladder_key": rule.key},
    }


def _location(path: str, line: int) -> dict[str, Any]:
    # a name that is not UTF-8 carries lone surrogates: percent-encode its original bytes
    uri = quote(path.encode("utf-8", "surrogateescape"))
    return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                 "region": {"startLine": max(line, 1)}}}


class Finding(NamedTuple):
    """What a SARIF result says: code, level (error, warning, note), text, where, and its fingerprint."""

    code: str
    level: str
    text: str
    path: str
    line: int
    fingerprint: str


def sarif_result(rule_index: dict[str, int], f: Finding) -> dict[str, Any]:
    """One result: a finding at its file and line, under its rule's index, with its stable fingerprint."""
    return {
        "ruleId": f.code, "ruleIndex": rule_index[f.code], "level": f.level, "message": {"text": f.text},
        "locations": [_location(f.path, f.line)], "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
    }


def _findings(result: AnalysisResult, outcome: Any) -> list[Finding]:
    found = [Finding(v.code, _LEVEL.get(v.severity, "warning"), v.text, v.path, v.line, v.fingerprint)
             for v in result.violations]
    return found + [Finding(f.code, "error", f.text, f.event.path, f.event.line, f"{f.event.fingerprint}::gate")
                    for f in outcome.gate.failures]


def _results(result: AnalysisResult, outcome: Any, index: dict[str, int]) -> list[dict[str, Any]]:
    return [sarif_result(index, finding) for finding in _findings(result, outcome)]


def check_sarif(result: AnalysisResult, outcome: Any, rules: Sequence[Rule], version: str) -> str:
    listed = [r for r in rules if r.code != GATE.code] + [GATE]
    index = {rule.code: i for i, rule in enumerate(listed)}
    return sarif_document(listed, _results(result, outcome, index), version)


def sarif_document(listed: Sequence[Rule], results: list[dict[str, Any]], version: str) -> str:
    """The SARIF log of one run of ours: the rules it can report (``ruleIndex`` is a place in ``listed``) and
    its results."""
    run = {
        "tool": {"driver": {"name": "ladder-plugins", "version": version, "informationUri": _HOME,
                            "rules": [_rule_json(r) for r in listed]}},
        "results": results,
        "columnKind": "utf16CodeUnits",
    }
    return json.dumps({"$schema": _SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2)
