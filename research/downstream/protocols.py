"""The four protocols of the study: which text trains, which is held out.

Every protocol uses `functok compare`'s own corpus loaders (functok.commands.compare.corpus), so
the documents and the held-out rule are compare's:

* ``udhr-languages``: the UDHR, whole languages held out, as research/equal-budget did it
  (sorted files; train = files[0::2] + files[1::4], held out = files[3::4]); documents are
  paragraphs (compare's cutting);
* ``udhr-paragraphs``: ``functok compare --corpus corpora/udhr``: one paragraph in
  20 held out by CRC-32 of its name, so every language is in training;
* ``code``: compare's default code corpus (the standard library's .py files, files held out by
  CRC-32 of the path), sampled with compare's own ``--max-files`` rule to fit the CPU budget;
* ``prose``: compare's default prose corpus (pydoc_data topics, paragraphs held out).

The model is scored on an evaluation subset of the held-out documents (fixed, the same for
every variant and seed), capped at about EVAL_CHARS code points so that scoring stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from functok.commands.compare.corpus import (DEFAULT_HELD_OUT_EVERY, load_corpus, paragraphs, pydoc_corpus, read_text,
                                             stdlib_corpus)
from functok.commands.corpus import DEFAULT_MAX_LINE

# The UDHR translations the repository carries (corpora/udhr/): the one place research names them.
UDHR = Path(__file__).resolve().parents[2] / "corpora" / "udhr"
CODE_MAX_FILES = 300  # compare --max-files 300: the CPU budget, not the protocol
EVAL_CHARS = 120_000
PER_LANGUAGE_EVAL_CHARS = 1_000  # udhr-languages: the first paragraphs of every held-out language
ORDER = ("udhr-languages", "udhr-paragraphs", "code", "prose")  # the grid's order (the study's brief)


@dataclass
class Split:
    name: str
    description: str
    train: list[str]  # training documents (tokenizer and model)
    held: list[str]  # every held-out document (compression counts)
    evaluation: list[str]  # the held-out documents the model is scored on


def _capped(docs: list[str], cap: int = EVAL_CHARS) -> list[str]:
    """Every k-th held-out document, k chosen so that about ``cap`` code points remain."""
    total = sum(map(len, docs)) or 1
    step = max(1, round(total / cap))
    return docs[::step]


def _from_corpus(name: str, description: str, corpus) -> Split:
    held = corpus.held_out_texts()
    return Split(name, description, corpus.train_texts(), held, _capped(held))


def udhr_languages() -> Split:
    files = sorted(UDHR.glob("*.txt"))
    train_files, held_files = files[0::2] + files[1::4], files[3::4]
    train = [p for f in train_files for p in paragraphs(read_text(f))]
    held_by_language = [paragraphs(read_text(f)) for f in held_files]
    evaluation = []
    for parts in held_by_language:
        taken = 0
        for p in parts:
            if taken >= PER_LANGUAGE_EVAL_CHARS:
                break
            evaluation.append(p)
            taken += len(p)
    return Split("udhr-languages",
                 f"UDHR {len(files)} files: train {len(train_files)} languages, hold out {len(held_files)} "
                 f"whole languages (files[3::4]); scored on the first ~{PER_LANGUAGE_EVAL_CHARS} chars of each",
                 train, [p for parts in held_by_language for p in parts], evaluation)


def udhr_paragraphs() -> Split:
    corpus = load_corpus([str(UDHR)], held_out_every=DEFAULT_HELD_OUT_EVERY)
    return _from_corpus("udhr-paragraphs", "functok compare --corpus udhr/: 1 paragraph in 20 held out", corpus)


def code() -> Split:
    corpus = stdlib_corpus(CODE_MAX_FILES, DEFAULT_MAX_LINE, DEFAULT_HELD_OUT_EVERY)
    return _from_corpus("code", f"functok compare default code corpus, --max-files {CODE_MAX_FILES} "
                                f"({corpus.sampling}); files held out", corpus)


def prose() -> Split:
    corpus = pydoc_corpus(DEFAULT_MAX_LINE, DEFAULT_HELD_OUT_EVERY)
    return _from_corpus("prose", "functok compare default prose corpus (pydoc_data topics, paragraphs)", corpus)


PROTOCOLS = {"udhr-languages": udhr_languages, "udhr-paragraphs": udhr_paragraphs, "code": code, "prose": prose}
