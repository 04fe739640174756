"""functok on Hugging Face ``datasets``: token ids for every row, with ``Dataset.map`` on
``num_proc`` processes.

``tokenize_dataset(dataset, tokenizer, num_proc=4)`` (docs/corpus.md has a worked example).

The column ``input_ids`` holds ``Tokenizer.encode(text).ids`` (plus the ``eos`` id), the ids
``functok tokenize`` writes (a special token's text in a row is ordinary text, as there). The
dataset is used through its own ``map`` method, so this module imports nothing from
``datasets``; the tokenizer travels to the worker processes as its file text
(``Tokenizer.__reduce__``), which also gives ``datasets`` a stable fingerprint for its cache.
"""

from __future__ import annotations

from typing import Any

from ..tokenizer import Tokenizer

__all__ = ["EncodeBatch", "tokenize_dataset"]


class EncodeBatch:
    """The function ``Dataset.map(batched=True)`` calls: texts in, ids out."""

    def __init__(self, tokenizer: Tokenizer, *, column: str = "text", output_column: str = "input_ids",
                 segmentation: str = "greedy", eos: str | None = None) -> None:
        self.tokenizer, self.column, self.output_column = tokenizer, column, output_column
        self.segmentation = segmentation
        self.eos_id = None if eos is None else tokenizer.token_to_id(eos)
        if eos is not None and self.eos_id is None:
            raise ValueError(f"end-of-document token {eos!r} is not a token of the tokenizer")

    def __call__(self, batch: dict[str, list]) -> dict[str, list[list[int]]]:
        out = []
        for text in batch[self.column]:
            ids = self.tokenizer.encode(text, segmentation=self.segmentation, disallowed_special=()).ids
            if self.eos_id is not None:
                ids.append(self.eos_id)
            out.append(ids)
        return {self.output_column: out}


def tokenize_dataset(dataset: Any, tokenizer: Tokenizer | str, *, column: str = "text",
                     output_column: str = "input_ids", num_proc: int | None = None, segmentation: str = "greedy",
                     eos: str | None = None, batch_size: int = 256, remove_columns: Any = None,
                     **map_options: Any) -> Any:
    """``dataset`` (a ``datasets.Dataset`` or ``DatasetDict``) with a column of token ids.

    ``tokenizer`` is a :class:`functok.Tokenizer` or the path of its file. ``num_proc`` is
    ``Dataset.map``'s: the rows are shared out among that many processes, in order, so the ids
    are the same for any ``num_proc``. Other keyword arguments go to ``Dataset.map``.
    """
    if not isinstance(tokenizer, Tokenizer):
        tokenizer = Tokenizer.from_file(tokenizer)
    encode = EncodeBatch(tokenizer, column=column, output_column=output_column, segmentation=segmentation, eos=eos)
    return dataset.map(encode, batched=True, batch_size=batch_size, num_proc=num_proc,
                       remove_columns=remove_columns, desc="functok", **map_options)
