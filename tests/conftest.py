"""Shared test helpers: where the corpora are, and Hypothesis's example budget.

The tests live in rooms, one folder each (codec/, tokenizer/, engine/, constrain/, conformance/,
commands/, integrations/, docs/). Each room is a package (its __init__.py), so that two rooms may
hold files of the same name (engine/test_codec.py holds every engine to codec/test_codec.py's
reference) and pytest imports them as ``codec.test_codec`` and ``engine.test_codec``. This folder
has no __init__.py: pytest puts it on sys.path, so ``from conftest import ...`` is this module
(not a second copy) and the helpers of fixtures/ import as ``fixtures.NAME``. No test file imports
another: what tests share lives here or in fixtures/.
"""

from __future__ import annotations

import contextlib
import os
import sysconfig
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
# The corpora the repository carries (corpora/README.md): a fresh clone tests itself.
UDHR = REPO / "corpora" / "udhr"
STDLIB = Path(sysconfig.get_paths()["stdlib"])

# CI and local runs can differ: FUNCTOK_HYPOTHESIS_EXAMPLES sets the examples per property.
settings.register_profile("functok", max_examples=int(os.environ.get("FUNCTOK_HYPOTHESIS_EXAMPLES", "200")),
                          deadline=None)
settings.load_profile("functok")


def udhr_files() -> list[Path]:
    """The UDHR corpus files (corpora/udhr/, 532 translations). The repository carries them, so a
    missing corpus is a broken checkout: the tests that read it fail, they never skip."""
    files = sorted(UDHR.glob("*.txt"))
    assert len(files) == 532, f"the UDHR corpus at {UDHR} has {len(files)} files, not 532: a broken checkout"
    return files


def stdlib_sources() -> list[Path]:
    """The standard library's own .py files: a real code corpus on every machine."""
    return sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)


def native_or_skip():
    """functok's C core (``functok._native``): where a C compiler exists ``pip install`` builds it,
    and CI has one, so there a missing core is a failure, not a skip."""
    import importlib
    try:
        return importlib.import_module("functok._native")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("functok._native is not built: CI has a compiler, so `pip install` should build it")
        pytest.skip("functok._native is not built here (no C compiler at install time)")


@contextlib.contextmanager
def running_on(chosen):
    """Run functok on the engine ``chosen`` (a :class:`functok.engine.Engine`) inside the block:
    the seam's ops, :func:`functok.encode` and :func:`functok.decode` are its, and so is every
    tokenizer made inside (its compiled parts come from the seam when they are built)."""
    import functok
    from functok import engine as seam

    names = ("current", "core", *seam.OPS)
    saved = {name: getattr(seam, name) for name in names}
    saved_public = functok.encode, functok.decode
    seam.current, seam.core = chosen, (seam._core_module if chosen is seam.NATIVE_ENGINE else None)
    for name in seam.OPS:
        setattr(seam, name, getattr(chosen, name))
    functok.encode, functok.decode = chosen.encode, chosen.decode
    try:
        yield chosen
    finally:
        for name, value in saved.items():
            setattr(seam, name, value)
        functok.encode, functok.decode = saved_public


# The engines a run holds to the reference: both, or the pure one alone under FUNCTOK_PURE=1 (that
# run is the pure lane of scripts/test.sh; the main lane runs both), so no test is collected only
# to be skipped.
ENGINE_NAMES = ["pure"] if os.environ.get("FUNCTOK_PURE", "") not in ("", "0") else ["native", "pure"]


@pytest.fixture(scope="module", params=ENGINE_NAMES)
def engine(request):
    """Each engine in turn (a :class:`functok.engine.Engine`), with functok running on it
    (:func:`running_on`): the one backend fixture of the differential tests, which hold every
    engine to the reference modules. A C core that is not built is a skip here and a failure on
    CI (:func:`native_or_skip`)."""
    from functok import engine as seam

    chosen = {e.name: e for e in seam.available()}.get(request.param)
    if chosen is None:
        native_or_skip()
        pytest.skip(f"the {request.param} engine is not available")
    with running_on(chosen):
        yield chosen


def read_text_or_none(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def assert_decode_error(stream: str, kind: str, offset: int, lenient: str, max_output: int | None) -> dict:
    """The strict decoder stops ``stream`` at its first error, ``kind`` at ``offset``, and the
    lenient one returns ``lenient``, both under ``max_output`` when it is not None. The limits,
    for more checks under the same ones."""
    from functok import FormatError, decode

    limits = {} if max_output is None else {"max_output": max_output}
    with pytest.raises(FormatError) as info:
        decode(stream, **limits)
    assert (info.value.kind, info.value.offset) == (kind, offset)
    assert decode(stream, errors="replace", **limits) == lenient
    return limits


def blocks_of(text: str, sizes: list[int]):
    """``text`` in blocks of the given sizes, then the rest in one block (as reads of a file give)."""
    i = 0
    for size in sizes:
        if i >= len(text):
            return
        yield text[i:i + size]
        i += size
    if i < len(text):
        yield text[i:]


def damaged(draw, ids: list[int], pool, max_edits: int) -> list[int]:
    """``ids`` with up to ``max_edits`` random edits (Hypothesis ``draw``): an id deleted, or a
    unit of ids drawn from the strategy ``pool`` inserted."""
    for _ in range(draw(st.integers(0, max_edits))):
        at = draw(st.integers(0, len(ids)))
        if draw(st.booleans()) and at < len(ids):
            del ids[at]
        else:
            ids[at:at] = draw(pool)
    return ids


@st.composite
def random_bpe(draw, max_merges: int = 15):
    """A random BPE over 'abc': (vocab, merges), a merge listed twice and several merges making
    the same token included; the vocabulary is the three letters, then each new token in the
    order its first merge makes it."""
    tokens = ["a", "b", "c"]
    merges = []
    for _ in range(draw(st.integers(0, max_merges))):
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        merges.append((a, b))
        if a + b not in tokens:
            tokens.append(a + b)
    return {t: i for i, t in enumerate(tokens)}, merges
