"""The tracker's sources: where feedback is found, one module per place, each an ordinary plugin.

Level 1: ``memory`` (Claude Code's memory files of type feedback) and ``journal`` (notes and
the prompt hook's captures); level 2: ``docs`` (instruction and rules files); level 3:
``hooks`` (the hook commands agent hosts run); level 4: ``enforced`` (what the project's
tools enforce) and ``hotspots`` (ladder's own recurring hotspots and patterns).

May import: the spine, ``ladderdir``, ``readers``, ``history`` and the tracker's own
``model``, ``files``, ``keywords`` and ``topics``.
Must not import: the tracker's ``scan``, ``state``, ``render`` or ``service`` (a source
finds; it does not decide), ``rules_block``, ``agents`` or a front end.
"""
