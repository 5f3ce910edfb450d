"""Kept for the top-level tests that import it from here until they move: the helpers are ``tests/helpers/``."""

from tests.helpers.kb import RAW, build_kb

__all__ = ["RAW", "build_kb"]
