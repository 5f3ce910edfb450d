"""Kept for the top-level tests that import it from here until they move: the helpers are ``tests/helpers/``."""

from tests.helpers.git import DAYS, NOW, PYPROJECT, clone, commit, needs_git, nested, new_repo, three_days

__all__ = ["DAYS", "NOW", "PYPROJECT", "clone", "commit", "needs_git", "nested", "new_repo", "three_days"]
