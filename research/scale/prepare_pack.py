"""The prepare step, on the CPU machine: corpora from their pinned sources, a fixed sample of
each packed as compressed text, and every variant's tokenizer trained on it, into one folder
that travels to the GPU machine (at most PACK_LIMIT bytes, under the 64 MiB a run carries).

    .venv-torch/bin/python research/scale/prepare_pack.py                 # the real pack (downloads the sdists)
    .venv-torch/bin/python research/scale/prepare_pack.py --tiny --pack /tmp/tiny-pack   # minutes, no download

The pack: manifest.json (sources and their sha256, sizes, budget, what was sampled),
<corpus>.train.json.xz and <corpus>.eval.json.xz (JSON lists of documents),
tokenizers/<corpus>.<variant>.json.xz (tokenizer.json dicts, byte tokens not yet added).
build_wheels.sh then adds wheels/ (functok with its C core, and tokenizers, for the GPU
machine's Python).
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import sources  # noqa: E402
import streams  # noqa: E402

PACK_LIMIT = 56 * 2**20  # leaves room under the 64 MiB carry for wheels/ (about 4 MiB)
FULL = {"budget": 16_000, "train_mb": {"code": 220, "prose": 30, "udhr": 30}, "eval_mb": 1.0, "tokenizer_mb": 40}
TINY = {"budget": 1_000, "train_mb": {"code": 0.3, "prose": 0.3, "udhr": 0.3}, "eval_mb": 0.03, "tokenizer_mb": 0.3,
        "code_files": 40}


def sample(docs: list[str], mb: float, seed: int = 0) -> list[str]:
    """Documents in a fixed shuffled order until ``mb`` MB of UTF-8 (the whole list when less)."""
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    out, size = [], 0
    for k in order:
        if size >= mb * 1e6:
            break
        out.append(docs[k])
        size += len(docs[k].encode())
    return out


def every_kth(docs: list[str], mb: float) -> list[str]:
    """Every k-th held-out document, k chosen so that about ``mb`` MB remain (research/downstream's rule)."""
    total = sum(len(d.encode()) for d in docs) or 1
    return docs[::max(1, round(total / (mb * 1e6)))]


def write_xz(path: Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lzma.compress(json.dumps(value, ensure_ascii=False).encode(), preset=9 | lzma.PRESET_EXTREME))


def corpora(tiny: bool, sdists: Path, names: list[str]) -> list[sources.Corpus]:
    if tiny:
        code, prose = sources.installed(TINY["code_files"])
    else:
        code, prose = sources.from_sdists(sources.download(sdists))
        if code.size() < sources.MIN_CODE_MB * 1e6:
            raise SystemExit(f"code is {code.size() / 1e6:.0f} MB, under the {sources.MIN_CODE_MB} MB floor")
    udhr = sources.udhr() if "udhr" in names else None
    if "udhr" in names and udhr is None:
        print("the UDHR folder is not there: no udhr corpus", file=sys.stderr)
    return [c for c in (code, prose, udhr) if c is not None and c.name in names]


def _commit() -> dict:
    """The commit the pack was made at (the GPU machine's copy of the tree may have no .git)."""
    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=HERE, capture_output=True, text=True).stdout.strip()
    modified = git("status", "--porcelain", "--", "../../python", "..")
    return {"head": git("rev-parse", "HEAD"), "research_or_package_modified": bool(modified)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", type=Path, default=HERE / "pack")
    parser.add_argument("--sdists", type=Path, default=HERE / "cache" / "sdists")
    parser.add_argument("--tiny", action="store_true", help="installed sources, small samples, budget 1,000")
    parser.add_argument("--budget", type=int, help="override the budget (16,000 by default; 32,000 fits too)")
    parser.add_argument("--corpora", nargs="*", default=["code", "prose", "udhr"], choices=["code", "prose", "udhr"])
    args = parser.parse_args(argv)
    plan = dict(TINY if args.tiny else FULL)
    budget = args.budget or plan["budget"]
    if args.pack.exists():
        shutil.rmtree(args.pack)
    manifest = {"commit": _commit(), "budget": budget, "splitter": streams.SPLITTER, "variants": list(streams.VARIANTS),
                "tiny": args.tiny, "corpora": {}}
    for corpus in corpora(args.tiny, args.sdists, args.corpora):
        started = time.monotonic()
        train = sample(corpus.train, plan["train_mb"][corpus.name])
        evaluation = every_kth(corpus.held, plan["eval_mb"])
        write_xz(args.pack / f"{corpus.name}.train.json.xz", train)
        write_xz(args.pack / f"{corpus.name}.eval.json.xz", evaluation)
        tokenizer_text = sample(train, plan["tokenizer_mb"], seed=1)
        for key in streams.VARIANTS:
            write_xz(args.pack / "tokenizers" / f"{corpus.name}.{key}.json.xz", streams.train(key, tokenizer_text, budget))
        manifest["corpora"][corpus.name] = {
            "sources": corpus.sources, "all_bytes": corpus.size(), "train_documents": len(corpus.train),
            "held_documents": len(corpus.held), "packed_train_documents": len(train),
            "packed_train_bytes": sum(len(t.encode()) for t in train), "eval_documents": len(evaluation),
            "eval_bytes": sum(len(t.encode()) for t in evaluation),
            "tokenizer_bytes": sum(len(t.encode()) for t in tokenizer_text)}
        print(f"{corpus.name}: {corpus.size() / 1e6:.1f} MB in all, {manifest['corpora'][corpus.name]['packed_train_bytes'] / 1e6:.1f} "
              f"MB packed for training, tokenizers trained ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    (args.pack / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum(p.stat().st_size for p in args.pack.rglob("*") if p.is_file())
    print(f"pack: {size / 2**20:.1f} MiB in {args.pack}", file=sys.stderr)
    if size > PACK_LIMIT:
        raise SystemExit(f"the pack is {size / 2**20:.1f} MiB, over {PACK_LIMIT / 2**20:.0f} MiB: lower train_mb")
    return 0


if __name__ == "__main__":
    sys.exit(main())
