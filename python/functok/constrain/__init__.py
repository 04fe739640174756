"""Constrained generation: next-token masks that keep a model's ids strictly decodable.

:class:`Constraint` (:mod:`.masks`) takes a :class:`functok.Tokenizer` and, for the ids so far,
gives the ids that may come next so that ``tokenizer.decode(ids)`` (strict) succeeds once the
sequence ends where :attr:`State.end_allowed` says it may; :mod:`.automaton` is the strict
decoder run forwards, one code point at a time. :func:`sample` (:mod:`.sampling`) draws ids
under it from plain lists of logits (or numpy arrays), and
:class:`FunctokLogitsProcessor` (:mod:`.hf`) is the ``transformers`` adapter, which imports
``transformers`` only when it is built. This package sits above the tokenizer: it reads the
:class:`functok.Tokenizer` it is handed (its token table and special tokens) and imports only the
codec's core, and no other part of functok imports it (ARCHITECTURE.md's arrows).
"""

from .masks import MODES as MODES
from .masks import Constraint as Constraint
from .masks import DisallowedTokenError as DisallowedTokenError
from .masks import State as State
from .sampling import sample as sample
from .sampling import generate as generate
from .hf import FunctokLogitsProcessor as FunctokLogitsProcessor

__all__ = ["MODES", "Constraint", "DisallowedTokenError", "FunctokLogitsProcessor", "State", "generate", "sample"]
