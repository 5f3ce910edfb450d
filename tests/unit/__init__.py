"""The test of a module: ``unit/<part>/test_<module>.py``, one folder per subpackage of ``ladder_plugins``
(``spine`` for the top-level modules: catalogue, config, plugins, hosts)."""
