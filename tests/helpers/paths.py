"""Where the tests' files are, whatever folder a test module sits in: the repository, the data folders beside
the tests (``data``, ``golden``, ``faults``) and the example projects of ``fixtures/``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
DATA = TESTS / "data"
GOLDEN = TESTS / "golden"
FAULTS = TESTS / "faults"
FIXTURES = REPO / "fixtures"
