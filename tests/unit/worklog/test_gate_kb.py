"""Issue 33: the FAIL gate (``--final``) reads the knowledge base as the skill's §3.1 and §12 do: every key
decision (a note's ``decision_id: D#``) has linked E# entries, each with ``fetched_at`` and ``method``; a knowledge
base with only the two registers has no decision and fails; and the gate fails whenever the knowledge base's own
check (``ladder kb check``) does."""

from __future__ import annotations

import shutil
from pathlib import Path

from ladder_plugins.worklog.lint import check_file
from ladder_plugins.worklog.notes import REGISTERS

from tests.helpers import paths
from tests.helpers.kb import CURATED, RAW, build_kb, note_text, register_text, write, write_note
from ladder_plugins.worklog import kb as kb_module

VALID_FULL = paths.DATA / "worklog" / "valid_full.md"


def gate(kb: Path, shown: str = "kb") -> list[str]:
    result = check_file(VALID_FULL, "work-log.md", final=True, kb_dir=kb, kb_shown=shown)
    return [p.message for p in result.problems if p.rule.key == "worklog_fail_gate"]


def notes(kb: Path) -> list[str]:
    return [n.message for n in check_file(VALID_FULL, "work-log.md", final=True, kb_dir=kb, kb_shown="kb").notes
            if n.rule.key == "worklog_fail_gate"]


def registers_only(root: Path) -> Path:
    """A knowledge base that passes its own check and holds nothing but the two registers."""
    for folder in ("raw", "archive", "curated"):
        (root / "kb" / folder).mkdir(parents=True, exist_ok=True)
    for name in REGISTERS:
        write(root, f"curated/{name}.md", register_text(name))
    kb_module.write_index(root)
    assert kb_module.check_kb(root) == []
    return root / "kb"


def test_a_valid_knowledge_base_with_a_mapped_decision_passes(tmp_path):
    assert gate(build_kb(tmp_path)) == []


def test_a_knowledge_base_with_only_the_registers_has_no_decision_and_fails(tmp_path):
    assert gate(registers_only(tmp_path)) == [
        "FAIL gate: no key decision in kb: no note has a decision_id (D#) with linked evidence (E# entries, each "
        "with fetched_at and method, in its ## Evidence section; the skill's §3.1)"]


def test_a_decision_without_evidence_entries_fails_and_names_its_note(tmp_path):
    root = tmp_path
    build_kb(root)
    write_note(root, "raw", "20260303-170000-push-model", title='"Push instead of pull"', evidence=None,
               decision_id="D2", body="\n# Push model\n\nNo evidence yet.\n")
    kb_module.write_index(root)
    messages = gate(root / "kb")
    assert messages == ["FAIL gate: key decisions without linked evidence (§3.1): D2 "
                        "(kb/raw/20260303-170000-push-model.md: no E# entry in its ## Evidence section)"]


def test_an_entry_without_method_leaves_its_decision_unmapped_and_fails_the_kb_check_too(tmp_path):
    root = tmp_path
    build_kb(root)
    path = root / "kb" / "curated" / f"{CURATED}.md"
    path.write_text(path.read_text().replace("method=locust_load_test ", ""))
    messages = gate(root / "kb")
    assert any("D1 (kb/curated/" in m and "E1 has no method" in m for m in messages), messages
    assert any(m.startswith("FAIL gate: the knowledge base kb fails its own check ('ladder kb check'): 1 problem "
                            "(LAD326)") for m in messages), messages


def test_the_gate_fails_whenever_kb_check_does(tmp_path):
    """The case of the issue: '--final --kb kb' passed while 'ladder kb check' on the same tree failed."""
    root = tmp_path
    build_kb(root)
    (root / "kb" / "raw" / f"{RAW}.md").write_text(note_text(RAW, "raw", links="[nowhere]"))
    kb_module.write_index(root)
    assert kb_module.check_kb(root) != []
    messages = gate(root / "kb")
    assert len(messages) == 1 and "fails its own check" in messages[0] and "LAD325" in messages[0], messages
    assert "kb/raw/20260303-143000-connection-pooling.md:" in messages[0]


def test_decisions_named_in_the_log_but_in_no_note_are_a_note(tmp_path):
    said = notes(build_kb(tmp_path))
    assert said == ["FAIL gate: D2, D3, D4 are named in the work log (first at lines 40, 47, 33) but no note of kb "
                    "carries them as decision_id; the skill maps every key decision to evidence (§3.1)"]


def test_a_missing_knowledge_base_is_one_item_not_a_cascade(tmp_path):
    messages = gate(tmp_path / "nowhere")
    assert len(messages) == 3, messages  # the two registers, and the knowledge base's own check
    assert not any("key decision" in m for m in messages)


def test_the_kb_items_name_the_knowledge_base_as_shown(tmp_path):
    kb = registers_only(tmp_path / "made")
    shutil.move(str(kb), str(tmp_path / "elsewhere"))
    assert gate(tmp_path / "elsewhere", "../elsewhere")[0].startswith("FAIL gate: no key decision in ../elsewhere:")
