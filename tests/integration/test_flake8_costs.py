"""What the cold ``flake8 --select LAD`` run pays for beyond the parse, kept at its source: the same results,
the work done once per file or per process instead of once per unit or per call."""

from __future__ import annotations

import ast
import dataclasses
import json
import textwrap

from ladder_plugins.analysis.source import split_lines
from ladder_plugins.history.events import Event
from ladder_plugins.history.store import HistoryStore
from ladder_plugins.metrics.size import code_line_counts, function_lines

from tests.helpers.history import at, make_event, project_settings


def test_an_event_is_written_as_every_field_with_the_empty_actor_left_out():
    event = dataclasses.replace(make_event(unit_hash="v1", actual=12.5), actor_id="agent-7", delta=None)
    expected = {field.name: getattr(event, field.name) for field in dataclasses.fields(Event)}
    del expected["actor_type"]
    assert json.loads(event.to_json()) == expected
    assert list(json.loads(event.to_json())) == list(expected)  # the order of the fields, as before


def test_file_by_file_appends_check_and_make_the_directory_once(tmp_path, monkeypatch):
    store = HistoryStore(project_settings(tmp_path))
    checks = []
    real = HistoryStore.ensure_dir
    monkeypatch.setattr(HistoryStore, "ensure_dir", lambda self: checks.append(1) or real(self))
    for n in range(3):
        assert store.append_events([make_event(f"src/m{n}.py::f::abc_max", when=at(0))], now=at(0)) == 1
    assert len(checks) == 1
    assert len(store.read_log(0).events) == 3


def test_file_by_file_appends_still_prune_at_the_size_cap(tmp_path):
    """The log's first record is read once (it was within retention), but its size is read after every append:
    a process that appends past the cap prunes."""
    settings = project_settings(tmp_path, "[tool.ladder.history]\nmax_mb = 0.01\n")
    store = HistoryStore(settings)
    for n in range(60):
        day = n // 2
        batch = [make_event(f"src/m{n}.py::f{i}::abc_max", unit_hash=f"v{n}", when=at(day)) for i in range(3)]
        assert store.append_events(batch, now=at(day)) == 3
    assert store.folded()[1] > 0, "the cap never forced a prune"
    assert store.load().aggregate.events == 60 * 3


def test_body_lines_from_the_file_s_counts_are_the_unit_s_own():
    code = textwrap.dedent('''\
        def f():
            """Doc."""
            x = 1

            # a comment
            s = """
        # inside a string

        """
            return x, s


        class C:
            def m(self):
                if self:  # trailing
                    return 1
                # only a comment
                return 2
        ''')
    lines = split_lines(code)
    counts = code_line_counts(lines)
    nodes = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.FunctionDef)]
    assert [function_lines(n, lines, counts) for n in nodes] == [function_lines(n, lines) for n in nodes] == [6, 3]


def test_lines_split_where_the_tokenizer_splits_them_with_or_without_other_breaks():
    plain = "def f():\r\n    return 1\rx = 2\n\n"
    assert split_lines(plain) == ["def f():", "    return 1", "x = 2", ""]
    for other in ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"):
        assert split_lines(f"a = 1  # {other}\nb = 2\n") == [f"a = 1  # {other}", "b = 2"]
