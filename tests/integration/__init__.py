"""The real front ends, run whole: flake8 and pytest runs, the ``ladder`` command in subprocesses, git
repositories end to end, the loop an agent sees."""
