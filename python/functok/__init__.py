"""functok: the Functionalizer format's reference implementation."""

SPEC_VERSION = "1.0.0"
__version__ = "0.1.0"
