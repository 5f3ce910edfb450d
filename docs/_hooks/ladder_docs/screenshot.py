"""A screenshot of ``ladder report --html``, made at build time by headless Chromium.

The history is the demo's (``ladder demo``'s three checks over two days, in a temporary copy); the page is
rendered by the real ``ladder report`` command and photographed by Chromium's own command line, as
``tests/unit/reports/test_html.py`` does. Where no Chromium is installed, there is no picture and the page says why.
It runs in a thread from the start of the build, so it costs the build little of its wall time, and once a
process: the rebuilds of ``mkdocs serve`` reuse the first build's picture (restart it to see a changed report).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Optional

BROWSERS = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
NOW = "2026-11-03T12:00:00Z"  # after the demo's last check, as tests/helpers/reports.py's FINAL


_shared: list["Screenshot"] = []


def shared() -> "Screenshot":
    """The process's one screenshot, started at the first call."""
    if not _shared:
        _shared.append(Screenshot())
    return _shared[0]


class Screenshot:
    """Started at once; :meth:`result` waits for the PNG's bytes, or gives the reason there are none."""

    def __init__(self) -> None:
        self.png: Optional[bytes] = None
        self.reason = ""
        #: whether the picture was attempted and failed (not merely impossible: no Chromium)
        self.failed = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def result(self) -> tuple[Optional[bytes], str]:
        self._thread.join(timeout=120)
        if self.png is None and not self.reason:
            self.failed, self.reason = True, "the screenshot took longer than 120 s"
        return self.png, self.reason

    def _run(self) -> None:
        browser = next(filter(None, map(shutil.which, BROWSERS)), None)
        if browser is None:
            self.reason = "no Chromium was installed where this site was built (/usr/bin/chromium, or chromium on PATH)"
            return
        work = Path(tempfile.mkdtemp(prefix="ladder-docs-shot-"))
        try:
            self.png = _shoot(browser, work)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            self.failed, self.reason = True, f"the screenshot could not be made: {exc}"
        finally:
            shutil.rmtree(work, ignore_errors=True)


def _shoot(browser: str, work: Path) -> bytes:
    from ladder_plugins.cli.demo import run_demo

    said: list[str] = []
    run_demo(echo=said.append, keep=True)  # the first thing it says is where its copy is
    project = Path(said[0].rsplit(" in ", 1)[1].strip())
    try:
        page, shot = work / "report.html", work / "report.png"
        done = subprocess.run([sys.executable, "-m", "ladder_plugins", "report", "--html", str(page)], cwd=project,
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "LADDER_NOW": NOW, "LADDER_NO_CACHE": "1"})
        if done.returncode != 0:
            raise ValueError(f"ladder report failed: {done.stderr.strip()}")
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={work / 'profile'}",
                        f"--screenshot={shot}", "--window-size=1100,1050", "--hide-scrollbars",
                        "--force-device-scale-factor=1", page.as_uri()], capture_output=True, timeout=60, check=True)
        return shot.read_bytes()
    finally:
        shutil.rmtree(project.parent, ignore_errors=True)
