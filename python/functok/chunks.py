"""Reading files and streams in chunks cut where the format allows, so memory stays flat.

Encoding chunk by chunk equals encoding the whole text when every cut falls on a position
that is a piece boundary of the whole text and across which NFC cannot act. Two kinds of
position qualify, and real text is full of both:

* just after a line feed that is followed by a non-space character: the piece holding the line
  feed ends there (no alternative of either splitter continues a line feed with anything but
  CR/LF), and nothing composes with a line feed;
* just before a space that follows a printable ASCII character and precedes an ASCII letter:
  the space starts the piece `` word`` and no piece runs from a non-space into a space.

A text with neither (one giant word) is held whole: that is the documented cost of a giant piece.

A stream (for decoding) is ``text0 (group text)*`` (spec 7.1), and may be cut between two slots
where no group can tell the difference:

* just before a group: each group reads only the text after it;
* anywhere in text0, which no group reads;
* in the text of a group, once the cut is past the group's reach: every position argument is at
  most 255 (spec 2), so a group whose text keeps its first 256 slots in the chunk applies exactly
  as it would to the whole text, and the slots after them are copied unchanged.

The third kind has one exception. The output limit of a repeat counts every slot of its group's
text, however far (spec 7.8), so a cut in the text of a group holding a repeat changes what the
limit sees. That is what a limit per chunk means (the CLI's default); for a limit over the whole
output, ``stream_chunks(past_repeats=False)`` cuts such a text only at the next group.

Each block is scanned once, and the text since the last cut is kept as a list of blocks joined
once per chunk: time is linear, and memory is a block plus the longest stretch without a cut.
"""

from __future__ import annotations

import codecs
import re
from typing import BinaryIO, Callable, Iterable, Iterator

from .grammar import GROUP, REPEAT_OPCODE, group_end, text_end
from .opcodes import ESCAPE_CHAR, MAX_ARGUMENT

CHUNK_BYTES = 1 << 20

_TEXT_CUT = re.compile(r"\n(?=\S)|(?<=[!-~])(?= [A-Za-z])")
_TEXT_CUT_CONTEXT = 2  # a text cut at p is decided by the code points p-1, p and p+1
# The last cut or group of a block is searched in the block's last code points first: real
# text has one every few code points. (Any value gives the same chunks; this one is fast.)
SEARCH_SPAN = 1 << 12

# A cut this many code points into a group's text keeps the group's first 256 slots before it
# (a slot is one code point, or two for an escape pair).
_GROUP_REACH = 2 * (MAX_ARGUMENT + 1)


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


def _cut_chunks(texts: Iterable[str], last_cut: Callable[[str], int]) -> Iterator[tuple[int, str]]:
    """Regroup ``texts`` into (offset, chunk) pairs, cut at most once per block.

    ``last_cut(block)`` sees every block once, in order, and gives the last position in it where
    the text may be cut (0: just before the block), or -1 for none.
    """
    pending: list[str] = []  # the blocks since the last cut, joined only when a chunk is cut
    offset = 0  # of pending[0] in the whole text
    for block in texts:
        if not block:
            continue
        position = last_cut(block)
        if position >= 0:
            pending.append(block[:position] if position < len(block) else block)
            chunk = "".join(pending)
            pending = [block[position:]] if position < len(block) else []
            if chunk:
                yield offset, chunk
                offset += len(chunk)
        else:
            pending.append(block)
    tail = "".join(pending)
    if tail:
        yield offset, tail


def _text_cut_finder() -> Callable[[str], int]:
    """``last_cut`` for text: the last position of ``_TEXT_CUT`` that a block decides."""
    context = ""  # the end of the text before the block, which decides its first positions

    def last_cut(block: str) -> int:
        nonlocal context
        window = context + block
        position = _last_match(window, len(context))
        context = window[-_TEXT_CUT_CONTEXT:]
        return position - (len(window) - len(block)) if position >= 0 else -1

    return last_cut


def _last_match(window: str, earliest: int) -> int:
    """The position of the last ``_TEXT_CUT`` at or after ``earliest`` in ``window``, or -1.

    Real text has a cut every few code points, so the end of the window is searched first and
    the search widens only when it finds none: each code point is read a bounded number of times.
    """
    span = SEARCH_SPAN
    while True:
        start = max(0, len(window) - span)
        last = -1
        for match in _TEXT_CUT.finditer(window, start):
            last = match.end()
        if last >= earliest or start == 0:
            return last if last >= earliest else -1
        span *= 4


class _StreamCutFinder:
    """``last_cut`` for a stream: follows its groups and text across blocks (spec 7.1).

    Only the last cut of a block is wanted, and what follows the block depends only on its last
    group and the text after that; so a block without an ESCAPE, where a group is simply a run of
    U+E000..U+EFFE, is searched from its end. A block with an ESCAPE is read slot by slot from
    its start, since whether a code point belongs to a group depends on the escapes before it.
    """

    def __init__(self, past_repeats: bool) -> None:
        self.past_repeats = past_repeats
        self.in_group = False  # the last block ended inside a group
        self.group_has_repeat = False
        self.escape_pending = False  # the last block ended with an ESCAPE not yet paired
        self.cuttable = True  # whether the current text may be cut once past ``reach_left``
        self.reach_left = 0  # code points of the current text still within its group's reach

    def __call__(self, block: str) -> int:
        i = 0
        if self.escape_pending:  # the block opens with the escaped code point: a text slot
            self.escape_pending = False
            self.reach_left = max(0, self.reach_left - 2)
            i = 1
        if self.in_group:  # the rest of a group begun in an earlier block
            i = self._group(block, i, group_end(block, i))
            if self.in_group:
                return -1
        if block.find(ESCAPE_CHAR, i) < 0:
            return self._scan_from_end(block, i)
        return self._scan_slots(block, i)

    def _scan_from_end(self, block: str, i: int) -> int:
        group = _last_group(block, i)
        if group is None:
            return self._text(block, i, len(block))
        self._group(block, group.start(), group.end())
        if self.in_group:
            return group.start()
        return max(group.start(), self._text(block, group.end(), len(block)))

    def _scan_slots(self, block: str, i: int) -> int:
        cut = -1
        while i < len(block):
            if self.in_group:
                i = self._group(block, i, group_end(block, i))
                continue
            end = text_end(block, i)  # complete text slots up to the next group
            cut = max(cut, self._text(block, i, end))
            if end == len(block):
                break
            if block[end] == ESCAPE_CHAR:  # the last code point; its pair is in the next block
                self.escape_pending = True
                self.reach_left = max(0, self.reach_left - 1)
                break
            cut = end  # just before a group
            self.in_group, self.group_has_repeat = True, False
            i = end
        return cut

    def _text(self, block: str, start: int, end: int) -> int:
        """Read the text slots ``block[start:end]``; the cut at their end, or -1 if none."""
        self.reach_left = max(0, self.reach_left - (end - start))
        return end if self.cuttable and self.reach_left == 0 else -1

    def _group(self, block: str, start: int, end: int) -> int:
        """Read the group code points ``block[start:end]`` (a group, or the start of one)."""
        if not self.in_group:
            self.in_group, self.group_has_repeat = True, False
        if REPEAT_OPCODE.search(block, start, end):
            self.group_has_repeat = True
        if end < len(block):  # the group ends here and its text starts
            self.in_group = False
            self.reach_left = _GROUP_REACH
            self.cuttable = self.past_repeats or not self.group_has_repeat
        return end


def _last_group(block: str, start: int) -> re.Match | None:
    """The last run of group code points in ``block[start:]`` (which holds no ESCAPE).

    Searched in windows from the end, widened only while a window holds no whole run, so that
    each code point is read a bounded number of times.
    """
    span = SEARCH_SPAN
    while True:
        window = max(start, len(block) - span)
        last = None
        for last in GROUP.finditer(block, window):
            pass
        if window == start or (last is not None and last.start() > window):
            return last  # a run starting at the window's edge may begin before it
        span *= 4


def text_chunks(texts: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(offset, chunk) pairs of text whose encodings concatenate to the whole text's encoding."""
    return _cut_chunks(texts, _text_cut_finder())


def stream_chunks(texts: Iterable[str], *, past_repeats: bool = True) -> Iterator[tuple[int, str]]:
    """(offset, chunk) pairs of a stream whose decodings concatenate to the whole's.

    With ``past_repeats`` (the default) the text of a group holding a repeat is cut too, once
    past the group's reach; a repeat near ``max_output`` then sees only its chunk's part of
    that text (the limit is per chunk). With ``past_repeats=False`` the decodings are equal
    even when each chunk gets what is left of one ``max_output`` for the whole stream (as
    :func:`functok.cli.decode_blocks` does), at the cost of holding such a text whole.
    """
    return _cut_chunks(texts, _StreamCutFinder(past_repeats))
