"""Decoding a :class:`FunctokTokenizer`'s ids as they arrive: :class:`FunctokDecodeStream` and
the ``generate`` streamer :class:`FunctokStreamer` (re-exported by ``functok.integrations.transformers``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from transformers.generation.streamers import BaseStreamer

from ...tokenizer import ByteFallbackError, DecodeStream, TokenFormatError, UnknownTokenIdError

if TYPE_CHECKING:
    from . import FunctokTokenizer


class FunctokDecodeStream:
    """:class:`functok.DecodeStream` for a :class:`FunctokTokenizer`'s ids, added tokens included.

    ``step(id)`` returns the text that has become final (or None), ``finish()`` the rest; their
    concatenation is ``tokenizer.decode(ids)`` (same ``errors`` and ``skip_special_tokens``). An
    added token ends the functok stream before it, as a special token does.

    ``prefill(ids)`` takes a prompt's ids before the generated ones and returns the text of them
    that is already final. The ids' text is then ``prefill(prompt) + step(g1) + ... + finish()``:
    what ``step`` returns after a prefill can begin with the end of the prompt's text, when the
    prompt left it open (a repeat whose text may still grow, held under ``errors="replace"``,
    or an unfinished UTF-8 sequence of byte-fallback ids).
    """

    def __init__(self, tokenizer: FunctokTokenizer, *, skip_special_tokens: bool = False,
                 errors: str = "replace") -> None:
        self._tokenizer = tokenizer
        self._options = {"skip_special_tokens": skip_special_tokens, "errors": errors}
        self._stream = DecodeStream(tokenizer.functok, **self._options)
        self._index = 0  # ids taken so far
        self._start = 0  # the index of the first id of the current functok stream

    def prefill(self, ids: Iterable[int]) -> str:
        return "".join(self.step(int(i)) or "" for i in ids)

    def step(self, id: int) -> str | None:
        tokenizer = self._tokenizer
        self._index += 1
        if not tokenizer._breaks_stream(id):
            try:
                return self._stream.step(id)
            except _ID_ERRORS as error:
                raise _counted_from(error, self._start) from None
        out = self.finish()
        self._stream = DecodeStream(tokenizer.functok, **self._options)
        self._start = self._index
        token = tokenizer._added_tokens_decoder[id]
        if not (self._options["skip_special_tokens"] and token.special):
            out += token.content
        return out or None

    def finish(self) -> str:
        try:
            return self._stream.finish()
        except _ID_ERRORS as error:
            raise _counted_from(error, self._start) from None


class FunctokStreamer(BaseStreamer):
    """A streamer for ``model.generate(..., streamer=FunctokStreamer(tokenizer))``: the text of
    the generated ids as it becomes final (:class:`FunctokDecodeStream`), to ``on_text`` or, by
    default, printed. ``generate`` first puts the prompt's ids: they are the prefill, their text
    shown only with ``skip_prompt=False``. Batches of one sequence only, as ``TextStreamer``."""

    def __init__(self, tokenizer: FunctokTokenizer, *, skip_prompt: bool = True, skip_special_tokens: bool = True,
                 errors: str = "replace", on_text=None) -> None:
        self.tokenizer = tokenizer
        self.skip_prompt = skip_prompt
        self._options = {"skip_special_tokens": skip_special_tokens, "errors": errors}
        self.on_text = on_text or (lambda text: print(text, end="", flush=True))
        self._stream: FunctokDecodeStream | None = None

    def put(self, value) -> None:
        ids = value.tolist() if hasattr(value, "tolist") else list(value)
        if ids and isinstance(ids[0], list):
            if len(ids) > 1:
                raise ValueError("FunctokStreamer streams one sequence: a batch of one")
            ids = ids[0]
        if self._stream is None:  # the prompt
            self._stream = self.tokenizer.decode_stream(**self._options)
            self._emit(self._stream.prefill(ids), show=not self.skip_prompt)
            return
        for id in ids:
            self._emit(self._stream.step(int(id)))

    def end(self) -> None:
        if self._stream is not None:
            self._emit(self._stream.finish())
        self._stream = None  # the next generate() starts again with a prompt

    def _emit(self, text: str | None, show: bool = True) -> None:
        if text and show:
            self.on_text(text)


_ID_ERRORS = (TokenFormatError, UnknownTokenIdError, ByteFallbackError)


def _counted_from(error, start: int):
    """An error of ids decoded from index ``start`` on, its ``id_index`` counted from the first id."""
    if start == 0:
        return error
    cls, args = error.__reduce__()  # every id error's last field is its id_index
    return cls(*args[:-1], args[-1] + start)
