"""The ``ladder`` command run as a real process: the one runner of the tests that need a process of its own
(its exit, its environment, a console script found as a shell finds it). In this process: the
``ladder_in_process`` fixture of ``tests/conftest.py``; both give a ``subprocess.CompletedProcess``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def ladder(args, cwd, **env) -> subprocess.CompletedProcess:
    """The real console script (its directory is the interpreter's), in a subprocess."""
    script = shutil.which("ladder", path=os.path.dirname(sys.executable)) or shutil.which("ladder")
    return subprocess.run([script, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})
