"""The package's build steps that pyproject.toml cannot say: the web demo's files, and the optional
C core.

``functok demo`` serves the web demo from the installed package, so a built package holds a copy
of the page, functok for JavaScript and the opcode table as ``functok/data/web/``. Nothing of it
is committed: ``build_py`` writes it into the build folder from ``web-demo/``, ``js/src/`` and
``spec/opcodes.json`` (``web-demo/copy_to_package.py`` says which files), and ``sdist`` carries
those sources and the script, so that a wheel built from the sdist has the page too. An editable
install writes nothing: ``functok demo`` finds the checkout above the module and serves it.

The grammar files for guided decoding are committed once, in ``spec/grammar/``
(``python -m functok.grammar_export`` writes them); ``build_py`` copies them into
``functok/data/grammar/`` of the build folder, and ``sdist`` carries them, the same way. An
editable install reads ``spec/grammar/`` of the checkout (``grammar_export.grammar_text``).

``functok._native``, the C core, is built from ``native/core/`` where a C compiler is found, and
the package still installs, pure Python, where none is (``optional=True``: a failed build is a
warning, as markupsafe's speedups are). A source tree without ``native/`` (wasm/build.mjs's copy,
for Pyodide) builds the pure wheel. The pure path is the reference either way; ``FUNCTOK_PURE=1``
makes an installed core stand aside at run time (functok/engine.py).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
GENERATOR = HERE / "web-demo" / "copy_to_package.py"
NATIVE = (Path("native", "core"), Path("native", "python"))  # the core, its CPython binding; relative: setuptools wants the sources so
GRAMMAR = HERE / "spec" / "grammar"
GRAMMAR_PACKAGE_FOLDER = ("functok", "data", "grammar")  # functok.grammar_export.PACKAGE_FOLDER


def generator():
    """web-demo/copy_to_package.py as a module (its folder is not a package)."""
    spec = importlib.util.spec_from_file_location("copy_to_package", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grammar_files() -> list[Path]:
    """spec/grammar/'s files. None is an error: a package without them breaks
    ``grammar_export.grammar_text``."""
    files = sorted(GRAMMAR.glob("stream.*"))
    if not files:
        raise FileNotFoundError(f"{GRAMMAR} has no grammar files: the package ships spec/grammar/ "
                                f"as functok/data/grammar/ (python -m functok.grammar_export writes them)")
    return files


class BuildPyWithDemo(build_py):
    """``build_py``, then the demo's files into ``functok/data/web/`` of the build folder, and
    the grammar files into ``functok/data/grammar/``."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            copy = generator()
            copy.write(Path(self.build_lib, *copy.PACKAGE_FOLDER), HERE)
            self.mkpath(str(Path(self.build_lib, *GRAMMAR_PACKAGE_FOLDER)))
            for path in grammar_files():
                self.copy_file(str(path), str(Path(self.build_lib, *GRAMMAR_PACKAGE_FOLDER, path.name)))


class SdistWithDemoSources(sdist):
    """``sdist``, with the demo's sources and the script that copies them, and the grammar files."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        for path in [GENERATOR, *generator().sources(HERE), *grammar_files()]:
            name = path.relative_to(HERE)
            self.mkpath(str(Path(base_dir, name).parent))
            self.copy_file(str(path), str(Path(base_dir, name)))


def native_core() -> list[Extension]:
    if not all((HERE / folder).is_dir() for folder in NATIVE):
        return []
    files = lambda pattern: sorted(str(p.relative_to(HERE)) for folder in NATIVE for p in (HERE / folder).glob(pattern))
    return [Extension(
        "functok._native",
        sources=files("*.c"),
        include_dirs=[str(folder) for folder in NATIVE],
        depends=files("*.h"),
        extra_compile_args=["-std=c11", "-O2"],
        optional=True,
    )]


setup(cmdclass={"build_py": BuildPyWithDemo, "sdist": SdistWithDemoSources}, ext_modules=native_core())
