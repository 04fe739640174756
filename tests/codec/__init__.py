"""The codec: encode and decode against the spec, the splitters, NFC, the Unicode tables, the
opcodes and grammar, profiles and versions (the pure reference; engine/ holds every engine to it)."""
