"""Adapters between functok and other libraries, one module per library, each an optional extra.

Nothing is imported here: ``import functok`` and ``import functok.integrations`` load none of
these libraries. Import the adapter you need, for example
``from functok.integrations.transformers import FunctokTokenizer`` (``pip install 'functok[hf]'``).
"""
