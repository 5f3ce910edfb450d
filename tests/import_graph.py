"""Kept for the top-level tests that import it from here until they move: the helpers are ``tests/helpers/``."""

from tests.helpers.import_graph import Layer, build_graph, find_cycles, layer_of, private_imports, upward_imports

__all__ = ["Layer", "build_graph", "find_cycles", "layer_of", "private_imports", "upward_imports"]
