"""Review suites: YAML documents with `tests:`, each test an AdmissionReview (inline, or the documents
of a file beside the suite) or a manifest (with an old one for an UPDATE) to build one around, and
what its answer must say. The format is documented in docs/offline.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from webhook.offline.documents import UnreadableInput
from webhook.offline.expectations import ALLOWED, Expectation, SuiteError, parse_expectation, typed_field
from webhook.offline.inputs import STDIN_NAME, no_stdin, read_documents, read_input
from webhook.offline.manifest_review import manifest_review_document
from webhook.offline.objects import NotAnObject, expand_objects
from webhook.registry import KindRegistry

_TEST_KEYS: Final = frozenset(
    {"name", "review", "object", "old_object", "operation", "subresource", "expect"}
)


def is_suite(data: Any) -> bool:
    return isinstance(data, Mapping) and "tests" in data and "request" not in data


@dataclass(frozen=True, slots=True)
class SuiteTest:
    """One test of a suite: the reviews it judges (each with the line it starts on, 0 when inline)
    and what their answers must say, or the problem that keeps it from running."""

    title: str
    expect: Expectation = ALLOWED
    reviews: tuple[tuple[int, Any], ...] = ()
    problem: str = ""


def suite_tests(source: str, suite: Mapping[str, Any], registry: KindRegistry) -> list[SuiteTest]:
    """The tests of one suite document; files are named relative to the suite's `source`."""
    tests = suite.get("tests")
    base = Path(source).parent if source != STDIN_NAME else Path()
    if not isinstance(tests, list):
        return [SuiteTest(source, problem="tests: expected a list of tests")]
    read: list[SuiteTest] = []
    for index, test in enumerate(tests):
        where = f"tests[{index}]"
        name = test.get("name") if isinstance(test, Mapping) else None
        title = name if isinstance(name, str) and name else where
        try:
            expect, reviews = _suite_test(test, where, base, registry)
        except (SuiteError, UnreadableInput) as problem:
            read.append(SuiteTest(title, problem=str(problem)))
            continue
        read.append(SuiteTest(title, expect, tuple(reviews)))
    return read


def lines_of_suite_tests(content: bytes) -> Mapping[int, Sequence[int]]:
    """For each YAML document of a file that has a `tests` list, by the line the document starts on:
    the 1-based line each of its tests starts on, in order. One pass over the file, done only for a
    file that holds a suite; empty when it cannot be composed (its tests are then located by their
    document's line)."""
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    lines: dict[int, Sequence[int]] = {}
    try:
        for document in yaml.compose_all(content, Loader=loader):
            tests = _tests_node(document)
            if document is not None and tests is not None:
                lines[document.start_mark.line + 1] = [item.start_mark.line + 1 for item in tests.value]
    except yaml.YAMLError:
        return {}
    return lines


def _tests_node(document: yaml.Node | None) -> yaml.SequenceNode | None:
    """The `tests` list of a document; of two `tests` keys the last, which the loader keeps too."""
    if not isinstance(document, yaml.MappingNode):
        return None
    found = None
    for key, value in document.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "tests":
            found = value if isinstance(value, yaml.SequenceNode) else None
    return found


def _suite_test(
    test: Any, where: str, base: Path, registry: KindRegistry
) -> tuple[Expectation, list[tuple[int, Any]]]:
    if not isinstance(test, Mapping):
        raise SuiteError(f"{where}: expected a mapping")
    unknown = sorted(set(test) - _TEST_KEYS)
    if unknown:
        raise SuiteError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_TEST_KEYS))})")
    if ("review" in test) == ("object" in test):
        raise SuiteError(f"{where}: give either review (an AdmissionReview) or object (a manifest)")
    # A test that expects nothing must be allowed, as a plain review must.
    expect = parse_expectation(test["expect"], f"{where}.expect") if "expect" in test else ALLOWED
    if "review" in test:
        return expect, _documents(test["review"], f"{where}.review", base)
    return expect, [(0, _review_of_object(test, where, base, registry))]


def _documents(value: Any, where: str, base: Path) -> list[tuple[int, Any]]:
    """An inline document, or every document of the file a string names (relative to the suite)."""
    if not isinstance(value, str):
        return [(0, value)]
    path = str(base / value)
    read = read_documents(path, read_input(path, no_stdin))
    if read.error is not None:
        raise read.error
    documents = [(document.line, document.data) for document in read.documents if document.data is not None]
    if not documents:
        raise SuiteError(f"{where}: {path} holds no document")
    return documents


def _review_of_object(
    test: Mapping[str, Any], where: str, base: Path, registry: KindRegistry
) -> dict[str, Any]:
    """An AdmissionReview built around manifests as a client sends them (in the "default"
    namespace unless they name one): CREATE, or UPDATE when old_object is given."""
    obj = _single_object(test["object"], f"{where}.object", base)
    old = _single_object(test["old_object"], f"{where}.old_object", base) if "old_object" in test else None
    return manifest_review_document(
        obj,
        old,
        registry,
        uid=f"dra-webhook-suite-{where}",
        operation=typed_field(test, "operation", str, where),
        subresource=typed_field(test, "subresource", str, where),
    )


def _single_object(value: Any, where: str, base: Path) -> dict[str, Any]:
    objects = []
    for line, data in _documents(value, where, base):
        for item in expand_objects(where, line, data, where=""):
            if isinstance(item, UnreadableInput | NotAnObject):
                raise SuiteError(f"{where}: {item.reason}")
            objects.append(item.obj)
    if len(objects) != 1:
        raise SuiteError(f"{where}: expected one object, found {len(objects)}")
    return objects[0]
