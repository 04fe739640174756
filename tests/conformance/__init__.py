"""The conformance suite: the vectors' lint, the runner in-process, and the protocol against
programs that speak it."""
