"""Build hook: the hot modules compiled with mypyc, when that works; the pure-Python package otherwise.

`pyproject.toml` holds the project's metadata; this file adds only the extension modules.
`webhook/native.py` names the modules (`COMPILED_SOURCES`) and explains how a stale build is never
used. Compiling is attempted only by the commands that build what gets installed (a wheel, an
editable install, ``build_ext``), never for metadata or an sdist. Whatever stops it -- mypyc
missing, its type check or code generation failing, no working C compiler or Python headers -- the
build prints one line saying so and installs the pure-Python package, which gives the same answers
more slowly (docs/performance.md, "Compiling at install"). ``DRA_WEBHOOK_PURE_PYTHON=1`` skips
compiling on purpose.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

PROJECT_DIR = Path(__file__).resolve().parent
native: dict[str, Any] = runpy.run_path(str(PROJECT_DIR / "webhook" / "native.py"))

# The setuptools commands that build the installed package (pip's build_wheel and build_editable
# hooks run bdist_wheel and editable_wheel); egg_info, dist_info and sdist need no extension.
BUILD_COMMANDS = frozenset({"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"})


def say(message: str) -> None:
    print(f"dra-webhook: {message}", file=sys.stderr, flush=True)


def falling_back(reason: str) -> None:
    say(f"installing pure Python, not compiled ({reason}): the same answers, at 1.5 times the CPU per review")


def compiler_failure(error: Exception) -> str:
    """The compiler's command and exit status, not its every flag (its own messages are printed above)."""
    text = str(error)
    failed = re.search(r"Command '\['([^']*)'.*\]' (returned non-zero exit status \d+)", text)
    if failed:
        return f"{failed[1]} {failed[2]}"
    line = text.splitlines()[0] if text else type(error).__name__
    return line if len(line) <= 160 else line[:157] + "..."


class build_native(build_ext):
    """build_ext that installs the pure-Python package when compiling fails, and records which
    sources a successful build was made from (`webhook/native-build.json`)."""

    def run(self) -> None:
        # setuptools clears `inplace` (set for an editable install) while it builds, and an error
        # leaves it cleared: the outputs to remove are found with the value it had.
        in_place = self.inplace
        try:
            super().run()
        except Exception as error:  # no C compiler, no headers, a compiler error: the sources still run
            self.inplace = in_place
            self._remove_outputs()
            falling_back(f"the C compiler failed: {compiler_failure(error)}")
            return
        package_dir = self._package_dir()
        package_dir.mkdir(parents=True, exist_ok=True)
        native["write_build_record"](package_dir, native["source_digests"](PROJECT_DIR))
        say(f"compiled {len(native['compiled_source_files'](PROJECT_DIR))} modules with mypyc")

    def build_extensions(self) -> None:
        # One shared library holds every compiled module and exports only its init function (the
        # modules reach each other through mypyc's capsules, never through the dynamic linker). Built
        # as position-independent code with default visibility, each call between its functions went
        # through the PLT and each global through the GOT, and no call could be inlined; hidden, they
        # are direct: 2 % fewer instructions and 4 % fewer last-level cache misses a review in the
        # server (docs/performance.md, "The compiled build").
        if self.compiler.compiler_type == "unix":
            for extension in self.extensions:
                extension.extra_compile_args = [*extension.extra_compile_args, "-fvisibility=hidden"]
        super().build_extensions()

    def _remove_outputs(self) -> None:
        for extension in self.extensions:  # in place (an editable install) or under build/
            Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
        (self._package_dir() / native["BUILD_RECORD"]).unlink(missing_ok=True)

    def _package_dir(self) -> Path:
        return Path(PROJECT_DIR if self.inplace else self.build_lib) / "webhook"


def extension_modules() -> list[Any]:
    """mypyc's extensions for the compiled sources, or none (pure Python) when they cannot be made."""
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []
    if native["pure_python_requested"]():
        falling_back(f"{native['PURE_PYTHON_ENV']} is set")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        falling_back(f"mypyc cannot be imported: {error}")
        return []
    sources = [str(path.relative_to(PROJECT_DIR)) for path in native["compiled_source_files"](PROJECT_DIR)]
    try:
        return mypycify(sources, opt_level="3", group_name=native["GROUP_NAME"])
    except SystemExit as error:  # mypyc exits after printing its type or compile errors
        message = error.code if isinstance(error.code, str) else "its errors are above"
        falling_back(f"mypyc stopped: {message}")
    except Exception as error:
        falling_back(f"mypyc failed: {type(error).__name__}: {error}")
    return []


setup(ext_modules=extension_modules(), cmdclass={"build_ext": build_native})
