"""The follow-ups' research streams: variants that are not rows of compare's table, made here and not
in the package (the package's encoder is unchanged).

* ``paper_postfix``: the ``paper`` split stream with each piece's instruction groups moved
  *after* its base (``piece_pretokens`` gives group pre-tokens, then the base: here the base,
  then the groups). BPE counts are order-free, so its tokenizer is ``paper_split``'s; only the
  order of the stream changes. The question: is an instruction placed before its base the cost?
* ``inline_case``: a capcode-like stream. Each capital whose lowercase is one code point (and
  comes back to it) becomes CASE_MARKER + that lowercase letter, inside the piece, so that BPE
  may merge the marker with the letters; marks and repeats stay literal (NFC); one pre-token per
  splitter piece. No slot numbers: the model never predicts a position.
* ``inline_case_marks``: ``inline_case`` plus each of the 13 marks of the format (spec 2.3) as
  its mark opcode's code point right *after* the letter it modifies (a letter whose NFD is one
  base plus only those marks, and that NFC composes back); other letters stay composed.

Each is trained as prepare.py trains the baseline (compare's ``train_at_budget`` and
``truncate``, at prepare.BUDGET) and streamed, classed and kinded as the grid's variants
(kinds.kind_of: a marker-only token is ``instr:case``, a token of markers and letters is
``fused``). The streams go to ``cache/<protocol>.<variant>/`` with the protocol's meta; the
meta is kept as results/<protocol>/<variant>.meta.json, and cells are scored and stored like
the grid's (run_grid.run).

    cd research/downstream
    PYTHONPATH=../../python ../../.venv-torch/bin/python variants.py inline_case code
"""

from __future__ import annotations

import json
import sys
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from functok.commands.compare import budgets
from functok.encoding import map_pieces
from functok.normalize import nfc
from functok.opcodes import ESCAPE_CHAR, GROUP_FIRST, MARK_TO_OPCODE, OPCODE_TO_MARK
from functok.pretokenize import piece_pretokens
from functok.splitting import split

import prepare
import protocols
import run_grid
from kinds import KINDS

CASE_MARKER = chr(0xE100)  # CAPITALIZE's code point, so that kinds.kind_of names it "case"
_PRIVATE_FIRST, _PRIVATE_LAST = chr(GROUP_FIRST), ESCAPE_CHAR  # the format's range: escaped if in the text


def _is_capital(c: str) -> bool:
    low = c.lower()
    return c != low and len(low) == 1 and low.upper() == c


def _letter(c: str, marks: bool) -> str:
    """One code point of NFC text in the inline stream."""
    if _PRIVATE_FIRST <= c <= _PRIVATE_LAST:
        return ESCAPE_CHAR + c  # the text's own private-use code point, kept apart from markers
    tail = ""
    if marks and not c.isascii():
        decomposed = unicodedata.normalize("NFD", c)
        base, extra = decomposed[0], decomposed[1:]
        if extra and all(m in MARK_TO_OPCODE for m in extra) and nfc(base + extra) == c:
            c, tail = base, "".join(chr(MARK_TO_OPCODE[m]) for m in extra)
    return (CASE_MARKER + c.lower() if _is_capital(c) else c) + tail


def inline_piece(piece: str, marks: bool = False) -> str:
    return "".join(_letter(c, marks) for c in piece)


def decode_inline(stream: str) -> str:
    """The NFC text of an inline stream (the check that the stream is lossless)."""
    out, i = [], 0
    while i < len(stream):
        c = stream[i]
        if c == ESCAPE_CHAR:
            out.append(stream[i + 1])
            i += 2
        elif c == CASE_MARKER:
            out.append(stream[i + 1].upper())
            i += 2
        elif ord(c) in OPCODE_TO_MARK:
            out.append(OPCODE_TO_MARK[ord(c)])
            i += 1
        else:
            out.append(c)
            i += 1
    return nfc("".join(out))


@dataclass(frozen=True)
class ResearchVariant(budgets.BudgetVariant):
    """A row shaped like compare's (so that compare's counting takes it), with its own rule."""

    rule: str = ""  # "postfix" | "inline_case" | "inline_case_marks"

    def by_piece(self, text: str, splitter: str) -> list[list[str]]:
        """Each splitter piece's pre-tokens (the same pieces as the baseline's)."""
        if self.rule == "postfix":
            return [[parts[-1], *parts[:-1]] if len(parts) > 1 else list(parts)
                    for parts in map_pieces(piece_pretokens, text, splitter=splitter, profile="paper")]
        marks = self.rule == "inline_case_marks"
        return [[inline_piece(p, marks)] for p in split(nfc(text), splitter=splitter)]

    def pretokenize(self, splitter: str):
        return lambda text: [p for parts in self.by_piece(text, splitter) for p in parts]


VARIANTS = {
    "paper_postfix": ResearchVariant("paper_postfix", "`paper`, split, groups after the base", "paper", "none",
                                     rule="postfix"),
    "inline_case": ResearchVariant("inline_case", "inline case markers", None, rule="inline_case"),
    "inline_case_marks": ResearchVariant("inline_case_marks", "inline case and mark markers", None,
                                         rule="inline_case_marks"),
}


def count(variant: ResearchVariant, texts: list[str]) -> Counter:
    counts: Counter = Counter()
    for text in texts:
        counts.update(variant.pretokenize(prepare.SPLITTER)(text))
    return counts


def train(variant: ResearchVariant, split_texts: list[str]) -> dict:
    """As prepare.py trains the baseline: one training at the budget, cut to it."""
    counts = count(variant, split_texts)
    return budgets.truncate(budgets.train_at_budget(counts, prepare.BUDGET), prepare.BUDGET)


def check_lossless(variant: ResearchVariant, texts: list[str]) -> None:
    if variant.rule == "postfix":
        return  # the same pre-tokens as paper_split's, reordered: check_streams.py covers paper_split
    for text in texts:
        assert decode_inline("".join(variant.pretokenize(prepare.SPLITTER)(text))) == nfc(text), text[:80]


def units_of_tokens(variant: ResearchVariant, text: str, tokens: dict) -> list[int]:
    """The unit (prepare._units: a context chain of the compact profile) of each token."""
    by_piece = variant.by_piece(text, prepare.SPLITTER)
    out = []
    for u, unit in enumerate(prepare._units(text)):
        for i in unit:
            out.extend(u for p in by_piece[i] for _ in tokens[p])
    return out


def prepare_variant(name: str, key: str) -> Path:
    out = prepare.CACHE / f"{name}.{key}"
    if (out / "meta.json").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    variant = VARIANTS[key]
    kept = json.loads((run_grid.RESULTS / name / "meta.json").read_text())
    split_ = protocols.PROTOCOLS[name]()
    check_lossless(variant, split_.train + split_.evaluation)
    started = time.monotonic()
    model = train(variant, split_.train)
    print(f"{name}: {key} tokenizer trained in {time.monotonic() - started:.0f} s", file=sys.stderr)
    train_bytes = prepare.grid_train_bytes(split_, kept)
    train_ids, strings, eval_pre, eval_ids, tokens = prepare.variant_ids(model, variant.pretokenize(prepare.SPLITTER),
                                                                         split_)
    units = [units_of_tokens(variant, text, tokens) for text in split_.evaluation]
    eval_classes = prepare.grid_classes(kept, split_, units, eval_ids)
    held = count(variant, split_.held)
    train_tokens = sum(map(len, train_ids))
    meta = dict(kept, variants={"baseline": kept["variants"]["baseline"], key: {
        "label": variant.label, "rule": variant.rule, "entries": len(strings), "train_tokens": train_tokens,
        "train_bytes_per_token": train_bytes / train_tokens, "eval_tokens": sum(map(len, eval_ids)),
        "held_out_tokens_all": budgets.held_out_tokens(model, held)}}, kinds=list(KINDS))
    prepare.save_streams(out, key, model, train_ids, eval_ids, strings, eval_classes)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    kept_meta = run_grid.RESULTS / name / f"{key}.meta.json"
    kept_meta.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{name}: {key}: {train_tokens:,} training tokens, {meta['variants'][key]['eval_tokens']:,} eval tokens",
          file=sys.stderr)
    return out


if __name__ == "__main__":
    prepare_variant(sys.argv[2], sys.argv[1])
