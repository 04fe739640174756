"""The build's one step that pyproject.toml cannot say: functok's optional C core.

`functok._native` is built from native/src/ where a C compiler is found, and the package still
installs, pure Python, where none is (``optional=True``: a failed build is a warning, as
markupsafe's speedups are). The pure path is the reference either way; ``FUNCTOK_PURE=1`` makes
an installed core stand aside at run time.
"""

from pathlib import Path

from setuptools import Extension, setup

SOURCES = sorted(str(p) for p in Path("native", "src").glob("*.c"))

setup(ext_modules=[Extension(
    "functok._native",
    sources=SOURCES,
    include_dirs=["native/src"],
    depends=[str(p) for p in Path("native", "src").glob("*.h")],
    extra_compile_args=["-std=c11", "-O2"],
    optional=True,
)])
