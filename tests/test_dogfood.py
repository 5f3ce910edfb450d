"""The project's own code passes its own rules at the default thresholds (dogfooding)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_own_code_passes_flake8_select_lad():
    done = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "LAD", "--ladder-no-record", "src", "tests"],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert (done.returncode, done.stdout) == (0, ""), done.stdout + done.stderr
