"""Build hook: the hot modules compiled with mypyc, when a C compiler is at hand.

`pyproject.toml` holds the project's metadata; this file adds only the extension modules.
`webhook/native.py` names the modules (`COMPILED_SOURCES`) and explains how a stale build is never
used. Without a working compiler the build warns and installs the pure-Python package, which runs
the same code more slowly (the load mix takes 1.8 times the instructions in process);
``DRA_WEBHOOK_PURE_PYTHON=1`` skips compiling on purpose.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

PROJECT_DIR = Path(__file__).resolve().parent
native: dict[str, Any] = runpy.run_path(str(PROJECT_DIR / "webhook" / "native.py"))


class build_native(build_ext):
    """build_ext that installs the pure-Python package when compiling fails, and records which
    sources a successful build was made from (`webhook/native-build.json`)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing compiler or headers: the sources still run
            self.warn(f"compiling with mypyc failed ({error}); installing pure Python")
            self._remove_outputs()
            return
        package_dir = self._package_dir()
        package_dir.mkdir(parents=True, exist_ok=True)
        native["write_build_record"](package_dir, native["source_digests"](PROJECT_DIR))

    def _remove_outputs(self) -> None:
        for extension in self.extensions:  # in place (an editable install) or under build/
            Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
        (self._package_dir() / native["BUILD_RECORD"]).unlink(missing_ok=True)

    def _package_dir(self) -> Path:
        return Path(PROJECT_DIR if self.inplace else self.build_lib) / "webhook"


def extension_modules() -> list[Any]:
    if native["pure_python_requested"]():
        print("dra-webhook: DRA_WEBHOOK_PURE_PYTHON is set: not compiling", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("dra-webhook: mypyc is not installed: not compiling", file=sys.stderr)
        return []
    sources = [str(path.relative_to(PROJECT_DIR)) for path in native["compiled_source_files"](PROJECT_DIR)]
    return mypycify(sources, opt_level="3", group_name=native["GROUP_NAME"])


setup(ext_modules=extension_modules(), cmdclass={"build_ext": build_native})
