"""Properties over generated programs and data (hypothesis), and equality with a reference over the running
Python's standard library."""
