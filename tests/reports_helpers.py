"""Kept for the top-level tests that import it from here until they move: the helpers are ``tests/helpers/``."""

from tests.helpers.reports import FINAL, STEPS, demo_copy, ladder, three_edits

__all__ = ["FINAL", "STEPS", "demo_copy", "ladder", "three_edits"]
