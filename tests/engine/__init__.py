"""The engines held to the reference: each differential test runs on every engine (the C core and
the pure one) through the `engine` fixture of tests/conftest.py, or holds the C core's parts to the
pure modules, for the same output or the same error."""
