"""transformers' own tokenizer tests (``TokenizerTesterMixin``) run against FunctokTokenizer.

The mixin is part of transformers' test suite, which its wheel leaves out and its source
distribution on PyPI ships (``tests/test_tokenization_common.py`` and the two backend mixins it
imports). scripts/test.sh fetches that sdist for the installed version with pip (``pip download
--no-binary :all: --no-deps transformers==X``), unpacks its ``tests/`` folder and names it in
``FUNCTOK_TRANSFORMERS_TESTS`` (scripts/fetch_transformers_tests.py). The torch lane of
scripts/test.sh runs this module, with torch (the mixin has tests that need it) and
``RUN_SLOW=1`` (one of its tests is marked slow); elsewhere, without the variable, it is skipped,
and with the variable set to a folder that lacks the mixin it fails.

Each of the adapter's three configurations runs the whole mixin: the default (NFC, no special
tokens around a sequence), no normalization, and bos/eos around each sequence. The mixin's own
``setUpClass`` reads a fixture file its sdist lacks and downloads a hub model: here it is
replaced by a functok tokenizer trained in the test and saved with ``save_pretrained``, which
every test loads as transformers' tests load a hub model's folder.

All three have GPT-2's default ``add_prefix_space=False``, with which the mixin's
``test_pretokenized_inputs`` returns at its first line, as it does for GPT-2's tokenizer. With
``add_prefix_space=True`` it cannot pass for GPT-2's tokenizer either (the sequence it builds
starts with two spaces): tests/integrations/test_transformers_prefix_space.py shows that, and checks the
property it means, in these three configurations, with ``add_prefix_space=True``.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import tempfile
import types
import unittest
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("parameterized")  # the mixin's own import
from fixtures.transformers_cases import TEXTS, train  # noqa: E402

from functok.integrations.transformers import FunctokTokenizer  # noqa: E402

MIXIN_FOLDER = os.environ.get("FUNCTOK_TRANSFORMERS_TESTS")
PACKAGE = "transformers_own_tests"  # the name the unpacked tests/ folder is imported under
# What the mixin's setUpClass reads as `self._data` (its fixture file, not in the sdist): some text.
SAMPLE_TEXT = "\n".join(TEXTS)


def load_mixin(folder: str):
    """``test_tokenization_common.py`` of transformers' sdist, imported as a module of a package
    made of ``folder`` (it imports its sibling mixins relatively)."""
    package = types.ModuleType(PACKAGE)
    package.__path__ = [folder]
    sys.modules[PACKAGE] = package
    return importlib.import_module(f"{PACKAGE}.test_tokenization_common")


if not MIXIN_FOLDER:
    pytest.skip("transformers' tests/ folder (its sdist's) is not named in FUNCTOK_TRANSFORMERS_TESTS",
                allow_module_level=True)
if not Path(MIXIN_FOLDER, "test_tokenization_common.py").is_file():
    pytest.fail(f"FUNCTOK_TRANSFORMERS_TESTS={MIXIN_FOLDER} holds no test_tokenization_common.py: "
                f"run scripts/fetch_transformers_tests.py {MIXIN_FOLDER}", pytrace=False)
common = load_mixin(MIXIN_FOLDER)


class FunctokTesterMixin(common.TokenizerTesterMixin):
    """The mixin over a functok tokenizer saved to a folder (``tmpdirname``), made with
    ``functok_options`` and ``tokenizer_options``."""

    tokenizer_class = FunctokTokenizer
    functok_options: dict = {}
    tokenizer_options: dict = {}

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmpdirname = tempfile.mkdtemp()
        FunctokTokenizer(functok_tokenizer=train(**cls.functok_options),
                         **cls.tokenizer_options).save_pretrained(cls.tmpdirname)
        cls.from_pretrained_id = [cls.tmpdirname]  # the saved folder stands for a hub model's
        cls.tokenizers_list = [(cls.tokenizer_class, cls.tmpdirname, {})]
        cls._data = SAMPLE_TEXT

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmpdirname, ignore_errors=True)


class TestDefault(FunctokTesterMixin, unittest.TestCase):
    """NFC, nothing around a sequence (``special_tokens_pattern="none"``)."""


class TestWithoutNormalization(FunctokTesterMixin, unittest.TestCase):
    functok_options = {"normalize": None}


class TestBosEos(FunctokTesterMixin, unittest.TestCase):
    tokenizer_options = {"special_tokens_pattern": "bos_eos"}
