"""The managed rules block: the feedback that kept coming back, put in front of coding agents.

``block`` builds it (sections from hotspots, patterns, lessons and the tracker's items; merged,
ranked and cut to a budget); ``files`` writes it between its markers in the instruction
files agents load, checks it, and reads it back for the prompt hook.

May import: the spine, ``ladderdir``, ``history``, ``reports``, the tracker's ``model``,
``item``, ``promotion`` and ``state`` (its items are one of the block's inputs) and ``lessons``
(the lessons that recurred enough are another).
Must not import: the agent hooks (``agents``) or a front end (``cli``, ``flake8_plugin``,
``pytest_plugin``).
"""
