"""The package's one build step; everything else about it is in pyproject.toml.

``functok demo`` serves the web demo from the installed package, so a built package holds a copy
of the page, functok for JavaScript and the opcode table as ``functok/data/web/``. Nothing of it
is committed: ``build_py`` writes it into the build folder from ``web-demo/``, ``js/src/`` and
``spec/opcodes.json`` (``web-demo/copy_to_package.py`` says which files), and ``sdist`` carries
those sources and the script, so that a wheel built from the sdist has the page too. An editable
install writes nothing: ``functok demo`` finds the checkout above the module and serves it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
GENERATOR = HERE / "web-demo" / "copy_to_package.py"


def generator():
    """web-demo/copy_to_package.py as a module (its folder is not a package)."""
    spec = importlib.util.spec_from_file_location("copy_to_package", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithDemo(build_py):
    """``build_py``, then the demo's files into ``functok/data/web/`` of the build folder."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            copy = generator()
            copy.write(Path(self.build_lib, *copy.PACKAGE_FOLDER), HERE)


class SdistWithDemoSources(sdist):
    """``sdist``, with the demo's sources and the script that copies them."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        for path in [GENERATOR, *generator().sources(HERE)]:
            name = path.relative_to(HERE)
            self.mkpath(str(Path(base_dir, name).parent))
            self.copy_file(str(path), str(Path(base_dir, name)))


setup(cmdclass={"build_py": BuildPyWithDemo, "sdist": SdistWithDemoSources})
