"""Adapters for other libraries, each importing its library inside its own module (an optional
extra), so that ``import functok`` loads none of them."""
