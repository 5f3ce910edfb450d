"""Built-in metrics, each an ordinary ``ladder`` plugin (see ``plugins.BUILTIN_PLUGINS``).

One module per metric family: ``cyclomatic`` (radon's rules), ``cognitive``
(SonarSource), ``abc`` (RuboCop), ``size`` (lines, parameters, nesting, file length),
``assertions`` (test quality), ``maintainability`` (radon's MI, an optional file
rule), and ``builtin_rules``, which contributes the rule catalogue through the same
hook third-party plugins use. The per-unit counts of the first four families come
from one walk per unit (``traversal``, with the construct rules in ``constructs``),
shared through the parsed file's memo.

May import: the spine and ``analysis`` (the parsed source, its units, the field
tables). Must not import: ``history``, ``reports`` or a front end. Nothing outside
this package imports a metric module directly: the plugin host registers them by name.
"""
