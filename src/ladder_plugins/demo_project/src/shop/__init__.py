"""The ladder demo's example shop."""
