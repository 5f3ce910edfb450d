"""Built-in metrics, each an ordinary ``ladder`` plugin (see ``plugins.BUILTIN_PLUGINS``).

One module per metric family: ``cyclomatic`` (radon), ``cognitive`` (SonarSource),
``abc`` (RuboCop), ``size`` (lines, parameters, nesting, file length),
``assertions`` (test quality), and ``builtin_rules``, which contributes the rule
catalogue through the same hook third-party plugins use.

May import: the spine and ``analysis`` (the parsed source, its units, the fast
child walk). Must not import: ``history``, ``reports`` or a front end. Nothing
imports a metric module directly: the plugin host registers them by name.
"""
