"""The agent hooks: a front door, beside the flake8 and pytest plugins, for coding agents' hosts.

``prompt_hook`` (``ladder hook prompt``) gives the rules block as context and captures a
user's dissatisfaction (``classify``, ``captures``); ``edit_hook`` (``ladder hook
post-edit``) says at once when an edit leaves a known violation unfixed (``edit_findings``,
counted per session in ``edit_session``); ``install`` merges our hook entries into a host's
settings (the commands in ``commands``, the text in ``merge``), and ``installed`` says which
hosts run them. What a host is (its names, settings paths, payload fields, output shapes) is
read from the one table of hosts, ``ladder_plugins.hosts``.

May import: every layer below the front doors (the spine, ``ladderdir``, ``readers``,
``analysis``, ``history``, ``reports``, ``tracker``, ``rules_block``).
Must not import: another front end (``cli``, ``flake8_plugin``, ``pytest_plugin``); ``cli``
imports it, not the other way round.
"""
