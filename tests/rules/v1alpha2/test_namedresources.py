"""The namedResources model: rows from 1.30's namedresources/validation/validation_test.go plus the
edges of the Go code (Go regexp semantics, pointer fields, the model switch, malformed input)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.rules.expected import BAD, MODEL_REQUIRED_MSG, SUBDOMAIN_MSG, Row, rendered
from webhook.field import NIL_PATH, ROOT, ErrorType, FieldError
from webhook.rules.v1alpha2.namedresources import (
    validate_allocation_result,
    validate_allocation_result_model,
    validate_resource_model,
    validate_resources,
    validate_selector_model,
)

GOOD = "foo"
SEMVER_MSG = "must be a string compatible with semver.org spec 2.0.0"


def instances(*items: dict[str, Any]) -> dict[str, Any]:
    return {"instances": list(items)}


def one_attribute(**value: Any) -> dict[str, Any]:
    """A slice model with one instance holding one attribute named `foo` with the given value fields."""
    return instances({"name": GOOD, "attributes": [{"name": GOOD, **value}]})


def bad_version(value: str) -> list[Row]:
    return [
        (
            ErrorType.INVALID,
            "instances[0].attributes[0].version",
            f"instances[0].attributes[0].version: Invalid value: {json.dumps(value)}: {SEMVER_MSG}",
        )
    ]


RESOURCES_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("empty", {}, []),
    ("null-instances", {"instances": None}, []),
    ("good", instances({"name": GOOD}), []),
    (
        "bad-name",
        instances({"name": BAD}),
        [
            (
                ErrorType.INVALID,
                "instances[0].name",
                f'instances[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "duplicate-name",
        instances({"name": GOOD}, {"name": GOOD}),
        [(ErrorType.DUPLICATE, "instances[1].name", 'instances[1].name: Duplicate value: "foo"')],
    ),
    (
        "duplicate-bad-name-is-still-format-checked",
        instances({"name": BAD}, {"name": BAD}),
        [
            (
                ErrorType.INVALID,
                "instances[0].name",
                f'instances[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (
                ErrorType.INVALID,
                "instances[1].name",
                f'instances[1].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (ErrorType.DUPLICATE, "instances[1].name", f'instances[1].name: Duplicate value: "{BAD}"'),
        ],
    ),
    (
        "missing-name",
        instances({}),
        [(ErrorType.INVALID, "instances[0].name", f'instances[0].name: Invalid value: "": {SUBDOMAIN_MSG}')],
    ),
    ("quantity", one_attribute(quantity="1"), []),
    ("bool", one_attribute(bool=True), []),
    ("bool-false-is-set", one_attribute(bool=False), []),
    ("int", one_attribute(int=1), []),
    ("int-zero-is-set", one_attribute(int=0), []),
    ("int-slice", one_attribute(intSlice={"ints": [1, 2, 3]}), []),
    ("int-slice-empty-is-set", one_attribute(intSlice={}), []),
    ("string", one_attribute(string="hello"), []),
    ("string-empty-is-set", one_attribute(string=""), []),
    ("string-slice", one_attribute(stringSlice={"strings": ["hello"]}), []),
    ("version-okay", one_attribute(version="1.0.0"), []),
    ("version-beta", one_attribute(version="1.0.0-beta"), []),
    ("version-beta-1", one_attribute(version="1.0.0-beta.1"), []),
    ("version-build", one_attribute(version="1.0.0+build"), []),
    ("version-build-1", one_attribute(version="1.0.0+build.1"), []),
    ("version-beta-1-build-1", one_attribute(version="1.0.0-beta.1+build.1"), []),
    ("version-prerelease-alnum-with-leading-digits", one_attribute(version="1.0.0-0abc.x-y"), []),
    ("version-bad", one_attribute(version="1.0"), bad_version("1.0")),
    ("version-bad-leading-zeros", one_attribute(version="01.0.0"), bad_version("01.0.0")),
    ("version-bad-leading-zeros-middle", one_attribute(version="1.00.0"), bad_version("1.00.0")),
    ("version-bad-leading-zeros-end", one_attribute(version="1.0.00"), bad_version("1.0.00")),
    ("version-bad-spaces", one_attribute(version=" 1.0.0 "), bad_version(" 1.0.0 ")),
    ("version-bad-prerelease-leading-zero", one_attribute(version="1.0.0-01"), bad_version("1.0.0-01")),
    ("version-bad-empty-build", one_attribute(version="1.0.0+"), bad_version("1.0.0+")),
    ("version-empty-is-set-and-invalid", one_attribute(version=""), bad_version("")),
    (
        # Go's `$` without multiline matches only at the very end of the text.
        "version-bad-trailing-newline",
        one_attribute(version="1.0.0\n"),
        [
            (
                ErrorType.INVALID,
                "instances[0].attributes[0].version",
                f'instances[0].attributes[0].version: Invalid value: "1.0.0\\n": {SEMVER_MSG}',
            )
        ],
    ),
    (
        # RE2's \d is ASCII only; Arabic-Indic digits are not digits to Go.
        "version-bad-non-ascii-digits",
        one_attribute(version="\u0661.0.0"),
        [
            (
                ErrorType.INVALID,
                "instances[0].attributes[0].version",
                f'instances[0].attributes[0].version: Invalid value: "\u0661.0.0": {SEMVER_MSG}',
            )
        ],
    ),
    (
        "empty-attribute",
        instances({"name": GOOD, "attributes": [{"name": GOOD}]}),
        [
            (
                ErrorType.REQUIRED,
                "instances[0].attributes[0]",
                "instances[0].attributes[0]: Required value: exactly one value must be set",
            )
        ],
    ),
    (
        "null-value-is-not-set",
        one_attribute(bool=None),
        [
            (
                ErrorType.REQUIRED,
                "instances[0].attributes[0]",
                "instances[0].attributes[0]: Required value: exactly one value must be set",
            )
        ],
    ),
    (
        "duplicate-value",
        one_attribute(bool=True, int=1),
        [
            (
                ErrorType.INVALID,
                "instances[0].attributes[0]",
                'instances[0].attributes[0]: Invalid value: []string{"bool", "int"}: '
                "exactly one field must be set, not several",
            )
        ],
    ),
    (
        "every-value-sorted-and-version-checked-first",
        one_attribute(
            version="x",
            stringSlice={"strings": []},
            string="s",
            intSlice={"ints": []},
            int=2,
            bool=True,
            quantity="1Gi",
        ),
        [
            *bad_version("x"),
            (
                ErrorType.INVALID,
                "instances[0].attributes[0]",
                'instances[0].attributes[0]: Invalid value: []string{"bool", "int", "intSlice", "quantity", '
                '"string", "stringSlice", "version"}: exactly one field must be set, not several',
            ),
        ],
    ),
    (
        "bad-attribute-name",
        instances({"name": GOOD, "attributes": [{"name": BAD, "int": 1}]}),
        [
            (
                ErrorType.INVALID,
                "instances[0].attributes[0].name",
                f'instances[0].attributes[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "duplicate-attribute-name",
        instances({"name": GOOD, "attributes": [{"name": "a", "int": 1}, {"name": "a", "bool": True}]}),
        [
            (
                ErrorType.DUPLICATE,
                "instances[0].attributes[1].name",
                'instances[0].attributes[1].name: Duplicate value: "a"',
            )
        ],
    ),
    (
        "attribute-names-are-unique-per-instance-only",
        instances(
            {"name": "a", "attributes": [{"name": "x", "int": 1}]},
            {"name": "b", "attributes": [{"name": "x", "int": 1}]},
        ),
        [],
    ),
    (
        "errors-of-every-instance-in-order",
        instances(
            {"name": BAD, "attributes": [{"name": GOOD}]},
            {"name": GOOD, "attributes": [{"name": GOOD, "version": "v1"}]},
        ),
        [
            (
                ErrorType.INVALID,
                "instances[0].name",
                f'instances[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (
                ErrorType.REQUIRED,
                "instances[0].attributes[0]",
                "instances[0].attributes[0]: Required value: exactly one value must be set",
            ),
            (
                ErrorType.INVALID,
                "instances[1].attributes[0].version",
                f'instances[1].attributes[0].version: Invalid value: "v1": {SEMVER_MSG}',
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("resources", "expected"), [c[1:] for c in RESOURCES_CASES], ids=[c[0] for c in RESOURCES_CASES]
)
def test_named_resources_instances(resources: dict[str, Any], expected: list[Row]) -> None:
    # Go's test passes a nil path, as ValidateResourceSlice does.
    assert rendered(validate_resources(resources, NIL_PATH)) == expected


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ({}, [(ErrorType.REQUIRED, "<nil>", f"<nil>: Required value: {MODEL_REQUIRED_MSG}")]),
        (
            {"namedResources": None},
            [(ErrorType.REQUIRED, "<nil>", f"<nil>: Required value: {MODEL_REQUIRED_MSG}")],
        ),
        ({"namedResources": {}}, []),
        (
            {"namedResources": instances({"name": BAD})},
            [
                (
                    ErrorType.INVALID,
                    "namedResources.instances[0].name",
                    f'namedResources.instances[0].name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
                )
            ],
        ),
    ],
    ids=["absent", "null", "empty-object-is-a-model", "children-print-without-nil"],
)
def test_slice_model_switch_uses_the_nil_path(model: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_model(model, NIL_PATH)) == expected


RESULT_PATH = (
    ROOT.child("status", "allocation", "resourceHandles").index(0).child("structuredData", "results").index(2)
)


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ({"namedResources": {"name": "gpu-0"}}, []),
        (
            {},
            [
                (
                    ErrorType.REQUIRED,
                    str(RESULT_PATH),
                    f"{RESULT_PATH}: Required value: {MODEL_REQUIRED_MSG}",
                )
            ],
        ),
        (
            {"namedResources": {"name": BAD}},
            [
                (
                    ErrorType.INVALID,
                    f"{RESULT_PATH}.namedResources.name",
                    f'{RESULT_PATH}.namedResources.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
                )
            ],
        ),
        (
            {"namedResources": {}},
            [
                (
                    ErrorType.INVALID,
                    f"{RESULT_PATH}.namedResources.name",
                    f'{RESULT_PATH}.namedResources.name: Invalid value: "": {SUBDOMAIN_MSG}',
                )
            ],
        ),
    ],
    ids=["good", "no-model", "bad-name", "empty-name"],
)
def test_allocation_result_model(model: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_allocation_result_model(model, RESULT_PATH)) == expected


def test_allocation_result_name_alone() -> None:
    errs = validate_allocation_result({"name": "UPPER"}, ROOT.child("namedResources"))
    assert rendered(errs) == [
        (
            ErrorType.INVALID,
            "namedResources.name",
            f'namedResources.name: Invalid value: "UPPER": {SUBDOMAIN_MSG}',
        )
    ]


# --- selectors: rows of TestValidateSelector (new expressions) -----------------------------------

SELECTOR_PATH = ROOT.child("driverRequests").index(0).child("requests").index(0)
SELECTOR_FIELD = f"{SELECTOR_PATH}.namedResources.selector"

SELECTOR_CASES: list[tuple[str, str, list[Row]]] = [
    ("okay", "true", []),
    ("empty", "", [(ErrorType.REQUIRED, SELECTOR_FIELD, f"{SELECTOR_FIELD}: Required value")]),
    (
        "undefined",
        "nosuchvar",
        [
            (
                ErrorType.INVALID,
                SELECTOR_FIELD,
                f'{SELECTOR_FIELD}: Invalid value: "nosuchvar": compilation failed: ERROR: <input>:1:1: '
                "undeclared reference to 'nosuchvar' (in container '')\n | nosuchvar\n | ^",
            )
        ],
    ),
    (
        "wrong-type",
        "1",
        [(ErrorType.INVALID, SELECTOR_FIELD, f'{SELECTOR_FIELD}: Invalid value: "1": must evaluate to bool')],
    ),
    ("quantity", 'attributes.quantity["name"].isGreaterThan(quantity("0"))', []),
    ("bool", 'attributes.bool["name"]', []),
    ("int", 'attributes.int["name"] > 0', []),
    ("intslice", 'attributes.intslice["name"].isSorted()', []),
    ("string", 'attributes.string["name"] == "fish"', []),
    ("stringslice", 'attributes.stringslice["name"].isSorted()', []),
    ("version", 'attributes.version["name"].isGreaterThan(semver("1.0.0"))', []),
]


@pytest.mark.parametrize(
    ("selector", "expected"), [c[1:] for c in SELECTOR_CASES], ids=[c[0] for c in SELECTOR_CASES]
)
def test_request_selector(selector: str, expected: list[Row]) -> None:
    model = {"namedResources": {"selector": selector}}
    assert rendered(validate_selector_model(model, SELECTOR_PATH, stored=False)) == expected


def test_filter_selector_is_checked_at_the_filter_path() -> None:
    path = ROOT.child("filters").index(3)
    errs = validate_selector_model({"driverName": "x", "namedResources": {}}, path, stored=False)
    assert rendered(errs) == [
        (
            ErrorType.REQUIRED,
            "filters[3].namedResources.selector",
            "filters[3].namedResources.selector: Required value",
        )
    ]


@pytest.mark.parametrize("stored", [False, True])
def test_request_and_filter_without_model(stored: bool) -> None:
    assert rendered(validate_selector_model({"vendorParameters": {}}, SELECTOR_PATH, stored=stored)) == [
        (ErrorType.REQUIRED, str(SELECTOR_PATH), f"{SELECTOR_PATH}: Required value: {MODEL_REQUIRED_MSG}")
    ]
    assert rendered(
        validate_selector_model({"driverName": "x"}, ROOT.child("filters").index(0), stored=stored)
    ) == [(ErrorType.REQUIRED, "filters[0]", f"filters[0]: Required value: {MODEL_REQUIRED_MSG}")]


# --- malformed input never raises ----------------------------------------------------------------

MALFORMED: list[Any] = [
    {"instances": "not-a-list"},  # reads as no instances, as the structural check reports the type
    {"instances": [None, 5, "x", [], {"name": 7, "attributes": "nope"}]},
    {"instances": [{"name": "a", "attributes": [None, 3, {"name": None, "version": 12}, {"name": ["x"]}]}]},
    {"instances": [{"name": "a", "attributes": [{"name": "b", "intSlice": "x", "stringSlice": 5}]}]},
]


@pytest.mark.parametrize("resources", MALFORMED)
def test_malformed_resources_never_raise(resources: Any) -> None:
    errs = validate_resources(resources, NIL_PATH)
    assert all(isinstance(err, FieldError) for err in errs)


@pytest.mark.parametrize(
    "model", [{"namedResources": "x"}, {"namedResources": []}, {"namedResources": {"selector": 5}}]
)
def test_malformed_models_never_raise(model: dict[str, Any]) -> None:
    for errs in (
        validate_resource_model(model, NIL_PATH),
        validate_selector_model(model, SELECTOR_PATH, stored=False),
        validate_selector_model(model, ROOT.child("filters").index(0), stored=True),
        validate_allocation_result_model(model, RESULT_PATH),
    ):
        assert all(isinstance(err, FieldError) for err in errs)
