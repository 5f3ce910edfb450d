"""Loading the plugins costs nothing: no analysis, radon or libcst until a run needs them."""

from __future__ import annotations

import json
import subprocess
import sys


def test_plugin_entry_points_import_nothing_heavy():
    probe = (
        "import sys, json, pytest\n"
        "import ladder_plugins.pytest_plugin, ladder_plugins.flake8_plugin\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('radon', 'libcst', 'filelock', 'ladder_plugins'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert loaded == ["ladder_plugins", "ladder_plugins.flake8_plugin", "ladder_plugins.pytest_plugin"]


def test_public_api_is_importable_lazily():
    import ladder_plugins

    assert set(ladder_plugins.__all__) >= {"analyze_source", "load_settings", "hookimpl", "Rule", "Analyzer"}
    assert ladder_plugins.analyze_source.__module__ == "ladder_plugins.analysis.analyzer"
