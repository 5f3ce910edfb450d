"""``reports.sarif``: SARIF 2.1.0 for GitHub code scanning, written from an analysis and a gate outcome built in
the test: the rules listed with the gate's last, each result under its rule's index, URIs relative and
percent-encoded, our fingerprint under a versioned key."""

from __future__ import annotations

import json

import jsonschema
import pytest

from ladder_plugins.catalogue import GATE, RULES
from ladder_plugins.reports.sarif import FINGERPRINT_KEY, Finding, check_sarif, sarif_document, sarif_result

from tests.helpers.paths import DATA
from tests.unit.reports.outcomes import analysed, hotspot, outcome

SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())


def _run(tmp_path, *failures, path="src/m.py"):
    _, result = analysed(tmp_path, path=path)
    doc = json.loads(check_sarif(result, outcome(*failures), list(RULES.values()), "9.8.7"))
    jsonschema.validate(doc, SCHEMA)
    return doc["runs"][0]


def test_the_document_is_valid_sarif_naming_the_tool_and_version(tmp_path):
    run = _run(tmp_path, hotspot())
    assert run["tool"]["driver"]["name"] == "ladder-plugins"
    assert run["tool"]["driver"]["version"] == "9.8.7"
    assert run["columnKind"] == "utf16CodeUnits"


def test_the_gate_rule_is_listed_once_and_last(tmp_path):
    ids = [r["id"] for r in _run(tmp_path)["tool"]["driver"]["rules"]]
    assert ids[-1] == GATE.code
    assert ids.count(GATE.code) == 1
    assert set(ids) == set(RULES)


def test_a_rule_has_help_and_a_name_from_its_key(tmp_path):
    rules = {r["id"]: r for r in _run(tmp_path)["tool"]["driver"]["rules"]}
    cyclomatic = rules["LAD101"]
    assert cyclomatic["name"] == "CyclomaticMax"
    assert cyclomatic["properties"]["ladder_key"] == "cyclomatic_max"
    assert cyclomatic["helpUri"].startswith("https://radon.readthedocs.io/")
    assert cyclomatic["help"]["markdown"].startswith("**LAD101 `cyclomatic_max`**: ")


def test_each_finding_is_a_result_at_its_rule_index(tmp_path):
    run = _run(tmp_path, hotspot())
    rules = run["tool"]["driver"]["rules"]
    got = [(r["ruleId"], r["level"], rules[r["ruleIndex"]]["id"]) for r in run["results"]]
    assert got == [("LAD101", "error", "LAD101"), ("LAD102", "note", "LAD102"), ("LAD105", "error", "LAD105"),
                   ("LAD900", "error", "LAD900")]
    gate = run["results"][-1]
    assert gate["partialFingerprints"] == {FINGERPRINT_KEY: "src/m.py::f::cyclomatic_max::gate"}
    assert gate["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert gate["message"]["text"].startswith("LAD900 'f': recurring hotspot")


def test_a_path_that_is_not_utf8_is_percent_encoded_from_its_bytes(tmp_path):
    name = b"src/caf\xe9 x.py".decode("utf-8", "surrogateescape")
    run = _run(tmp_path, path=name)
    where = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "src/caf%E9%20x.py", "uriBaseId": "%SRCROOT%"}


def test_sarif_result_puts_line_zero_at_line_one():
    found = Finding("LAD101", "warning", "text", "a.py", 0, "fp")
    result = sarif_result({"LAD101": 4}, found)
    assert result["ruleIndex"] == 4
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    assert result["level"] == "warning"


def test_sarif_result_of_a_code_not_listed_is_a_key_error():
    with pytest.raises(KeyError, match="LAD999"):
        sarif_result({}, Finding("LAD999", "error", "t", "a.py", 1, "fp"))


def test_sarif_document_with_no_results():
    doc = json.loads(sarif_document([GATE], [], "1"))
    jsonschema.validate(doc, SCHEMA)
    assert doc["version"] == "2.1.0" and doc["runs"][0]["results"] == []
    assert [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]] == [GATE.code]
