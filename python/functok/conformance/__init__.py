"""The conformance runner: checks an implementation of the Functionalizer format against
conformance/vectors.

- :func:`handle` answers one protocol message with the reference implementation (pure; also
  the core of ``functok conformance-server`` and usable under Pyodide);
- :func:`run_suite` runs vectors through a transport and returns a :class:`Report`;
- :func:`load_suite` reads the vector files; :func:`suite_from_documents` takes parsed ones.

``functok conformance`` and ``python -m functok.conformance`` are the command line.
"""

from .handler import PROTOCOL_VERSION as PROTOCOL_VERSION
from .handler import handle as handle
from .runner import Report as Report
from .runner import run_suite as run_suite
from .transport import InProcessTransport as InProcessTransport
from .vectors import load_suite as load_suite
from .vectors import suite_from_documents as suite_from_documents

__all__ = ["PROTOCOL_VERSION", "InProcessTransport", "Report", "handle", "load_suite", "run_suite",
           "suite_from_documents"]
