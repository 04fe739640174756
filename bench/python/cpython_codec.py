"""CPython functok's side of bench/node/vs-python.mjs (run by it; not a standalone benchmark).

    python bench/python/cpython_codec.py corpora OUTDIR     # write the corpora, print their paths
    python bench/python/cpython_codec.py time FILE...       # one cold pass of encode and decode per file

`time` clears functok's encoder and decoder caches before each pass (as bench/python/codec.py does for
its cold figures), times one `functok.encode(text)` and one `functok.decode(stream)`, and prints
one JSON line per file: MB/s of UTF-8 input (wall clock, and per CPU second) and SHA-256 digests of the stream and decoded text.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
import time
from pathlib import Path


def clear_caches() -> list[str]:
    """Empty every functok cache that has a clear_caches (module names as of functok 0.x)."""
    cleared = []
    for name in ("functok.encoding", "functok.decoding_cache", "functok.codec.encode", "functok.codec.decode"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        fn = getattr(module, "clear_caches", None)
        if callable(fn):
            fn()
            cleared.append(name)
    return cleared


def write_corpora(outdir: Path) -> None:
    from corpora import UDHR, read_files, stdlib_files

    outdir.mkdir(parents=True, exist_ok=True)
    corpora = {"stdlib": "".join(read_files(stdlib_files(), 20_000_000))}
    corpora["udhr"] = "\n".join(read_files(sorted(UDHR.glob("*.txt")), 10**12))
    for name, text in corpora.items():
        path = outdir / f"{name}.txt"
        path.write_text(text, encoding="utf-8", newline="")
        print(json.dumps({"name": name, "path": str(path)}))


def time_files(files: list[str]) -> None:
    import functok

    for file in files:
        with open(file, encoding="utf-8", newline="") as f:
            text = f.read()
        mb = len(text.encode()) / 1e6
        cleared = clear_caches()
        start, cpu = time.perf_counter(), time.process_time()
        stream = functok.encode(text)
        t_enc, c_enc = time.perf_counter() - start, time.process_time() - cpu
        clear_caches()
        start, cpu = time.perf_counter(), time.process_time()
        back = functok.decode(stream)
        t_dec, c_dec = time.perf_counter() - start, time.process_time() - cpu
        print(json.dumps({
            "file": file, "mb": mb, "encode": mb / t_enc, "decode": mb / t_dec,
            "encode_cpu": mb / c_enc, "decode_cpu": mb / c_dec, "cleared": cleared,
            "stream_sha256": hashlib.sha256(stream.encode("utf-8", "surrogatepass")).hexdigest(),
            "decoded_sha256": hashlib.sha256(back.encode("utf-8", "surrogatepass")).hexdigest(),
            "version": getattr(functok, "__version__", "?"),
        }), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "corpora":
        write_corpora(Path(sys.argv[2]))
    elif sys.argv[1] == "time":
        time_files(sys.argv[2:])
    else:
        sys.exit(__doc__)
