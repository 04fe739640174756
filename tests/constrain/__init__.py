"""Constrained decoding: the masks against the strict decoder, the generation loops, and the
grammar files for guided decoding (torch's own generate is in integrations/)."""
