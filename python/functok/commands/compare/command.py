"""``functok compare``: the paper's vocabulary experiment, on any text, and three steps past it.

The paper (its experiment scripts) trains character-level BPE until no pair
is left and compares the vocabulary it ends with, with and without the Functionalizer:

* **baseline** pre-tokens: NFC, then the ``paper`` splitter (``functok.split``);
* **Functionalizer** pre-tokens: ``functok.pretokens(text, splitter="paper", split_operators=True)``;
* the same Hugging Face ``BpeTrainer(vocab_size=4_096_000, special_tokens=<5 tokens>)`` for
  both, everything else at its defaults (``min_frequency=0``), so merges run to exhaustion.

It reports the vocabulary at exhaustion, characters per token on held-out documents
(Σ code points of the raw text / Σ ids) and the distinct pre-tokens, with Δ% against the
baseline. Then it goes past the paper:

* an **ablation**: the codec with only case, only marks, only repeats, none and all
  (``features=``);
* ``split_operators`` false against true;
* **optimal against greedy segmentation** (TSR, spec 10.4) with a fixed vocabulary size;
* **held-out tokens at equal budgets** (``--budgets``), with the vocabulary at equal
  compression and the baseline's redundancy ceiling: :mod:`.budgets`.

Every tokenizer here is character-level *with byte fallback* (the 256 ``<0xNN>`` tokens), the
choice :class:`functok.Tokenizer` makes: a held-out character the training text never showed
costs the tokens of its UTF-8 bytes instead of being dropped, for the baseline exactly as for
the Functionalizer, so chars/token compares like with like. The vocabulary at exhaustion is
counted as the paper counts it: the trainer's vocabulary, without the 256 byte tokens.

Corpora, documents and bad input: :mod:`.corpus`; the variants, training and counting:
:mod:`.train`; the report: :mod:`.report`; the equal-budget table: :mod:`.budgets` and
:mod:`.budgets_report`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...chunks import InputError
from .corpus import (DEFAULT_HELD_OUT_EVERY, DEFAULT_MAX_LINE, Corpus, default_corpora, load_corpus,
                             unique_names)
from ...normalize import nfc
from ...tokenizer.train import MAX_VOCAB_SIZE
from . import budgets as equal_budgets
from .. import command_functions
from ..corpus_cli import add_field_option
from .train import (BASELINE, BYTE_TOKENS, EXHAUSTION_VOCAB_SIZE, FUNCTIONALIZER, SPECIAL_TOKENS,
                            VARIANTS, Variant, count_pretokens, fill_greedy_cache, instruction_tokens, token_count,
                            train_as_the_paper, vocabulary_for, vocabulary_stats, with_byte_fallback)

__all__ = ["EXHAUSTION_VOCAB_SIZE", "SPECIAL_TOKENS", "Variant", "VARIANTS", "add_command", "compare"]

EXIT_BAD_INPUT = 2


# --- One corpus ---------------------------------------------------------------------------


@dataclass
class Options:
    splitter: str = "paper"
    vocab_size: int = 16_000
    progress: bool = False
    budgets: tuple[int, ...] = equal_budgets.DEFAULT_BUDGETS  # () leaves the equal-budget table out


def _pct(new: float, old: float) -> float | None:
    return None if not old else round((new - old) / old * 100, 4)


@dataclass
class Counted:
    """One variant's pre-tokens on one corpus: training counts and held-out counts."""

    variant: Variant
    train: Counter
    held: Counter


def compare_corpus(corpus: Corpus, options: Options, log: Callable[[str], None]) -> dict[str, Any]:
    """Every measurement on one corpus; the dict that report.json holds for it."""
    train, held = corpus.train_texts(), corpus.held_out_texts()
    held_chars = sum(map(len, held))
    rows: dict[str, Any] = {}
    growth: dict[str, Any] = {}
    counted: dict[str, Counted] = {}
    for variant in VARIANTS:
        started = time.monotonic()
        pretokenize = variant.pretokenize(options.splitter)
        counted[variant.key] = c = Counted(
            variant,
            count_pretokens(train, pretokenize, desc=f"{corpus.name}: {variant.key}", progress=options.progress),
            count_pretokens(held, pretokenize))
        rows[variant.key], growth[variant.key] = measure_exhaustion(c, held_chars, options)
        rows[variant.key]["seconds"] = round(time.monotonic() - started, 2)
        log(f"{corpus.name}: {variant.label}: vocabulary {rows[variant.key]['vocabulary']:,}, "
            f"{rows[variant.key]['chars_per_token']} chars/token ({rows[variant.key]['seconds']} s)")
    base = rows[BASELINE.key]
    for row in rows.values():
        row["delta_vocabulary_pct"] = _pct(row["vocabulary"], base["vocabulary"])
        row["delta_distinct_pretokens_pct"] = _pct(row["distinct_pretokens"], base["distinct_pretokens"])
        row["delta_chars_per_token_pct"] = _pct(row["chars_per_token"] or 0, base["chars_per_token"] or 0)
    fixed: dict[str, Any] = {"vocab_size": options.vocab_size}
    for key in (BASELINE.key, FUNCTIONALIZER.key):
        started = time.monotonic()
        fixed[key] = measure_fixed_size(counted[key], held, held_chars, options)
        fixed[key]["seconds"] = round(time.monotonic() - started, 2)
        log(f"{corpus.name}: {fixed[key]['label']} at {options.vocab_size:,}: TSR {fixed[key]['tsr']:.4%} "
            f"({fixed[key]['seconds']} s)")
    result = {"corpus": corpus.summary(), "exhaustion": rows, "growth": growth, "fixed_size": fixed}
    if options.budgets:
        started = time.monotonic()
        same = {key: (counted[old].train, counted[old].held) for key, old in equal_budgets.SAME_AS_EXHAUSTION.items()}
        result["equal_budget"] = equal_budgets.equal_budget(
            train, held, splitter=options.splitter, budgets=options.budgets, counted=same,
            progress=options.progress, log=log, name=corpus.name)
        result["equal_budget"]["seconds"] = round(time.monotonic() - started, 2)
    return result


def measure_exhaustion(c: Counted, held_chars: int, options: Options) -> tuple[dict, list]:
    """The paper's measurement: train to merge exhaustion, count the vocabulary, encode the
    held-out pre-tokens greedily. Returns the row and the growth curve."""
    variant = c.variant
    trained = train_as_the_paper(c.train, vocab_size=EXHAUSTION_VOCAB_SIZE, progress=options.progress)
    stats = vocabulary_stats(trained, c.train)
    growth = stats.pop("growth")
    vocabulary = vocabulary_for(trained, variant, options.splitter)
    fill_greedy_cache(vocabulary, c.held, with_byte_fallback(trained))
    tokens = token_count(vocabulary, c.held)
    splits_instructions = variant.features is not None and variant.split_operators
    row = dict(
        label=variant.label,
        features=None if variant.features is None else sorted(variant.features),
        split_operators=variant.split_operators,
        distinct_pretokens=len(c.train),
        training_pretokens=sum(c.train.values()),
        **stats,
        held_out_characters=held_chars,
        held_out_tokens=tokens,
        held_out_instruction_tokens=instruction_tokens(vocabulary, c.held) if splits_instructions else 0,
        chars_per_token=round(held_chars / tokens, 6) if tokens else None,
    )
    return row, growth


def measure_fixed_size(c: Counted, held: Sequence[str], held_chars: int, options: Options) -> dict:
    """Greedy BPE against optimal segmentation (TSR) with ``options.vocab_size`` tokens in
    all (special, byte and trained tokens), on the held-out pre-tokens. For the
    Functionalizer, the round trip through :meth:`functok.Tokenizer.decode` is checked too."""
    from ...tokenizer.tsr import measure

    trained = train_as_the_paper(c.train, vocab_size=options.vocab_size - BYTE_TOKENS, progress=options.progress)
    vocabulary = vocabulary_for(trained, c.variant, options.splitter)
    fill_greedy_cache(vocabulary, c.held, with_byte_fallback(trained))
    tsr = measure(vocabulary, held)  # `functok tsr`'s own count, per pre-token length too
    greedy, optimal = tsr.greedy, tsr.optimal
    row = {
        "label": c.variant.label,
        "vocabulary": len(vocabulary),
        "held_out_characters": held_chars,
        "greedy_tokens": greedy,
        "optimal_tokens": optimal,
        "chars_per_token_greedy": round(held_chars / greedy, 6) if greedy else None,
        "chars_per_token_optimal": round(held_chars / optimal, 6) if optimal else None,
        "tsr": round(tsr.tsr, 6),
        "by_length": [{"length": b.bucket, "pretokens": b.pretokens, "greedy": b.greedy,
                       "optimal": b.optimal, "tsr": round(b.tsr, 6)} for b in tsr.buckets],
    }
    if c.variant == FUNCTIONALIZER:
        row["round_trip"] = _round_trip(trained, held, options.splitter)
    return row


def _round_trip(trained: dict, held: Sequence[str], splitter: str) -> dict[str, int]:
    """Held-out documents whose ids decode back to their NFC text, greedy and optimal."""
    from ...tokenizer import Tokenizer

    tok = Tokenizer(with_byte_fallback(trained), splitter=splitter)
    exact = {"documents": len(held), "greedy_exact": 0, "optimal_exact": 0}
    for text in held:
        want = nfc(text)
        for mode in ("greedy", "optimal"):
            if tok.decode(tok.encode(text, segmentation=mode, disallowed_special=()).ids) == want:
                exact[f"{mode}_exact"] += 1
    return exact


# --- The command ----------------------------------------------------------------------------


def compare(corpora: Sequence[Corpus], options: Options, log: Callable[[str], None] = lambda s: None) -> dict:
    from ... import SPEC_VERSION, __version__

    import os
    import platform

    import tokenizers

    results = []
    for corpus in corpora:
        results.append(compare_corpus(corpus, options, log))
    return {
        "generator": "functok compare",
        "functok_version": __version__,
        "spec_version": SPEC_VERSION,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(), "tokenizers": tokenizers.__version__},
        "protocol": {
            "splitter": options.splitter,
            "normalizer": "NFC",
            "trainer": "tokenizers.trainers.BpeTrainer",
            "exhaustion_vocab_size": EXHAUSTION_VOCAB_SIZE,
            "min_frequency": 0,
            "special_tokens": len(SPECIAL_TOKENS),
            "byte_fallback_tokens": BYTE_TOKENS,
            "fixed_vocab_size": options.vocab_size,
            "equal_budget": dict(equal_budgets.PROTOCOL, budgets=list(options.budgets),
                                 reference_budget=equal_budgets.REFERENCE_BUDGET) if options.budgets else None,
            "chars_per_token": "sum of code points of the raw held-out text / sum of ids (greedy)",
        },
        "corpora": results,
    }


def run(args: argparse.Namespace) -> int:
    from . import report as compare_report

    started = time.monotonic()
    try:
        import tokenizers  # noqa: F401  (fail early, before reading anything)
    except ImportError:
        print("functok compare: needs Hugging Face tokenizers: pip install 'functok[train]'", file=sys.stderr)
        return EXIT_BAD_INPUT
    progress = not args.no_progress and sys.stderr.isatty()
    problem = _bad_option(args)
    if problem:
        print(f"functok compare: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT

    def log(message: str) -> None:
        if not args.quiet:
            print(f"functok compare: {message}", file=sys.stderr)

    out = Path(args.out)
    try:
        compare_report.check_output(out)  # before any work: the measurement is long
        if args.corpus:
            corpora = [load_corpus(paths, field=args.field, skip_bad=args.skip_bad,
                                   max_line=args.max_line_chars, held_out_every=args.held_out_every)
                       for paths in args.corpus]
        else:
            corpora = default_corpora(max_files=args.max_files, max_line=args.max_line_chars,
                                      held_out_every=args.held_out_every)
        unique_names(corpora)
        compare_report.check_output(out, [c.name for c in corpora])  # the charts are named after them
        _refuse_output_that_is_input(out, corpora)
    except InputError as error:
        print(f"functok compare: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for corpus in corpora:
        for skip in corpus.skipped_summary():
            log(f"{corpus.name}: skipped {skip}")
    options = Options(splitter=args.splitter, vocab_size=args.vocab_size, progress=progress, budgets=args.budgets)
    result = compare(corpora, options, log)
    result["seconds"] = round(time.monotonic() - started, 1)
    try:
        written = compare_report.write_all(result, out)
    except OSError as error:  # the folder changed while the measurement ran, or the disk is full
        print(f"functok compare: --out {out}: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(compare_report.format_table(result))
    print(f"\nwrote {', '.join(str(p) for p in written)} in {result['seconds']} s")
    return 0


def _refuse_output_that_is_input(out: Path, corpora: Sequence[Corpus]) -> None:
    """InputError when a report file would overwrite a corpus file (a file named explicitly is
    read whatever its suffix, so ``--corpus c/report.md --out c`` would)."""
    from .report import budget_chart_name, chart_name
    from ..corpus import input_file_at, shown

    inputs = [path for corpus in corpora for path in corpus.paths]
    names = ["report.json", "report.md", *(f(c.name) for c in corpora for f in (chart_name, budget_chart_name))]
    for name in names:
        clash = input_file_at(out / name, inputs)
        if clash is not None:
            raise InputError(f"--out {shown(out)}: its {name} would overwrite the corpus file {shown(clash)}")


def _bad_option(args: argparse.Namespace) -> str | None:
    """What is wrong with the numeric options, or None."""
    smallest = BYTE_TOKENS + len(SPECIAL_TOKENS) + 1
    if args.vocab_size < smallest:
        return (f"--vocab-size must be at least {smallest} (256 byte tokens and "
                f"{len(SPECIAL_TOKENS)} special tokens are part of it)")
    if args.vocab_size > MAX_VOCAB_SIZE:  # the trainer would abort the interpreter, or overflow
        return (f"--vocab-size {args.vocab_size:,} is over the maximum, {MAX_VOCAB_SIZE:,} (2**24: the trainer "
                f"reserves memory for every entry)")
    if args.held_out_every < 2:
        return "--held-out-every must be at least 2"
    if args.max_files is not None and args.max_files < 1:
        return "--max-files must be at least 1"
    if args.max_line_chars < 1:
        return "--max-line-chars must be at least 1"
    return None


def _budgets(text: str) -> tuple[int, ...]:
    if text.strip().lower() == "none":
        return ()
    try:
        return equal_budgets.parse_budgets(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", nargs="+", action="append", metavar="PATH", default=[],
                        help="a corpus: .txt and .jsonl files (or .gz), .parquet and .arrow files, and "
                             "folders of them (repeat the option for several corpora; default: the "
                             "standard library's .py source and pydoc_data's English topics)")
    add_field_option(parser)
    parser.add_argument("--out", default="functok-report",
                        help="output folder, checked before the measurement starts (default: ./functok-report)")
    parser.add_argument("--vocab-size", type=int, default=16_000,
                        help="vocabulary of the greedy-vs-optimal comparison, at most 2**24 (default: 16000)")
    parser.add_argument("--budgets", type=_budgets, default=equal_budgets.DEFAULT_BUDGETS, metavar="N,N,...",
                        help="vocabulary budgets of the equal-budget table, each counting every entry "
                             f"(the 256 byte tokens too), from 257 to {MAX_VOCAB_SIZE:,} (2**24); 32k means "
                             "32000; 'none' leaves the table out "
                             "(default: " + ",".join(map(str, equal_budgets.DEFAULT_BUDGETS)) + ")")
    parser.add_argument("--splitter", choices=("paper", "llama3"), default="paper",
                        help="the splitter (default: paper, as in the paper)")
    parser.add_argument("--held-out-every", type=int, default=DEFAULT_HELD_OUT_EVERY, metavar="N",
                        help="hold out one document in N, chosen by a hash of its name (default: 20)")
    parser.add_argument("--max-files", type=int, default=None, metavar="N",
                        help="default corpus only: use a fixed sample of N standard-library files")
    parser.add_argument("--max-line-chars", type=int, default=DEFAULT_MAX_LINE, metavar="N",
                        help="skip (and count) documents with a line longer than N code points "
                             f"(default: {DEFAULT_MAX_LINE:,})")
    parser.add_argument("--skip-bad", action="store_true",
                        help="skip (and count) folders that cannot be listed, unreadable files, "
                             "invalid UTF-8 and bad .jsonl lines instead of stopping")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--quiet", action="store_true", help="no step-by-step log on stderr")
    parser.set_defaults(func=run)


HELP = "vocabulary at merge exhaustion and chars/token, baseline vs Functionalizer"
DESCRIPTION = """The paper's vocabulary experiment on your text (or the built-in default), with an
ablation, split_operators false, greedy vs optimal segmentation, and held-out tokens at equal
vocabulary budgets."""
add_command, main = command_functions("compare", configure, help=HELP, description=DESCRIPTION,
                                      alone=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
