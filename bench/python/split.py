"""Splitter throughput: functok's stdlib-`re` patterns against `regex` with the spec's text.

    .venv/bin/python bench/python/split.py [--repeat N]

For each corpus (the standard library's source; the UDHR where present; a synthetic mix of
astral text: emoji, math letters and digits, CJK Extension B, Gothic) and each splitter it
prints MB/s of UTF-8 input for `regex.findall(<spec pattern>)` (the baseline), for
`functok.splitting.pattern(s).findall` (what the encoder calls), and the ratio functok / regex.
Both run in the same process, interleaved, best of N, so the ratio holds on a busy machine.
The codec's goal is encode >= 0.8x the bare regex split, so this ratio should be >= 1.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sysconfig
import time
from pathlib import Path

import regex

split_module = importlib.import_module("functok.splitting")

UDHR = Path(__file__).resolve().parents[2] / "corpora" / "udhr"


def stdlib_text() -> str:
    parts = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if {"site-packages", "dist-packages"} & set(path.parts):
            continue
        try:
            parts.append(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, OSError):
            continue
    return "".join(parts)


def udhr_text() -> str | None:
    if not UDHR.is_dir():
        return None
    return "".join(p.read_text(encoding="utf-8") for p in sorted(UDHR.iterdir()) if p.is_file())


def astral_text(words: int = 200_000) -> str:
    """Words from outside the BMP between ASCII ones, reproducibly: `re` handles these
    through look-behinds (functok.splitting._astral_lookup), so they get their own row."""
    rng = random.Random(18)
    choices = [" lol", " \U0001f600", "\U0001f602\U0001f602", " \U0001d400\U0001d401", " \U0001d7cf",
               " \U00020000\U00020001", " \U00010330\U00010331", ",", " ok"]
    return "".join(rng.choice(choices) for _ in range(words))


def best_times(repeat: int, text: str, functions: dict) -> dict[str, float]:
    """Best wall time of each function on `text`, running them in turn `repeat` times."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeat):
        for name, fn in functions.items():
            start = time.perf_counter()
            fn(text)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    corpora = {"stdlib": stdlib_text(), "udhr": udhr_text(), "astral": astral_text()}
    print(f"{'corpus':8} {'splitter':8} {'MB':>6} {'regex MB/s':>11} {'functok MB/s':>13} {'ratio':>6}")
    for corpus, text in corpora.items():
        if text is None:
            print(f"{corpus:8} (absent: {UDHR})")
            continue
        mb = len(text.encode()) / 1e6
        for splitter in split_module.SPLITTERS:
            ours = split_module.pattern(splitter)  # compiled outside the timing
            theirs = regex.compile(split_module.SPEC_PATTERNS[splitter])
            assert ours.findall(text) == theirs.findall(text), f"{corpus}/{splitter}: pieces differ"
            t = best_times(args.repeat, text, {"regex": theirs.findall, "functok": ours.findall})
            print(
                f"{corpus:8} {splitter:8} {mb:6.1f} {mb / t['regex']:11.1f} "
                f"{mb / t['functok']:13.1f} {t['regex'] / t['functok']:5.2f}x"
            )


if __name__ == "__main__":
    main()
