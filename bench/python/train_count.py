"""Training's pre-token counting (``functok train``, ``Tokenizer.train``): the C core's count
against the Python count, same run, same texts.

    .venv/bin/python bench/python/train_count.py [--mb N] [--repeat N]

For each corpus (the standard library's source, up to ``--mb`` MB; the UDHR where present), each
file one text, and each fuse mode, it measures in MB/s of UTF-8 input what training counts
before Hugging Face's trainer runs (the counts of every pre-token, and under ``fuse="frequent"``
the chains of spec 9.4 too), three ways:

* pure:   the pure-Python path throughout (what ``FUNCTOK_PURE=1`` runs: pure pre-tokens);
* before: the Python count over the C core's pre-tokens (what training ran before the count went
  native, when the core was built);
* native: ``count_pretokens`` in the C core (what training runs now).

Every way gives the same counts in the same order (checked). Each figure is the best of N runs,
each a single pass with the encoder's caches emptied first. The goal is native >= 5x the count
of before: counting pre-tokens is most of ``functok train``'s time on a large corpus (100 MB).
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
import time

import functok
from functok.engine import backend
from functok.tokenizer import pretoken_counts, train
from functok.tokenizer.fusion import ChainCounter

from corpora import UDHR, read_files, stdlib_files

encode_module = importlib.import_module("functok.encoding")

PROFILE = train.DEFAULT_PROFILE  # Tokenizer.train's default, as functok train runs it


def count(how: str, texts: list[str], fuse: str):
    """The counts (and chains) of texts, counted ``how``; the caches emptied first."""
    encode_module.clear_caches()
    chains = ChainCounter() if fuse == "frequent" else None
    split_fuse = "none" if chains is not None else fuse
    if how == "native":
        counts = pretoken_counts._native_pretoken_counts(iter(texts), "nfc", "llama3", split_fuse, PROFILE, chains)
        return counts, chains and chains.chains
    saved = pretoken_counts.codec_pretokens  # the reference's pre-tokens, as under FUNCTOK_PURE=1
    if how != "pure":
        pretoken_counts.codec_pretokens = functok.pretokens  # the engine's (the C core's where it runs)
    try:
        counts = pretoken_counts.pure_pretoken_counts(iter(texts), "nfc", "llama3", split_fuse, PROFILE, chains)
    finally:
        pretoken_counts.codec_pretokens = saved
    return counts, chains and chains.chains


def best_of(repeat: int, how: str, texts: list[str], fuse: str):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = count(how, texts, fuse)
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=10.0, help="MB of the stdlib source (default 10)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if backend() != "native":
        print("the C core is not built (or FUNCTOK_PURE is set): nothing to compare")
        return 1
    print(f"# functok {functok.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"profile {PROFILE!r}, NFC, llama3; best of {args.repeat}, single pass")
    corpora = [("stdlib source", read_files(stdlib_files(), int(args.mb * 1e6)))]
    if UDHR.is_dir():
        corpora.append(("UDHR", read_files(sorted(UDHR.glob("*.txt")), 10**12)))
    else:
        print(f"# UDHR not found at {UDHR}; skipped")
    print(f"{'corpus':<15}{'fuse':<10}{'MB':>6}{'pure MB/s':>11}{'before':>9}{'native':>9}"
          f"{'nat/before':>12}{'nat/pure':>10}")
    for name, texts in corpora:
        mb = sum(len(t.encode()) for t in texts) / 1e6
        for fuse in ("none", "all", "frequent"):
            seconds, results = {}, {}
            for how in ("pure", "before", "native"):
                seconds[how], results[how] = best_of(args.repeat, how, texts, fuse)
            for how in ("pure", "before"):  # the same counts and chains, in the same order
                for mine, theirs in zip(results["native"], results[how]):
                    assert mine is None or list(mine.items()) == list(theirs.items()), (how, fuse)
            rate = {how: mb / t for how, t in seconds.items()}
            print(f"{name:<15}{fuse:<10}{mb:>6.1f}{rate['pure']:>11.2f}{rate['before']:>9.2f}{rate['native']:>9.2f}"
                  f"{rate['native'] / rate['before']:>11.2f}x{rate['native'] / rate['pure']:>9.2f}x")
    print("# goal: native >= 5x before on the pre-token counting of functok train")
    return 0


if __name__ == "__main__":
    sys.exit(main())
