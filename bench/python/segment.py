"""Optimal segmentation (spec 10) through the C core against the pure segmenter and tiktoken,
as ratios measured in the same run.

    .venv/bin/python bench/python/segment.py [--mb N] [--tokenizer FILE] [--gpt2 FILE] [--vocab-size N]

On the standard library's source and on the UDHR (where present) it measures, in MB/s of UTF-8
input, a single pass with empty caches (each case in its own process, so nothing is cached):

* optimal, pure:    ``Tokenizer.encode(segmentation="optimal")`` with the pure-Python segmenter
                    (functok/tokenizer/segment.py, the reference);
* optimal, native:  the same with the C core's segmenter (native/core/segment.c);
* greedy:           ``Tokenizer.encode`` (greedy BPE), for scale;
* tiktoken:         tiktoken's ``encode_ordinary`` with GPT-2's ranks (the baseline).

CPU time (the process's, with one thread everywhere) is printed beside the wall clock: on a
shared machine it is the steadier of the two. The rest of the path (the codec, the pre-tokens,
the cache) is whatever runs today, so the native row measures the C segmenter alone, not the
whole native path. The functok tokenizer (32k, ``compact`` profile, ``frequent`` fuse) is trained here
on other stdlib files and half the UDHR, as bench/python/tokenizer.py does, unless ``--tokenizer`` gives
one. The GPT-2 rank file is found as bench/python/tokenizer.py finds it.

Goal: optimal >= 0.7x tiktoken once the whole path is native.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import UDHR
import tokenizer as shared  # its corpora and its trained tokenizer (one source for both benchmarks)

CASES = ("optimal-pure", "optimal-native", "greedy", "tiktoken")


def _encoder(case: str, tokenizer_path: str, gpt2_path: str):
    if case == "tiktoken":
        import tiktoken

        from functok.tokenizer.external import PATTERNS, read_tiktoken_ranks

        enc = tiktoken.Encoding("gpt2-local", pat_str=PATTERNS["gpt2"],
                                mergeable_ranks=read_tiktoken_ranks(gpt2_path), special_tokens={})
        return enc.encode_ordinary
    from functok import engine
    from functok.tokenizer import Tokenizer

    if case == "optimal-native" and engine.core is None:
        raise SystemExit("the C core is not built (or FUNCTOK_PURE=1): no native row")
    if case == "optimal-pure":
        engine.segmenter = engine.PURE_ENGINE.segmenter  # the pure Segmenter, the rest of the path unchanged
    tok = Tokenizer.from_file(tokenizer_path)
    segmentation = "greedy" if case == "greedy" else "optimal"
    return lambda text: tok.encode(text, segmentation=segmentation, disallowed_special=()).ids


def child(case: str, corpus_name: str, mb: float, tokenizer_path: str, gpt2_path: str) -> dict:
    docs = shared.corpus(corpus_name, mb)
    encode = _encoder(case, tokenizer_path, gpt2_path)
    encode("warm up the imports, not the caches")
    start, cpu_start = time.perf_counter(), time.process_time()
    tokens = sum(len(encode(doc)) for doc in docs)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    size = sum(len(doc.encode()) for doc in docs) / 1e6
    return {"case": case, "MB": size, "tokens": tokens, "MB/s": size / seconds, "CPU MB/s": size / cpu_seconds,
            "peak_mb": shared._rss_mb()}


def run_child(case: str, corpus_name: str, args, tokenizer_path: str, gpt2_path: str) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", case, corpus_name,
           "--mb", str(args.mb), "--tokenizer", tokenizer_path, "--gpt2", gpt2_path]
    done = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, RAYON_NUM_THREADS="1"))
    if done.returncode:
        raise RuntimeError(f"{case} on {corpus_name} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=2.0, help="MB of stdlib source to encode")
    parser.add_argument("--train-mb", type=float, default=3.0, help="MB of stdlib source to train on")
    parser.add_argument("--vocab-size", type=int, default=32_000)
    parser.add_argument("--tokenizer", help="a saved functok tokenizer (default: train one)")
    parser.add_argument("--gpt2", default="", help="the GPT-2 rank file (gpt2.tiktoken)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "CORPUS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child, args.mb, args.tokenizer, args.gpt2)))
        return 0

    import functok
    from functok.tokenizer.external import find_gpt2_tiktoken

    gpt2 = args.gpt2 or str(find_gpt2_tiktoken() or "")
    print(f"# functok {functok.__version__} ({functok.backend()}), Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores (shared); one process per case, single pass")
    cases = [c for c in CASES if c != "tiktoken" or gpt2]
    if not gpt2:
        print("# GPT-2 rank file not found (--gpt2, $FUNCTOK_GPT2_TIKTOKEN, ~/.cache/functok/gpt2.tiktoken): "
              "no tiktoken baseline")
    corpora = ["stdlib"] + (["udhr"] if UDHR.is_dir() else [])
    with tempfile.TemporaryDirectory() as tmp:
        tokenizer_path = shared.prepare_tokenizer(args, Path(tmp) / "segment-bench.json", profile="compact",
                                                  fuse="frequent")
        print(f"{'corpus':<8}{'case':<16}{'MB':>6}{'tokens':>11}{'MB/s':>9}{'CPU MB/s':>10}{'peak RSS MB':>13}")
        results = {}
        for name in corpora:
            for case in cases:
                r = results[name, case] = run_child(case, name, args, tokenizer_path, gpt2)
                print(f"{name:<8}{case:<16}{r['MB']:>6.1f}{r['tokens']:>11,}{r['MB/s']:>9.2f}{r['CPU MB/s']:>10.2f}"
                      f"{r['peak_mb']:>13.0f}", flush=True)
        print()
        print("ratios (single pass; wall clock / CPU time)")
        for name in corpora:
            for ours, base in (("optimal-native", "optimal-pure"), ("optimal-native", "tiktoken"),
                               ("optimal-pure", "tiktoken"), ("greedy", "tiktoken")):
                if (name, ours) in results and (name, base) in results:
                    a, b = results[name, ours], results[name, base]
                    goal = "  goal >= 0.7x (whole path native)" if (ours, base) == ("optimal-native", "tiktoken") else ""
                    print(f"{name:<8}{ours + ' / ' + base:<34}{a['MB/s'] / b['MB/s']:>6.2f}x /"
                          f"{a['CPU MB/s'] / b['CPU MB/s']:>6.2f}x{goal}")
            if (name, "optimal-native") in results and (name, "optimal-pure") in results:
                same = results[name, "optimal-native"]["tokens"] == results[name, "optimal-pure"]["tokens"]
                print(f"{name:<8}native and pure token counts {'agree' if same else 'DIFFER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
