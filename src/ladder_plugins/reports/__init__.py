"""Reports: what people and CI read.

``ladder metrics`` (``metrics``), ``ladder check`` as text, JSON and Markdown
(``check``) and SARIF (``sarif``), ``ladder summary`` (``summary``), the agent
brief (``brief``), recommendations (``recommend``), the HTML page (``html``), rule
explanations (``explain``) and the ``ladder`` section of pytest's terminal summary
(``session``). Everything that came from source code or the history is made safe
in one place (``sanitize``).

May import: the spine, ``analysis``, ``history``. Must not import: a front end.
Reports turn results into text; they never compute a metric or decide the gate.
"""
