"""Readers of untrusted text that several parts share: YAML front matter, an agent host's stdin.

``frontmatter`` reads the ``---`` block at the top of a Markdown file with PyYAML's safe
loader (the tracker's memory and docs sources, the work-log lint); ``stdin`` reads a hook's
payload with a deadline, so a host that never closes its stdin cannot hold a prompt, and says where the
host works; ``settings`` parses a host's settings file (TOML, JSON, JSON with comments).

May import: the spine (``errors``, ``config``'s TOML reader, the table of ``hosts``) and the standard library
(and PyYAML).
Must not import: any other part of the package.
"""
