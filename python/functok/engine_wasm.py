"""The C core in WebAssembly, under Pyodide: the ops of ``functok._native`` that
:mod:`functok.engine` drives, made on the core that functok for JavaScript runs on.

Pyodide cannot load the CPython extension, but the same core built to WebAssembly
(``native/wasm/``) runs beside it. ``wasm/functok.mjs`` instantiates it and registers its glue
(``wasm/core_bridge.mjs``) as the JavaScript module ``functok_core_wasm``; :func:`load` returns a
:class:`WasmCore` over it, or None outside Pyodide or where nothing registered it (Pyodide
loaded by hand). :mod:`functok.engine` imports this module only when ``sys.platform ==
"emscripten"``; nothing else in functok knows JavaScript.

Each op is one crossing. Text crosses as UTF-16 bytes (:func:`_units`; a ``Uint8Array`` on the
JavaScript side), which is one copy each way, where Pyodide's conversion of a str that is not
Latin-1 to a JavaScript string and back costs more than the core's work (wasm/core_bridge.mjs);
ids come back as a ``Uint32Array``. The options arrive checked and as the core's
integers (:func:`functok.engine.core_arguments`). Where the core refuses (a lone surrogate, a
strict decode that fails, an id the table does not hold) these ops raise what the pure
reference raises, by running it: the errors have one implementation.
"""

from __future__ import annotations

import itertools
import sys
from array import array
from typing import Any

from .decoding import decode as reference_decode
from .encoding import check_scalar_values

__all__ = ["GreedyEncoder", "WasmCore", "load"]

JS_MODULE = "functok_core_wasm"


def load() -> WasmCore | None:
    """The core under Pyodide when ``wasm/functok.mjs`` provided it, else None."""
    if sys.platform != "emscripten":
        return None
    try:
        import functok_core_wasm  # a JavaScript module (wasm/core_bridge.mjs), registered by wasm/functok.mjs
        from pyodide.ffi import JsException, to_js
    except ImportError:
        return None
    return WasmCore(_MemoryErrors(functok_core_wasm, JsException), to_js)


class _MemoryErrors:
    """The bridge's functions, with its one error, a RangeError when wasm memory runs out, raised
    as the MemoryError that ``functok._native`` raises (any other JavaScript error is a bug)."""

    def __init__(self, js: Any, js_exception: type) -> None:
        self._js = js
        self._js_exception = js_exception

    def __getattr__(self, name: str):
        function = getattr(self._js, name)
        js_exception = self._js_exception

        def call(*args):
            try:
                found = function(*args)
            except js_exception as e:
                if getattr(e, "name", None) == "RangeError":
                    raise MemoryError(str(e)) from None
                raise
            return _MemoryErrors(found, js_exception) if name in _MAKERS else found

        return call


_MAKERS = ("greedyEncoder", "tokenTable")  # their answers are objects of bridge functions too


def _uint32(values) -> array:
    return array("I", values)


def _units(text: str) -> bytes:
    """The UTF-16 units of text as bytes; a lone surrogate crosses as it is, and the core finds it."""
    return text.encode("utf-16-le", "surrogatepass")


def _text(found, same: str = "") -> str:
    """The text of the bridge's answer: UTF-16 bytes (a Uint8Array), or True for ``same`` itself."""
    return same if found is True else found.to_bytes().decode("utf-16-le")


class WasmCore:
    """``functok._native``'s codec and tokenizer ops over the JavaScript bridge ``js``."""

    def __init__(self, js: Any, to_js) -> None:
        self._js = js
        self._to_js = to_js

    def encode(self, text: str, max_digits: int, cfg: int, normalize: bool) -> str:
        found = self._js.encode(self._to_js(_units(text)), max_digits, cfg, normalize)
        if found is None:  # the core found a lone surrogate: raise the reference's error
            check_scalar_values(text)
        return _text(found, text)

    def pretokens(self, text: str, max_digits: int, cfg: int, normalize: bool, fuse: int) -> list[str]:
        found = self._js.pretokens(self._to_js(_units(text)), max_digits, cfg, normalize, fuse)
        if found is None:
            check_scalar_values(text)
        return _slices(_text(found[0]), found[1].to_py().tolist())  # ends in code points

    def decode(self, stream: str, strict: bool, max_output: int) -> str:
        found = self._js.decode(self._to_js(_units(stream)), strict, max_output)
        if found is None:  # an error: the reference decoder raises it (or, lenient, answers)
            return reference_decode(stream, errors="strict" if strict else "replace", max_output=max_output)
        return _text(found, stream)

    def GreedyEncoder(self, chars: dict, merges: dict, byte_ids: list, max_digits: int, cfg: int,
                      normalize: bool, fuse: int, cache_limit: int) -> GreedyEncoder:
        flat_chars = _uint32(x for cp, i in chars.items() for x in (cp, i))
        quads = _uint32(x for pair, (rank, new) in merges.items() for x in (pair >> 32, pair & 0xFFFFFFFF, rank, new))
        bytes_ = [-1 if i is None else i for i in byte_ids]
        js = self._js.greedyEncoder(self._to_js(flat_chars), self._to_js(quads), self._to_js(bytes_),
                                    max_digits, cfg, normalize, fuse)
        return GreedyEncoder(js, self._to_js)

    def token_table(self, token: dict, byte: dict, special: dict):
        """A tokenizer's id table in the core (the reference's order: byte, special, token)."""
        count = 1 + max([-1, *token, *byte, *special])
        texts, kinds, bytes_ = [""] * count, bytearray(count), bytearray(count)
        for i, t in token.items():
            texts[i], kinds[i] = t, 1
        for i, t in special.items():
            texts[i], kinds[i] = t, 3
        for i, b in byte.items():
            kinds[i], bytes_[i] = 2, b
        ends = _uint32(itertools.accumulate(map(len, texts)))  # code points; the bridge makes them UTF-16
        return self._js.tokenTable(self._to_js(_units("".join(texts))), self._to_js(ends), self._to_js(kinds),
                                   self._to_js(bytes_))

    def detokenize(self, table, ids, strict: bool, skip_special_tokens: bool, max_output: int) -> str | None:
        """The text of ids, or None where the reference decides (an unknown id, bad UTF-8, an error)."""
        try:
            packed = _uint32(ids)
        except (TypeError, OverflowError):  # not ints, or past the core's ids: the reference decides
            return None
        found = table.decode(self._to_js(packed), strict, skip_special_tokens, max_output)
        return None if found is None else _text(found)


class GreedyEncoder:
    """``functok._native.GreedyEncoder``'s ops on the core in WebAssembly."""

    def __init__(self, js: Any, to_js) -> None:
        self._js = js
        self._to_js = to_js

    def encode(self, text: str) -> list[int]:
        found = self._js.encodeMany(self._to_js(_units(text)), None)
        if found is None:
            check_scalar_values(text)
        return found[0].to_py().tolist()

    def encode_many(self, texts: list[str], lane: int) -> list[list[int] | None]:
        if not texts:
            return []
        found = self._js.encodeMany(self._to_js(_units("".join(texts))), self._to_js(_cumulative(texts)))
        if found is None:  # a lone surrogate somewhere: each text is encoded again, and raises
            return [None] * len(texts)
        return _split(found[0].to_py().tolist(), found[1].to_py().tolist())

    def pretoken_ids(self, pretokens: list[str]) -> list[list[int]]:
        if not pretokens:
            return []
        found = self._js.pretokenIds(self._to_js(_units("".join(pretokens))), self._to_js(_cumulative(pretokens)))
        if found is None:
            for p in pretokens:
                check_scalar_values(p)
        return _split(found[0].to_py().tolist(), found[1].to_py().tolist())

    def clear_caches(self) -> None:
        self._js.clearCaches()


def _cumulative(texts: list[str]) -> array:
    ends, at = array("I"), 0
    for t in texts:
        at += len(t)
        ends.append(at)
    return ends


def _slices(joined: str, ends: list[int]) -> list[str]:
    out, start = [], 0
    for end in ends:
        out.append(joined[start:end])
        start = end
    return out


def _split(ids: list[int], ends: list[int]) -> list[list[int]]:
    out, start = [], 0
    for end in ends:
        out.append(ids[start:end])
        start = end
    return out
