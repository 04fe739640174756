"""The old path of the external vocabularies, kept because bench/tokenize.py imports it: the code
is :mod:`functok.tokenizer.external` (loaders) and :mod:`functok.tokenizer.vocabulary`."""

from .tokenizer.bpe import reachable_by_merges as reachable_by_merges
from .tokenizer.external import PATTERNS as PATTERNS
from .tokenizer.external import bytes_to_unicode as bytes_to_unicode
from .tokenizer.external import find_gpt2_tiktoken as find_gpt2_tiktoken
from .tokenizer.external import load_hf as load_hf
from .tokenizer.external import load_tiktoken as load_tiktoken
from .tokenizer.external import load_vocabulary as load_vocabulary
from .tokenizer.external import pattern_for as pattern_for
from .tokenizer.external import read_tiktoken_ranks as read_tiktoken_ranks
from .tokenizer.vocabulary import Vocabulary as Vocabulary

__all__ = ["PATTERNS", "Vocabulary", "bytes_to_unicode", "find_gpt2_tiktoken", "load_hf", "load_tiktoken",
           "load_vocabulary", "pattern_for", "reachable_by_merges", "read_tiktoken_ranks"]
