"""Built-in metrics, each an ordinary ``ladder`` plugin (see ``plugins.BUILTIN_PLUGINS``)."""
