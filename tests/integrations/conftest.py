"""The integrations room's fixtures: the transformers tests' tokenizer and its FunctokTokenizer,
made once per module (a module may define its own ``hf`` instead)."""

from __future__ import annotations

import pytest

import functok
from fixtures.transformers_cases import train


@pytest.fixture(scope="module")
def tok() -> functok.Tokenizer:
    return train()


@pytest.fixture(scope="module")
def hf(tok):
    from functok.integrations.transformers import FunctokTokenizer  # only the transformers tests ask

    return FunctokTokenizer(functok_tokenizer=tok)
