"""The first step of the tokenizer's encode path: the text cut at its special tokens, as
tiktoken cuts it; the stretches between go to :mod:`.codec_pretokenizer`.

>>> special = SpecialTokens({"<s>": 0})
>>> special.split("a<s>b", allowed={"<s>"}, disallowed="all")
['a', 0, 'b']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = ["SpecialTokens"]


class SpecialTokens:
    """A tokenizer's special tokens, and the text cut at them as tiktoken cuts it.

    ``ids`` maps each token's text to its id, ``text_of`` each id to its text.
    """

    def __init__(self, ids: Mapping[str, int]) -> None:
        self.ids = dict(ids)
        self.text_of = {i: t for t, i in self.ids.items()}
        tokens = sorted(self.ids, key=len, reverse=True)  # longest first, as tiktoken matches
        self._pattern = re.compile("|".join(map(re.escape, tokens))) if tokens else None

    def split(self, text: str, allowed: str | Iterable[str], disallowed: str | Iterable[str]) -> list[str | int]:
        """The text cut at allowed special tokens: its stretches (strings) and the special ids,
        in order. A special token's text raises ``ValueError`` unless it is in ``allowed``
        (``"all"`` for every one) or not in ``disallowed`` (``"all"``: every one not allowed;
        ``()``: none, so it is ordinary text)."""
        if not isinstance(text, str):
            raise TypeError(f"expected str, not {type(text).__name__}")
        allowed = set(self.ids) if allowed == "all" else set(allowed)
        unknown = allowed - set(self.ids)
        if unknown:
            raise ValueError(f"not special tokens of this tokenizer: {sorted(unknown)}")
        disallowed = set(self.ids) - allowed if disallowed == "all" else set(disallowed)
        if self._pattern is None or not (allowed or disallowed):  # no token to find: no scan
            return [text] if text else []
        parts: list[str | int] = []
        start = 0
        for m in self._pattern.finditer(text):
            token = m.group()
            if token in disallowed:
                raise ValueError(
                    f"text contains the special token {token!r} at {m.start()}: pass "
                    f"allowed_special={{{token!r}}} to encode it as the special token, or "
                    f"disallowed_special=() to encode it as ordinary text"
                )
            if token in allowed:
                if m.start() > start:
                    parts.append(text[start : m.start()])
                parts.append(self.ids[token])
                start = m.end()
        if start < len(text):
            parts.append(text[start:])
        return parts
