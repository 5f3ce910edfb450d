"""What the tests share: the demo project's three-step history (``reports``), real git repositories (``git``),
events and settings (``history``), the tracker's sources (``feedback``), a knowledge base (``kb``), the import
graph the layout test reads (``import_graph``), snippets, the standard library's units, and where the data
folders are (``paths``)."""
