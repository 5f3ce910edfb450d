"""The per-metric walks as they were before the fused traversal: the reference the new one is held to."""
