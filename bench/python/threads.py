"""How ``Tokenizer.encode_batch`` scales from 1 thread to 2, beside tiktoken's scaling measured
in the same run (the machine's control).

    .venv/bin/python bench/python/threads.py [--repeat N] [--mb N] [--tokenizer FILE] [--gpt2 FILE]

On the standard library's source and the UDHR (bench/python/corpora.py's ``UDHR``, or
``$FUNCTOK_UDHR``) it times, in a fresh process for each case and each round:

* functok:  ``Tokenizer.encode_batch(docs, num_threads=1 or 2)`` over the whole corpus in one
            call: a single pass on a fresh tokenizer (empty caches), then warm (the best of
            ``--repeat`` more passes over the same documents);
* tiktoken: ``Encoding.encode_ordinary_batch(docs, num_threads=1 or 2)`` on the GPT-2 ranks (it
            has no cache: its single pass and warm passes do the same work);
* SHA-256:  2 threads hashing against 1 (work that releases the GIL throughout): the most 2
            threads can give on this machine now.

It prints each case's MB/s and the ratio 2 threads / 1 thread (the goal: >= 1.8x,
single pass and warm), and CPU seconds / wall seconds, which shows when the machine's other
load, not the code, held the second thread back (then tiktoken's ratio drops too). Each case
runs ``--rounds`` times, alternating, and the best round of each is kept. ``CPU 2/1`` is the
process's CPU seconds on 2 threads / on 1 (the least of the rounds each): the work that a second
thread adds (a cache each thread fills alone, a lock), which caps the ratio at 2 / it however
idle the machine; it stays readable on a loaded machine, where the wall ratios do not.

The functok tokenizer (32k, ``compact``/``frequent``) is trained here as bench/python/tokenizer.py trains
it, unless ``--tokenizer`` names one. The GPT-2 ranks: ``--gpt2``, ``$FUNCTOK_GPT2_TIKTOKEN`` or
``~/.cache/functok/gpt2.tiktoken`` (scripts/fetch_gpt2_tiktoken.py caches it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import UDHR, read_files, stdlib_files

UDHR_DIR = Path(os.environ.get("FUNCTOK_UDHR") or UDHR)


def corpus(name: str, mb: float) -> list[str]:
    """The measured documents: odd-numbered stdlib files up to ``mb``, or every UDHR translation."""
    if name == "stdlib":
        return read_files(stdlib_files()[1::2], int(mb * 1e6))
    return read_files(sorted(UDHR_DIR.glob("*.txt")), 10**12)


def train(path: Path, vocab_size: int) -> None:
    """bench/python/tokenizer.py's tokenizer: even-numbered stdlib files and every other UDHR translation."""
    from functok.tokenizer import Tokenizer

    text = read_files(stdlib_files()[0::2], int(3e6)) + read_files(sorted(UDHR_DIR.glob("*.txt"))[0::2], 10**12)
    Tokenizer.train(iter(text), vocab_size=vocab_size, show_progress=False).save(path)


# --- one case, in a child process ---------------------------------------------------------------


def batch_encoder(case: str, threads: int, tokenizer: str, gpt2: str):
    if case == "functok":
        from functok.tokenizer import Tokenizer

        tok = Tokenizer.from_file(tokenizer)
        tok.encode_batch(["warm up the imports,", "not the caches"], num_threads=threads)
        tok.clear_caches()
        return lambda docs: tok.encode_batch(docs, num_threads=threads, disallowed_special=())
    import tiktoken

    from functok.tokenizer.external import PATTERNS, read_tiktoken_ranks

    enc = tiktoken.Encoding("gpt2-local", pat_str=PATTERNS["gpt2"], mergeable_ranks=read_tiktoken_ranks(gpt2),
                            special_tokens={})
    enc.encode_ordinary_batch(["warm up the imports,", "not the caches"], num_threads=threads)
    return lambda docs: enc.encode_ordinary_batch(docs, num_threads=threads)


def timed(run, docs) -> tuple[float, float]:
    """(wall, CPU) seconds of one pass; freeing its result (millions of ints) is left out."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run(docs)
    seconds = time.perf_counter() - wall, time.process_time() - cpu
    del result
    return seconds


def child(case: str, corpus_name: str, threads: int, args) -> dict:
    docs = corpus(corpus_name, args.mb)
    run = batch_encoder(case, threads, args.tokenizer, args.gpt2)
    single = timed(run, docs)
    warm = min((timed(run, docs) for _ in range(args.repeat)), default=single)
    return {"MB": sum(len(d.encode()) for d in docs) / 1e6, "single": single, "warm": warm}


def run_child(case: str, corpus_name: str, threads: int, args) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", case, corpus_name, str(threads),
           "--mb", str(args.mb), "--repeat", str(args.repeat), "--tokenizer", args.tokenizer, "--gpt2", args.gpt2]
    done = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, RAYON_NUM_THREADS="1"))
    if done.returncode:
        raise RuntimeError(f"{case} on {corpus_name} with {threads} threads failed:\n{done.stderr}")
    return json.loads(done.stdout)


# --- the machine's control and the report -------------------------------------------------------


def sha256_scaling() -> float:
    """2 threads of SHA-256 / 1 thread, as work done per second (2.0 on two idle cores)."""
    import hashlib
    from concurrent.futures import ThreadPoolExecutor

    data = b"x" * 20_000_000

    def seconds_per_hash(threads: int) -> float:
        with ThreadPoolExecutor(threads) as pool:
            start = time.perf_counter()
            list(pool.map(lambda _: hashlib.sha256(data).digest(), range(threads)))
            return (time.perf_counter() - start) / threads

    return min(seconds_per_hash(1) for _ in range(3)) / min(seconds_per_hash(2) for _ in range(3))


def best(rounds: list[dict], key: str) -> tuple[float, float]:
    """The quickest round's (wall, cpu) seconds for key."""
    return min((r[key] for r in rounds), key=lambda t: t[0])


def report(name: str, results: dict) -> None:
    for case in ("functok", "tiktoken"):
        for key, label in (("single", "single pass"), ("warm", "warm")):
            if (case, 1) not in results:
                continue
            one, two = best(results[case, 1], key), best(results[case, 2], key)
            cpu = min(r[key][1] for r in results[case, 2]) / min(r[key][1] for r in results[case, 1])
            mb = results[case, 1][0]["MB"]
            print(f"{name:<8}{case:<10}{label:<13}{mb / one[0]:>9.2f}{mb / two[0]:>9.2f}{one[0] / two[0]:>8.2f}x"
                  f"{one[1] / one[0]:>9.2f}{two[1] / two[0]:>9.2f}{cpu:>9.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="warm passes per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every case (the best is kept)")
    parser.add_argument("--mb", type=float, default=4.0, help="MB of stdlib source to encode")
    parser.add_argument("--tokenizer", help="a saved functok tokenizer (default: train one, 32k)")
    parser.add_argument("--gpt2", help="the GPT-2 rank file (gpt2.tiktoken)")
    parser.add_argument("--child", nargs=3, metavar=("CASE", "CORPUS", "THREADS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        case, name, threads = args.child
        print(json.dumps(child(case, name, int(threads), args)))
        return 0

    import functok
    from functok.tokenizer.external import find_gpt2_tiktoken

    args.gpt2 = args.gpt2 or str(find_gpt2_tiktoken() or "")
    cases = ["functok"] + (["tiktoken"] if args.gpt2 else [])
    print(f"# functok {functok.__version__} ({functok.backend()} codec), Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start")
    if not args.gpt2:
        print("# GPT-2 rank file not found: the tiktoken control is skipped")
    corpora = ["stdlib"] + (["udhr"] if UDHR_DIR.is_dir() else [])
    with tempfile.TemporaryDirectory() as tmp:
        if not args.tokenizer:
            args.tokenizer = str(Path(tmp) / "tokenizer.json")
            train(Path(args.tokenizer), 32_000)
        print(f"{'corpus':<8}{'case':<10}{'':<13}{'1 thr MB/s':>9}{'2 thr':>9}{'2 / 1':>9}{'cpu/wall 1':>11}{'2':>7}{'CPU 2/1':>9}")
        for name in corpora:
            results: dict = {}
            for _ in range(args.rounds):  # alternating, so that a busy moment hits every case alike
                for case in cases:
                    for threads in (1, 2):
                        results.setdefault((case, threads), []).append(run_child(case, name, threads, args))
            report(name, results)
    print(f"# SHA-256 on 2 threads / 1 thread now: {sha256_scaling():.2f}x (the ceiling here); "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
