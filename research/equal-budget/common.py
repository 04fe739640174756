"""Shared machinery for the issue-13 measurements (read-only use of the installed functok).

Corpora are reduced once to Counters of splitter pieces (after NFC), for training and held-out;
every variant is a function piece -> list of pre-tokens, applied to distinct pieces only.
"""
from __future__ import annotations
import glob, json, os, pickle, sys, time, zlib, collections, math
from collections import Counter
import functok
from functok import _ucd
from functok.normalize import nfc
from functok.split import split
from functok.compare_corpus import stdlib_corpus, DEFAULT_MAX_LINE
from functok.tokenizer import _with_byte_tokens

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "cache")
UDHR = str(__import__("pathlib").Path(__file__).resolve().parents[3] / "shared" / "corpora" / "udhr")


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def code_texts():
    """functok compare's default code corpus: every stdlib .py file (one document each, files
    with a line over 100k code points skipped), held out when CRC-32(relative path) % 20 == 0."""
    c = stdlib_corpus(None, DEFAULT_MAX_LINE, 20)
    return c.train_texts(), c.held_out_texts()


def udhr_texts():
    """UDHR, whole languages held out (the probes' split): sorted files, train = [0::2]+[1::4],
    held = [3::4]."""
    fs = sorted(glob.glob(os.path.join(UDHR, "*.txt")))
    rd = lambda f: open(f, encoding="utf-8").read()
    return [rd(f) for f in fs[0::2] + fs[1::4]], [rd(f) for f in fs[3::4]]


CORPORA = {"code": code_texts, "udhr": udhr_texts}


def piece_counts(corpus: str, splitter: str):
    """(train Counter, held Counter, info) of splitter pieces after NFC; cached on disk."""
    path = os.path.join(CACHE, f"pieces-{corpus}-{splitter}.pkl")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return pickle.load(f)
    train, held = CORPORA[corpus]()
    out = []
    for texts in (train, held):
        c = Counter()
        for t in texts:
            c.update(split(nfc(t), splitter=splitter))
        out.append(c)
    info = {"train_docs": len(train), "held_docs": len(held),
            "train_chars": sum(map(len, train)), "held_chars": sum(map(len, held))}
    res = (out[0], out[1], info)
    with open(path, "wb") as f:
        pickle.dump(res, f)
    return res


def apply_variant(counts: Counter, fn) -> Counter:
    out = Counter()
    for piece, n in counts.items():
        for pt in fn(piece):
            out[pt] += n
    return out


# --- BPE --------------------------------------------------------------------------------------

def train(counts: Counter, vocab_size: int) -> dict:
    """HF BPE as functok.Tokenizer.train does it: byte_fallback model, trainer vocab_size =
    budget - 256, no special tokens, min_frequency 0. Returns the trained tokenizer.json dict
    (without the byte tokens)."""
    from tokenizers import Tokenizer as HF, models, trainers
    trainer = trainers.BpeTrainer(vocab_size=vocab_size - 256, min_frequency=0, special_tokens=[],
                                  show_progress=False)
    hf = HF(models.BPE(byte_fallback=True))

    def batches():
        batch = []
        for w, n in counts.items():
            batch.extend([w] * n)
            if len(batch) >= 65536:
                yield batch
                batch = []
        if batch:
            yield batch
    hf.train_from_iterator(batches(), trainer)
    return json.loads(hf.to_str())


def merges_of(trained):
    return [tuple(m) if not isinstance(m, str) else tuple(m.split(" ", 1)) for m in trained["model"]["merges"]]


def truncate(trained: dict, vocab_size: int) -> dict | None:
    """The trained tokenizer cut to ``vocab_size`` (budget incl. the 256 byte tokens): the entries
    with id < vocab_size-256, and the merges before the first merge whose result lies beyond.
    None when the training has fewer entries (the corpus ran out of merges)."""
    n = vocab_size - 256
    vocab = trained["model"]["vocab"]
    if len(vocab) < n:
        return None
    merges = merges_of(trained)
    keep = []
    for a, b in merges:
        if vocab[a + b] >= n:
            break
        keep.append([a, b])
    model = dict(trained["model"], vocab={t: i for t, i in vocab.items() if i < n}, merges=keep)
    return dict(trained, model=model)


def hf_counter(trained: dict):
    from tokenizers import Tokenizer as HF
    return HF.from_str(json.dumps(_with_byte_tokens(trained, [])))


def count_tokens(trained: dict, held: Counter) -> int:
    hf = hf_counter(trained)
    words = list(held)
    total = 0
    B = 20000
    for k in range(0, len(words), B):
        ws = words[k:k + B]
        for w, e in zip(ws, hf.encode_batch(ws, add_special_tokens=False)):
            total += len(e.ids) * held[w]
    return total


# --- The redundancy ceiling (variant_ceiling.py's definition) --------------------------------

def _ceiling_base(t):
    return "".join(p.base for p in functok.pieces(t, normalize=None, features=frozenset({"case", "marks"})))


def ceiling(trained_trunc: dict) -> dict:
    vocab = [t for t in trained_trunc["model"]["vocab"]]
    s = set(vocab)
    var = [t for t in vocab if _ceiling_base(t) != t]
    dup = [t for t in var if _ceiling_base(t) in s]
    n = len(vocab) + 256  # the budget counts the byte tokens too
    return {"entries": n, "variant_entries": len(var), "with_base": len(dup),
            "ceiling": len(dup) / n, "ceiling_excl_bytes": len(dup) / len(vocab)}
