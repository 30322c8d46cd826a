"""The compiled build is used exactly when it was built from the sources beside it (webhook/native.py)."""

from __future__ import annotations

import errno
import importlib
import importlib.machinery
import io
import re
import sys
import tomllib
from pathlib import Path

import pytest

import webhook
from webhook import native

EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]


def make_project(tmp_path: Path) -> Path:
    """A project with two compiled sources, built (extension files and a record) from them."""
    package = tmp_path / "webhook"
    (package / "rules").mkdir(parents=True)
    (package / "field.py").write_text("VALUE = 'source'\n")
    (package / "rules" / "__init__.py").write_text("")
    (package / "rules" / "meta.py").write_text("VALUE = 'source'\n")
    (package / f"field{EXTENSION}").write_bytes(b"not really an extension")
    (package / "rules" / f"meta{EXTENSION}").write_bytes(b"not really an extension")
    native.write_build_record(package, native.source_digests(tmp_path))
    return package


def test_the_compiled_sources_are_the_hot_modules_without_package_inits() -> None:
    names = [native.module_name(path) for path in native.compiled_source_files()]
    assert {
        "webhook.field",
        "webhook.schemas",
        "webhook.rules.meta",
        "webhook.rules.v1alpha2.resourceclaim",
    } <= set(names)
    assert not [name for name in names if name.endswith("__init__")]
    assert "webhook.admission" not in names  # pydantic models: not compiled


def test_every_rule_module_of_every_api_version_is_compiled() -> None:
    rule_modules = {
        native.module_name(path)
        for path in (native.PROJECT_DIR / "webhook" / "rules").rglob("*.py")
        if path.name != "__init__.py"
    }
    assert rule_modules <= {native.module_name(path) for path in native.compiled_source_files()}


def test_the_build_type_checks_against_the_locked_versions_of_what_the_compiled_modules_import() -> None:
    # mypyc's type check follows the compiled modules' imports into orjson and pydantic (through
    # webhook/__init__'s TYPE_CHECKING import of the envelope); the isolated build environment has
    # only build-system.requires, so they are there, at the versions requirements.lock installs.
    project = tomllib.loads((native.PROJECT_DIR / "pyproject.toml").read_text())
    lock = (native.PROJECT_DIR / "requirements.lock").read_text()
    pins = dict(
        requirement.split("==") for requirement in project["build-system"]["requires"] if "==" in requirement
    )
    for name in ("orjson", "pydantic"):
        locked = re.search(rf"^{name}==(\S+)", lock, re.MULTILINE)
        assert locked and pins.get(name) == locked[1], name
    assert "mypy" in pins  # every build compiles with the same mypyc


def test_a_build_from_the_current_sources_is_used(tmp_path: Path) -> None:
    assert native.inspect_build(make_project(tmp_path), environ={}) == native.Build(True)


def test_an_edited_source_sends_every_module_back_to_python(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    (package / "rules" / "meta.py").write_text("VALUE = 'edited'\n")
    build = native.inspect_build(package, environ={})
    assert not build.compiled and build.warn
    assert build.reason == "sources changed since the build (webhook.rules.meta); rebuild with `make compile`"


def test_a_new_compiled_source_counts_as_a_change(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    (package / "rules" / "names.py").write_text("")
    assert "webhook.rules.names" in native.inspect_build(package, environ={}).reason


def test_a_missing_extension_is_not_used(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    (package / f"field{EXTENSION}").unlink()
    build = native.inspect_build(package, environ={})
    assert (build.compiled, build.warn) == (False, True)
    assert build.reason.startswith("extension missing for webhook.field")


def test_no_record_means_never_compiled_and_is_no_warning(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    (package / native.BUILD_RECORD).unlink()
    build = native.inspect_build(package, environ={})
    assert (build.compiled, build.warn) == (False, False)


def test_an_unreadable_record_is_not_trusted(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    (package / native.BUILD_RECORD).write_text("{not json")
    assert native.inspect_build(package, environ={}).warn


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_environment_can_ask_for_python(tmp_path: Path, value: str) -> None:
    build = native.inspect_build(make_project(tmp_path), environ={native.PURE_PYTHON_ENV: value})
    assert build == native.Build(False, "DRA_WEBHOOK_PURE_PYTHON is set")
    assert build.describe() == "pure Python (DRA_WEBHOOK_PURE_PYTHON is set)"


def test_sources_first_imports_the_py_file_beside_an_extension(tmp_path: Path) -> None:
    package = make_project(tmp_path)
    finder = native.SourcesFirst({"fake_native_module": package / "field.py"})
    spec = finder.find_spec("fake_native_module", None)
    assert spec is not None and spec.origin == str(package / "field.py")
    assert finder.find_spec("webhook.admission", None) is None  # everything else: the usual finders


def test_this_process_runs_the_build_it_reports() -> None:
    importlib.import_module("webhook.registry")  # imports the rules of every served version

    names = [name for name in map(native.module_name, native.compiled_source_files()) if name in sys.modules]
    assert len(names) >= 10
    for name in names:
        from_extension = str(sys.modules[name].__file__).endswith(
            tuple(importlib.machinery.EXTENSION_SUFFIXES)
        )
        assert from_extension == webhook.BUILD.compiled, name


class FullStream(io.StringIO):
    """A stream every write to which fails as on a full disk (or /dev/full)."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_the_build_in_use_is_announced() -> None:
    stream = io.StringIO()
    native.announce(native.Build(False, "sources changed since the build (webhook.field)", warn=True), stream)
    assert stream.getvalue() == (
        "dra-webhook: running the rules in pure Python (sources changed since the build (webhook.field))\n"
    )


def test_an_announcement_that_cannot_be_written_is_lost_and_nothing_else() -> None:
    native.announce(
        native.Build(False, "sources changed since the build (webhook.field)", warn=True), FullStream()
    )
