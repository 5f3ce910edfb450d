"""The pluggy host: built-ins are plugins, third-party plugins add metrics and rules."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from ladder_plugins import hookimpl
from ladder_plugins.analysis.analyzer import Analyzer
from ladder_plugins.catalogue import Rule
from ladder_plugins.config import load_settings
from ladder_plugins.errors import LadderError
from ladder_plugins.plugins import BUILTIN_PLUGINS, make_plugin_manager, rules_of

RETURNS = Rule(
    code="XRT100",
    key="returns_max",
    family="complexity",
    scope="unit",
    metric="returns",
    kind="max",
    what="number of return statements",
    summary="Return statements in a function.",
    reference="https://example.invalid/returns",
    defaults={"app": 2, "test": 2, "library": 2, "script": 2, "generated": 2, "vendor": 2},
    source="external-plugin",
)


class ReturnsPlugin:
    @hookimpl
    def ladder_rules(self):
        return [RETURNS]

    @hookimpl
    def ladder_unit_metrics(self, unit, source):
        import ast

        return {"returns": sum(isinstance(n, ast.Return) for n in ast.walk(unit.node))}


def test_builtins_are_registered_plugins():
    pm = make_plugin_manager(entry_points=False)
    names = {pm.get_name(p) for p in pm.get_plugins()}
    assert set(BUILTIN_PLUGINS) <= names
    assert {r.code for r in rules_of(pm)} >= {"LAD101", "LAD102", "LAD103", "LAD108", "LAD900"}


def test_external_metric_produces_external_violations(tmp_path):
    pm = make_plugin_manager([ReturnsPlugin()], entry_points=False)
    (tmp_path / "pyproject.toml").write_text("[tool.ladder.thresholds]\nreturns_max = 2\n")
    settings = load_settings(tmp_path, rules={r.key: r for r in rules_of(pm)})
    code = "def f(a):\n    if a == 1:\n        return 1\n    if a == 2:\n        return 2\n    return 3\n"
    report = Analyzer(settings, pm).source(code, "m.py")
    assert report.units[0].metrics["returns"] == 3
    (violation,) = [v for v in report.violations if v.code == "XRT100"]
    assert violation.rule.source == "external-plugin"
    assert violation.text == "XRT100 number of return statements of 'f' is 3 (> 2)"


def test_plugin_threshold_key_is_unknown_without_the_plugin(tmp_path):
    from ladder_plugins.errors import ConfigError

    (tmp_path / "pyproject.toml").write_text("[tool.ladder.thresholds]\nreturns_max = 2\n")
    pm = make_plugin_manager(entry_points=False)
    with pytest.raises(ConfigError, match="returns_max.*unknown key"):
        load_settings(tmp_path, rules={r.key: r for r in rules_of(pm)})


def test_clashing_rule_codes_are_refused():
    class Clash:
        @hookimpl
        def ladder_rules(self):
            return [Rule("LAD102", "other", "x", "unit", "m", "max", "x", "x", "x")]

    with pytest.raises(LadderError, match="LAD102"):
        make_plugin_manager([Clash()], entry_points=False)


def test_hookspecs_are_documented():
    from ladder_plugins import hookspecs

    for name in dir(hookspecs.LadderSpec):
        if name.startswith("ladder_"):
            doc = getattr(hookspecs.LadderSpec, name).__doc__
            assert doc and ":return:" in doc, name


def test_entry_point_plugin_is_loaded(pytester, monkeypatch):
    """A plugin distributed under the ``ladder`` entry-point group is picked up."""
    from importlib import metadata

    pytester.makepyfile(
        ladder_returns_plugin="""
        from ladder_plugins import hookimpl
        from ladder_plugins.catalogue import Rule
        RULE = Rule("XRT200", "ep_returns_max", "complexity", "unit", "ep_returns", "max",
                    "returns", "s", "r", {"app": 0}, source="external-plugin")
        @hookimpl
        def ladder_rules():
            return [RULE]
        @hookimpl
        def ladder_unit_metrics(unit, source):
            return {"ep_returns": 1}
        """
    )
    dist = pytester.path / "ladder_returns_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ladder-returns-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ladder]\nreturns = ladder_returns_plugin\n")
    monkeypatch.syspath_prepend(str(pytester.path))
    assert any(ep.name == "returns" for ep in metadata.entry_points(group="ladder"))
    pm = make_plugin_manager()
    assert "XRT200" in {r.code for r in rules_of(pm)}


class _GcWatcher:
    def __init__(self):
        self.seen = []

    @hookimpl
    def ladder_unit_metrics(self, unit, source):
        self.seen.append(gc.isenabled())
        return {}


@pytest.mark.parametrize("host_enabled", [True, False])
def test_gc_is_paused_while_a_file_is_analysed_and_the_hosts_state_restored(settings, host_enabled):
    watcher = _GcWatcher()
    analyzer = Analyzer(settings, make_plugin_manager([watcher], entry_points=False))
    was = gc.isenabled()
    (gc.enable if host_enabled else gc.disable)()
    try:
        analyzer.source("def f():\n    return 1\n", "m.py")
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert watcher.seen == [False] and after is host_enabled


def _dist(root, name, entry_points, suffix=".dist-info"):
    dist = root / f"{name}-1.0{suffix}"
    dist.mkdir()
    (dist / "entry_points.txt").write_bytes(entry_points)
    return dist


@pytest.mark.parametrize("layout, expected", [
    ("none", False), ("other sections", False), ("dist-info", True), ("egg-info with spaces and CRLF", True),
    ("zip on the path", True), ("egg on the path", True)])
def test_the_cheap_scan_never_misses_a_declared_plugin(tmp_path, monkeypatch, layout, expected):
    from ladder_plugins.plugins import declared_anywhere

    _dist(tmp_path, "unrelated", b"[console_scripts]\nladder = ladder_plugins.cli.main:main\n[ladderx]\na = b\n")
    if layout == "dist-info":
        _dist(tmp_path, "plugin", b"[flake8.extension]\nX = x\n\n[ladder]\nreturns = x\n")
    elif layout.startswith("egg-info"):
        _dist(tmp_path, "plugin", b"[ ladder ]\r\nreturns = x\r\n", ".egg-info")
    elif layout == "egg on the path":
        (tmp_path / "old-1.0.egg").mkdir()
    path = [str(tmp_path), str(tmp_path / "absent")]
    if layout == "zip on the path":
        (tmp_path / "bundle.zip").write_bytes(b"PK")
        path.append(str(tmp_path / "bundle.zip"))
    monkeypatch.setattr(sys, "path", path)
    assert declared_anywhere("ladder") is expected


def test_another_distribution_finder_leaves_the_decision_to_pluggy(monkeypatch):
    from ladder_plugins.plugins import declared_anywhere

    class Finder:
        @staticmethod
        def find_distributions(context=None):
            return iter(())

    monkeypatch.setattr(sys, "path", [])
    assert declared_anywhere("ladder") is False
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert declared_anywhere("ladder") is True


def test_without_any_plugin_importlib_metadata_is_not_loaded(tmp_path):
    probe = ("import sys\nfrom ladder_plugins.plugins import make_plugin_manager\nmake_plugin_manager()\n"
             "print('importlib.metadata' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout.strip() == str(_plugins_installed())  # loaded only where a plugin is declared


def _plugins_installed() -> bool:
    from importlib import metadata

    return bool(list(metadata.entry_points(group="ladder")))
