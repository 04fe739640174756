"""Reading files and streams in chunks cut where the format allows, so memory stays flat.

Encoding chunk by chunk equals encoding the whole text when every cut falls on a position
that is a piece boundary of the whole text and across which NFC cannot act. Two kinds of
position qualify, and real text is full of both:

* just after a line feed that is followed by a non-space character: the piece holding the line
  feed ends there (no alternative of either splitter continues a line feed with anything but
  CR/LF), and nothing composes with a line feed;
* just before a space that follows a printable ASCII character and precedes an ASCII letter:
  the space starts the piece `` word`` and no piece runs from a non-space into a space.

A stream (for decoding) may be cut just before a group whose previous code point is ordinary
text: each group reads only the text after it. A text with neither kind of position (one giant
word, one giant group-free line) is held whole: that is the documented cost of a giant piece.
"""

from __future__ import annotations

import codecs
import re
from typing import BinaryIO, Iterable, Iterator

CHUNK_BYTES = 1 << 20

_TEXT_CUT = re.compile(r"\n(?=\S)|(?<=[!-~])(?= [A-Za-z])")
_STREAM_CUT = re.compile("(?<=[^\ue000-\uefff])(?=[\ue000-\ueffe])")


class InputError(Exception):
    """Input that is not text: invalid UTF-8, with the byte offset where it goes wrong."""


def read_utf8(binary: BinaryIO, name: str, chunk_bytes: int = CHUNK_BYTES) -> Iterator[str]:
    """Decode a binary stream as strict UTF-8, block by block.

    An invalid byte raises :class:`InputError` naming ``name`` and the absolute byte offset.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    consumed = 0  # bytes handed to the decoder so far
    while True:
        block = binary.read(chunk_bytes)
        pending = len(decoder.getstate()[0])
        try:
            text = decoder.decode(block, final=not block)
        except UnicodeDecodeError as error:
            offset = consumed - pending + error.start
            raise InputError(f"{name}: invalid UTF-8 at byte {offset} "
                             f"({error.object[error.start:error.start + 4]!r})") from None
        consumed += len(block)
        if text:
            yield text
        if not block:
            return


def _cut_chunks(texts: Iterable[str], cut: re.Pattern) -> Iterator[tuple[int, str]]:
    """Regroup ``texts`` into (offset, chunk) pairs cut at the last ``cut`` match of a buffer."""
    buffer = ""
    offset = 0
    for text in texts:
        buffer += text
        position = _last_cut(buffer, cut)
        if position > 0:
            yield offset, buffer[:position]
            offset += position
            buffer = buffer[position:]
    if buffer:
        yield offset, buffer


def _last_cut(buffer: str, cut: re.Pattern) -> int:
    """The position of the last match of ``cut`` in ``buffer`` (0 if none)."""
    window = 1 << 16
    while True:
        start = max(0, len(buffer) - window)
        last = 0
        for match in cut.finditer(buffer, start):
            last = match.end() if match.group() else match.start()
        if last or start == 0:
            return last
        window *= 4


def text_chunks(texts: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(offset, chunk) pairs of text whose encodings concatenate to the whole text's encoding."""
    return _cut_chunks(texts, _TEXT_CUT)


def stream_chunks(texts: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(offset, chunk) pairs of an op stream whose decodings concatenate to the whole's."""
    return _cut_chunks(texts, _STREAM_CUT)
