"""Tokenizers and token streams for one protocol, trained exactly as ``functok compare`` does.

The three variants are rows of compare's equal-budget table (functok.commands.budgets):
``baseline`` (NFC + paper splitter), ``paper_split`` (profile paper, fuse none) and
``compact_frequent`` (profile compact, fuse frequent: compact's split training plus fusion
merges). Counting, training and the budget cut are compare's own functions (``pretoken_counts``,
``train_counts``, ``model_at``, ``held_out_tokens``), called, not copied; the ids of a text are
the greedy ids of its pre-tokens in order (``greedy_tokens``, what compare counts).

Every held-out token also gets the *unit* it belongs to: a context chain of the compact profile
(spec 9.4), a run of splitter pieces that every variant's tokens stay inside, so the loss of the
same words can be compared across streams. A unit is classed by its text alone (has a capital,
has a combining mark after NFD, seen as a chain in training), the same class in every stream.

Output: cache/<protocol>/<variant>.pt (tensors) and cache/<protocol>/meta.json.
"""

from __future__ import annotations

import json
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

import torch

from functok.commands.compare import budgets
from functok.commands.compare.budgets import BYTE_TOKENS
from functok.encoding import encoded_pieces, map_pieces
from functok.pretokenize import chained, has_group, piece_pretokens
from functok.tokenizer.tokenizer_file import with_byte_tokens
from functok.tokenizer.fusion import ChainCounter, greedy_tokens

import protocols
from kinds import KINDS, kind_of

SPLITTER = "paper"  # compare's default
BUDGET = 8_000
VARIANT_KEYS = ("baseline", "paper_split", "compact_frequent")
SEPARATOR = BUDGET  # one id past the budget ends each document (the model's only extra entry)
CACHE = Path(__file__).with_name("cache")


def variants() -> dict:
    return {v.key: v for v in budgets.BUDGET_VARIANTS if v.key in VARIANT_KEYS}


def train_tokenizers(split) -> dict[str, dict]:
    """The three trained models (tokenizer.json dicts, byte tokens not yet added), as compare's
    equal_budget trains them at one budget."""
    vs = variants()
    models = {}
    started = time.monotonic()
    base = budgets.pretoken_counts(vs["baseline"], SPLITTER, split.train)
    models["baseline"] = budgets.model_at(budgets.train_at_budget(base, BUDGET), BUDGET, base, None)
    paper = budgets.pretoken_counts(vs["paper_split"], SPLITTER, split.train)
    models["paper_split"] = budgets.model_at(budgets.train_at_budget(paper, BUDGET), BUDGET, paper, None)
    chains = ChainCounter()
    compact_split = next(v for v in budgets.BUDGET_VARIANTS if v.key == "compact_split")
    compact = budgets.pretoken_counts(compact_split, SPLITTER, split.train, chains)
    big = budgets.train_at_budget(compact, BUDGET)
    models["compact_frequent"] = budgets.model_at(big, BUDGET, compact, chains.chains)
    print(f"{split.name}: tokenizers trained in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return models


def _ids(model: dict, docs: list[list[str]]) -> tuple[list[list[int]], list[str]]:
    """Each document's greedy ids, and the id -> token string table."""
    full = with_byte_tokens(model, [])
    vocab = full["model"]["vocab"]
    tokens = greedy_tokens(model, {p for doc in docs for p in doc})
    return [[vocab[t] for p in doc for t in tokens[p]] for doc in docs], _strings(vocab)


def variant_ids(model: dict, pretokenize, split) -> tuple:
    """A variant's ids over ``split``: the training documents' ids and the id -> token string
    table, the evaluation documents' pre-tokens and ids, and the greedy tokens of those
    pre-tokens."""
    train_ids, strings = _ids(model, [pretokenize(t) for t in split.train])
    eval_pre = [pretokenize(t) for t in split.evaluation]
    eval_ids, _ = _ids(model, eval_pre)
    tokens = greedy_tokens(model, {p for doc in eval_pre for p in doc})
    return train_ids, strings, eval_pre, eval_ids, tokens


def save_streams(out: Path, key: str, model: dict, train_ids: list[list[int]], eval_ids: list[list[int]],
                 strings: list[str], eval_classes: list[int]) -> None:
    """A variant's streams (training, evaluation, the evaluation tokens' kinds and unit classes)
    in ``<key>.pt``, and its tokenizer in ``<key>.tokenizer.json``."""
    torch.save({"train": _stream(train_ids), "eval": _stream(eval_ids),
                "eval_kind": _stream_kinds(eval_ids, strings),
                "eval_class": _with_separators(eval_ids, eval_classes)}, out / f"{key}.pt")
    (out / f"{key}.tokenizer.json").write_text(json.dumps(with_byte_tokens(model, []), ensure_ascii=False))


def grid_train_bytes(split, kept: dict) -> int:
    """The UTF-8 bytes of ``split``'s training text, once checked that ``split`` is the text the
    grid ran on (``kept``: the protocol's meta.json in the grid's results)."""
    eval_bytes = sum(len(t.encode()) for t in split.evaluation)
    train_bytes = sum(len(t.encode()) for t in split.train)
    assert (eval_bytes, train_bytes) == (kept["eval_bytes"], kept["train_bytes"]), "not the grid's text"
    return train_bytes


def grid_classes(kept: dict, split, units: list[list[int]], eval_ids: list[list[int]]) -> list[int]:
    """The unit class of each evaluation token of ``split`` (``units``: each document's tokens'
    units), by the grid's class table (``kept["classes"]``), which a variant must not grow."""
    seen = {u for text in split.train for u in _unit_texts(text)}
    classes, eval_classes = list(kept["classes"]), []
    for text, doc_units, ids in zip(split.evaluation, units, eval_ids):
        assert len(doc_units) == len(ids)
        texts = _unit_texts(text)
        eval_classes.extend(_class_id(classes, unit_class(texts[u], seen)) for u in doc_units)
    assert classes == kept["classes"], "unit classes differ from the grid's"
    return eval_classes


def _strings(vocab: dict[str, int]) -> list[str]:
    out = [""] * (max(vocab.values()) + 1)
    for t, i in vocab.items():
        out[i] = t
    return out


def _units(text: str) -> list[list[int]]:
    """The compact profile's context chains of ``text``, as lists of piece indexes."""
    enc = encoded_pieces(text, splitter=SPLITTER, profile="compact")
    return list(chained(range(len(enc)), lambda i: has_group(enc[i])))


def _unit_texts(text: str) -> list[str]:
    from functok.normalize import nfc
    from functok.splitting import split

    pieces = split(nfc(text), splitter=SPLITTER)
    return ["".join(pieces[i] for i in unit) for unit in _units(text)]


def _pretokens_by_piece(variant_key: str, text: str) -> list[list[str]]:
    """Each splitter piece's pre-tokens for baseline and paper_split (a piece is a whole number
    of pre-tokens there)."""
    from functok.normalize import nfc
    from functok.splitting import split

    if variant_key == "baseline":
        return [[p] for p in split(nfc(text), splitter=SPLITTER)]
    return [list(parts) for parts in map_pieces(piece_pretokens, text, splitter=SPLITTER, profile="paper")]


def unit_of_tokens(variant_key: str, model: dict, text: str, tokens: dict) -> list[int]:
    """The unit (chain index) of each of ``text``'s tokens in ``variant_key``'s stream."""
    if variant_key == "compact_frequent":  # a pre-token is a chain
        pre = variants()[variant_key].pretokenize(SPLITTER)(text)
        return [u for u, p in enumerate(pre) for _ in tokens[p]]
    by_piece = _pretokens_by_piece(variant_key, text)
    out = []
    for u, unit in enumerate(_units(text)):
        for i in unit:
            out.extend(u for p in by_piece[i] for _ in tokens[p])
    return out


def unit_class(unit_text: str, seen: set[str]) -> str:
    decomposed = unicodedata.normalize("NFD", unit_text)
    cap = "cap" if any(c.isupper() for c in unit_text) else "nocap"
    mark = "mark" if any(unicodedata.combining(c) for c in decomposed) else "nomark"
    return f"{cap}.{mark}.{'seen' if unit_text in seen else 'unseen'}"


def prepare(name: str) -> Path:
    out = CACHE / name
    if (out / "meta.json").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    split = protocols.PROTOCOLS[name]()
    models = train_tokenizers(split)
    vs = variants()
    seen = {u for text in split.train for u in _unit_texts(text)}
    classes: list[str] = []
    meta = {"protocol": name, "description": split.description, "splitter": SPLITTER, "budget": BUDGET,
            "separator": SEPARATOR, "train_documents": len(split.train), "held_documents": len(split.held),
            "eval_documents": len(split.evaluation),
            "train_bytes": sum(len(t.encode()) for t in split.train),
            "eval_bytes": sum(len(t.encode()) for t in split.evaluation),
            "eval_chars": sum(map(len, split.evaluation)), "variants": {}}
    unit_bytes: Counter = Counter()
    for key, model in models.items():
        train_ids, strings, _, eval_ids, tokens = variant_ids(model, vs[key].pretokenize(SPLITTER), split)
        eval_classes, offset = [], 0
        for text, ids in zip(split.evaluation, eval_ids):
            units = unit_of_tokens(key, model, text, tokens)
            assert len(units) == len(ids), (key, len(units), len(ids))
            texts = _unit_texts(text)
            for u in units:
                eval_classes.append(_class_id(classes, unit_class(texts[u], seen)))
            if key == "baseline":
                for t in texts:
                    unit_bytes[unit_class(t, seen)] += len(t.encode())
            offset += len(ids)
        held = budgets.pretoken_counts(vs[key], SPLITTER, split.held)
        train_tokens = sum(map(len, train_ids))
        meta["variants"][key] = {
            "label": vs[key].label, "profile": vs[key].profile, "fuse": vs[key].fuse,
            "entries": len(strings), "train_tokens": train_tokens,
            "train_bytes_per_token": meta["train_bytes"] / train_tokens,
            "eval_tokens": sum(map(len, eval_ids)),
            "held_out_tokens_all": budgets.held_out_tokens(model, held),
        }
        save_streams(out, key, model, train_ids, eval_ids, strings, eval_classes)
        print(f"{name}: {key}: {train_tokens:,} training tokens, {meta['variants'][key]['eval_tokens']:,} "
              f"eval tokens", file=sys.stderr)
    meta["classes"] = classes
    meta["class_bytes"] = {c: unit_bytes[c] for c in classes}
    meta["kinds"] = list(KINDS)
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    return out


def _class_id(classes: list[str], c: str) -> int:
    if c not in classes:
        classes.append(c)
    return classes.index(c)


def _stream(docs: list[list[int]]) -> torch.Tensor:
    """Documents' ids joined, each followed by the separator."""
    flat: list[int] = []
    for ids in docs:
        flat.extend(ids)
        flat.append(SEPARATOR)
    return torch.tensor(flat, dtype=torch.int32)


def _with_separators(docs: list[list[int]], per_token: list[int]) -> torch.Tensor:
    flat, k = [], 0
    for ids in docs:
        flat.extend(per_token[k:k + len(ids)])
        k += len(ids)
        flat.append(-1)
    return torch.tensor(flat, dtype=torch.int16)


def _stream_kinds(docs: list[list[int]], strings: list[str]) -> torch.Tensor:
    codes = {k: i for i, k in enumerate(KINDS)}
    table = [codes[kind_of(s, i < BYTE_TOKENS)] for i, s in enumerate(strings)]
    return _with_separators(docs, [table[i] for ids in docs for i in ids])


if __name__ == "__main__":
    for protocol in sys.argv[1:] or protocols.ORDER:
        prepare(protocol)
