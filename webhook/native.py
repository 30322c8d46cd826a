"""Which build of the hot modules runs: compiled with mypyc, or the Python sources.

The structural check, the field errors and every rule (`COMPILED_SOURCES`) are compiled by mypyc
when the project is installed (`setup.py`): the same code, type-checked by `mypy --strict`, runs as
a C extension with far fewer instructions per review (docs/performance.md has the figures). The
build is a cache of the sources, and this module makes sure a stale cache is never used:

* the build writes `BUILD_RECORD` next to the extensions: the sha256 of every source it compiled;
* on `import webhook`, `choose_build()` compares it with the sources. If they all match, the
  extensions are imported. If any source changed since (an edit, a `git pull`), if an extension is
  missing, or if ``DRA_WEBHOOK_PURE_PYTHON=1`` is set, a finder placed first on `sys.meta_path`
  imports all of them from their sources instead: all or none, because compiled modules call one
  another directly inside one shared library.

So an edited rule takes effect at once (in pure Python, slower, with a warning saying
how to rebuild: `make compile`), and a machine without a C compiler runs the same sources.

This file is read by `setup.py` before the package can be imported: only the standard library here.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Final, TextIO

PACKAGE_DIR: Final = Path(__file__).resolve().parent
PROJECT_DIR: Final = PACKAGE_DIR.parent

# The modules mypyc compiles, as globs relative to the project directory: every rule package
# (v1alpha2/, and each other API version's beside it, and their packages: v1/declared/) without
# naming them. A package's __init__ is
# never compiled (a compiled __init__ has no __path__ while its body runs, so its imports fail).
COMPILED_SOURCES: Final = (
    "webhook/field.py",
    "webhook/gotime.py",
    "webhook/schemas.py",
    "webhook/schema_nodes.py",
    "webhook/schema_compiler.py",
    "webhook/quantity.py",
    "webhook/release.py",
    "webhook/rules/*.py",
    "webhook/rules/*/*.py",
    "webhook/rules/*/*/*.py",
)
# The shared library that holds the compiled code of all of them (mypycify's group_name).
GROUP_NAME: Final = "webhook._native"
BUILD_RECORD: Final = "native-build.json"
PURE_PYTHON_ENV: Final = "DRA_WEBHOOK_PURE_PYTHON"
REBUILD: Final = "rebuild with `make compile`"
# Why an install has no build record: setup.py printed which one (`pip install -v` shows it).
NOT_COMPILED_BECAUSE: Final = (
    f"no working C compiler, mypyc failed, or {PURE_PYTHON_ENV}=1; `pip install -v` prints which"
)


def compiled_source_files(project_dir: Path = PROJECT_DIR) -> list[Path]:
    """The source files mypyc compiles, sorted."""
    files: set[Path] = set()
    for pattern in COMPILED_SOURCES:
        files.update(path for path in project_dir.glob(pattern) if path.name != "__init__.py")
    return sorted(files)


def module_name(source: Path, project_dir: Path = PROJECT_DIR) -> str:
    """``webhook/rules/meta.py`` -> ``webhook.rules.meta``."""
    return ".".join(source.relative_to(project_dir).with_suffix("").parts)


def source_digests(project_dir: Path = PROJECT_DIR) -> dict[str, str]:
    """The sha256 of every compiled source, by module name: what a build records and is checked against."""
    return {
        module_name(source, project_dir): hashlib.sha256(source.read_bytes()).hexdigest()
        for source in compiled_source_files(project_dir)
    }


def write_build_record(package_dir: Path, digests: dict[str, str]) -> Path:
    """Record, beside the extensions just built, which sources they were built from."""
    record = package_dir / BUILD_RECORD
    record.write_text(json.dumps({"modules": digests}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return record


@dataclass(frozen=True, slots=True)
class Build:
    """The build in use: compiled, or the Python sources and why."""

    compiled: bool
    reason: str = ""  # why the sources run instead ("" when compiled)
    warn: bool = False  # a build exists but cannot be used: worth telling the user

    def describe(self) -> str:
        return "compiled with mypyc" if self.compiled else f"pure Python ({self.reason})"


def pure_python_requested(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``DRA_WEBHOOK_PURE_PYTHON`` asks for the sources (at build time and at import alike)."""
    return (os.environ if environ is None else environ).get(PURE_PYTHON_ENV, "") not in ("", "0")


def inspect_build(package_dir: Path = PACKAGE_DIR, environ: Mapping[str, str] | None = None) -> Build:
    """Whether the compiled modules under `package_dir` are present and current."""
    project_dir = package_dir.parent
    if pure_python_requested(environ):
        return Build(False, f"{PURE_PYTHON_ENV} is set")
    record_file = package_dir / BUILD_RECORD
    if not record_file.is_file():
        return Build(False, f"not compiled at install: {NOT_COMPILED_BECAUSE}")
    try:
        recorded: dict[str, str] = json.loads(record_file.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return Build(False, f"{record_file} is unreadable; {REBUILD}", warn=True)
    current = source_digests(project_dir)
    changed = sorted(
        name for name in current.keys() | recorded.keys() if current.get(name) != recorded.get(name)
    )
    if changed:
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return Build(False, f"sources changed since the build ({shown}); {REBUILD}", warn=True)
    missing = [name for name in current if _extension_file(package_dir, name) is None]
    if missing:
        return Build(False, f"extension missing for {missing[0]}; {REBUILD}", warn=True)
    return Build(True)


def _extension_file(package_dir: Path, name: str) -> Path | None:
    directory = package_dir.parent.joinpath(*name.split(".")[:-1])
    stem = name.rsplit(".", 1)[-1]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = directory / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


class SourcesFirst:
    """A meta path finder that imports the compiled modules from their `.py` files."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


_chosen: Build | None = None


def choose_build() -> Build:
    """Decide once per process which build runs, before any compiled module is imported."""
    global _chosen
    if _chosen is None:
        _chosen = inspect_build()
        if not _chosen.compiled:
            sources = {module_name(path): path for path in compiled_source_files()}
            sys.meta_path.insert(0, SourcesFirst(sources))
            if _chosen.warn:
                announce(_chosen, sys.stderr)
    return _chosen


def announce(build: Build, stream: TextIO) -> None:
    """Say on `stream` which build runs. A stream that cannot be written (stderr on a full disk or
    /dev/full) must not stop the import, and with it the server: the line is lost, nothing else."""
    with contextlib.suppress(OSError):
        print(f"dra-webhook: running the rules in {build.describe()}", file=stream)
