"""ResourceClaimParameters and ResourceClassParameters: the rows of 1.30's
validation_resourceclaimparameters_test.go and validation_resourceclassparameters_test.go, plus the
edges of the Go code (order of checks, the stored-expressions condition, malformed input)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import webhook.cel as cel
from tests.rules.expected import BAD, LABEL_MSG, MODEL_REQUIRED_MSG, SUBDOMAIN_MSG, Row, rendered
from tests.rules.objectmeta_rows import Case, object_meta_cases, with_metadata
from webhook.field import ErrorType, FieldError, FieldPath
from webhook.rules.v1alpha2.parameters import (
    RESOURCE_CLAIM_PARAMETERS,
    RESOURCE_CLASS_PARAMETERS,
    validate_resource_claim_parameters,
    validate_resource_claim_parameters_update,
    validate_resource_class_parameters,
    validate_resource_class_parameters_update,
)

GOOD = "foo"


def parameters(kind: str, name: str = GOOD, namespace: str = GOOD, **fields: Any) -> dict[str, Any]:
    """`testResourceClaimParameters` / `testResourceClassParameters` with extra top-level fields."""
    metadata = {"name": name, "namespace": namespace}
    return {"apiVersion": "resource.k8s.io/v1alpha2", "kind": kind, "metadata": metadata, **fields}


def claim_parameters(name: str = GOOD, namespace: str = GOOD, **fields: Any) -> dict[str, Any]:
    return parameters("ResourceClaimParameters", name, namespace, **fields)


def class_parameters(name: str = GOOD, namespace: str = GOOD, **fields: Any) -> dict[str, Any]:
    return parameters("ResourceClassParameters", name, namespace, **fields)


def request(selector: str = "true") -> dict[str, Any]:
    return {"namedResources": {"selector": selector}}


def driver_requests(driver_name: str = GOOD, *requests: dict[str, Any]) -> dict[str, Any]:
    return {"driverName": driver_name, "requests": list(requests) or [request()]}


def rfilter(driver_name: str = GOOD, selector: str = "true") -> dict[str, Any]:
    return {"driverName": driver_name, "namedResources": {"selector": selector}}


# The ObjectMeta part of both Go tables.
CLAIM_META_CASES: list[Case] = [
    ("good", claim_parameters(), []),
    *object_meta_cases(claim_parameters(), namespaced=True, generate_name="prefix-"),
]
CLASS_META_CASES: list[Case] = [
    ("good", class_parameters(), []),
    *object_meta_cases(class_parameters(), namespaced=True, generate_name="prefix-"),
]


@pytest.mark.parametrize(
    ("obj", "expected"), [c[1:] for c in CLAIM_META_CASES], ids=[c[0] for c in CLAIM_META_CASES]
)
def test_claim_parameters_metadata(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_claim_parameters(obj)) == expected


@pytest.mark.parametrize(
    ("obj", "expected"), [c[1:] for c in CLASS_META_CASES], ids=[c[0] for c in CLASS_META_CASES]
)
def test_class_parameters_metadata(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_class_parameters(obj)) == expected


# --- ResourceClaimParameters ---------------------------------------------------------------------

SELECTOR_0_0 = "driverRequests[0].requests[0].namedResources.selector"

CLAIM_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("no-driver-requests", claim_parameters(driverRequests=None), []),
    (
        "good-requests",
        claim_parameters(shareable=True, driverRequests=[driver_requests(), driver_requests("other")]),
        [],
    ),
    (
        "empty-model",
        claim_parameters(driverRequests=[{"driverName": GOOD, "requests": [{}]}]),
        [
            (
                ErrorType.REQUIRED,
                "driverRequests[0].requests[0]",
                f"driverRequests[0].requests[0]: Required value: {MODEL_REQUIRED_MSG}",
            )
        ],
    ),
    (
        "empty-requests",
        claim_parameters(driverRequests=[{"driverName": GOOD}]),
        [
            (
                ErrorType.REQUIRED,
                "driverRequests[0].requests",
                "driverRequests[0].requests: Required value: empty entries with no requests are not allowed",
            )
        ],
    ),
    (
        "invalid-driver",
        claim_parameters(driverRequests=[driver_requests(), driver_requests(BAD)]),
        [
            (
                ErrorType.INVALID,
                "driverRequests[1].driverName",
                f'driverRequests[1].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "duplicate-driver",
        claim_parameters(driverRequests=[driver_requests(), driver_requests()]),
        [
            (
                ErrorType.DUPLICATE,
                "driverRequests[1].driverName",
                'driverRequests[1].driverName: Duplicate value: "foo"',
            )
        ],
    ),
    (
        "duplicate-invalid-driver-is-checked-twice",
        claim_parameters(driverRequests=[driver_requests(BAD), driver_requests(BAD)]),
        [
            (
                ErrorType.INVALID,
                "driverRequests[0].driverName",
                f'driverRequests[0].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (
                ErrorType.INVALID,
                "driverRequests[1].driverName",
                f'driverRequests[1].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (
                ErrorType.DUPLICATE,
                "driverRequests[1].driverName",
                f'driverRequests[1].driverName: Duplicate value: "{BAD}"',
            ),
        ],
    ),
    (
        "missing-driver",
        claim_parameters(driverRequests=[{"requests": [request()]}]),
        [
            (
                ErrorType.REQUIRED,
                "driverRequests[0].driverName",
                "driverRequests[0].driverName: Required value",
            ),
            (
                ErrorType.INVALID,
                "driverRequests[0].driverName",
                f'driverRequests[0].driverName: Invalid value: "": {SUBDOMAIN_MSG}',
            ),
        ],
    ),
    (
        "empty-selector",
        claim_parameters(driverRequests=[driver_requests(GOOD, request(""))]),
        [(ErrorType.REQUIRED, SELECTOR_0_0, f"{SELECTOR_0_0}: Required value")],
    ),
    (
        "selector-not-bool",
        claim_parameters(driverRequests=[driver_requests(GOOD, request("1"))]),
        [(ErrorType.INVALID, SELECTOR_0_0, f'{SELECTOR_0_0}: Invalid value: "1": must evaluate to bool')],
    ),
    (
        "selector-undefined",
        claim_parameters(driverRequests=[driver_requests(GOOD, request("nosuchvar"))]),
        [
            (
                ErrorType.INVALID,
                SELECTOR_0_0,
                f'{SELECTOR_0_0}: Invalid value: "nosuchvar": compilation failed: ERROR: <input>:1:1: '
                "undeclared reference to 'nosuchvar' (in container '')\n | nosuchvar\n | ^",
            )
        ],
    ),
    (
        "vendor-parameters-are-opaque",
        claim_parameters(
            driverRequests=[
                {
                    "driverName": GOOD,
                    "vendorParameters": {"x": [1]},
                    "requests": [{"vendorParameters": "y", **request()}],
                }
            ]
        ),
        [],
    ),
    (
        "generated-from",
        claim_parameters(generatedFrom={"apiGroup": "!!", "kind": "ConfigMap", "name": "x"}),
        [],
    ),
    (
        "generated-from-empty",
        claim_parameters(generatedFrom={}),
        [
            (ErrorType.REQUIRED, "generatedFrom.kind", "generatedFrom.kind: Required value"),
            (ErrorType.REQUIRED, "generatedFrom.name", "generatedFrom.name: Required value"),
        ],
    ),
    ("generated-from-null", claim_parameters(generatedFrom=None), []),
    (
        "every-check-in-order",
        claim_parameters(
            name=BAD,
            generatedFrom={"name": "x"},
            driverRequests=[
                {"driverName": GOOD, "requests": [{}, request("")]},
                {"driverName": GOOD},
            ],
        ),
        [
            (ErrorType.INVALID, "metadata.name", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            (ErrorType.REQUIRED, "generatedFrom.kind", "generatedFrom.kind: Required value"),
            (
                ErrorType.REQUIRED,
                "driverRequests[0].requests[0]",
                f"driverRequests[0].requests[0]: Required value: {MODEL_REQUIRED_MSG}",
            ),
            (
                ErrorType.REQUIRED,
                "driverRequests[0].requests[1].namedResources.selector",
                "driverRequests[0].requests[1].namedResources.selector: Required value",
            ),
            (
                ErrorType.DUPLICATE,
                "driverRequests[1].driverName",
                'driverRequests[1].driverName: Duplicate value: "foo"',
            ),
            (
                ErrorType.REQUIRED,
                "driverRequests[1].requests",
                "driverRequests[1].requests: Required value: empty entries with no requests are not allowed",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in CLAIM_CASES], ids=[c[0] for c in CLAIM_CASES])
def test_claim_parameters_create(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_claim_parameters(obj)) == expected
    assert rendered(RESOURCE_CLAIM_PARAMETERS.validate_create(obj)) == expected


def old_claim_parameters(**fields: Any) -> dict[str, Any]:
    return with_metadata(claim_parameters("valid", "valid", **fields), resourceVersion="1")


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        (old_claim_parameters(), []),
        (
            with_metadata(old_claim_parameters(), name="valid-update"),
            [
                (
                    ErrorType.INVALID,
                    "metadata.name",
                    'metadata.name: Invalid value: "valid-update": field is immutable',
                )
            ],
        ),
        (old_claim_parameters(driverRequests=[driver_requests()], shareable=True), []),
        (
            old_claim_parameters(driverRequests=[driver_requests(BAD)]),
            [
                (
                    ErrorType.INVALID,
                    "driverRequests[0].driverName",
                    f'driverRequests[0].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
                )
            ],
        ),
    ],
    ids=["valid-no-op-update", "invalid-name-update", "requests-may-change", "create-checks-run-again"],
)
def test_claim_parameters_update(new: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_claim_parameters_update(new, old_claim_parameters())) == expected
    # The strategy runs ValidateResourceClaimParametersUpdate alone: no doubled create errors.
    assert rendered(RESOURCE_CLAIM_PARAMETERS.validate_update(new, old_claim_parameters())) == expected


class SelectorSpy:
    """Records the `stored` flag every selector is compiled with, then defers to the real checker."""

    def __init__(self) -> None:
        self.stored_flags: list[bool] = []
        self._real = cel.validate_selector

    def __call__(self, expression: str, path: FieldPath, *, stored: bool = False) -> list[FieldError]:
        self.stored_flags.append(stored)
        return self._real(expression, path, stored=stored)


@pytest.fixture
def selector_spy(monkeypatch: pytest.MonkeyPatch) -> SelectorSpy:
    spy = SelectorSpy()
    # namedresources calls cel.validate_selector through the module, so patching the module reaches it.
    monkeypatch.setattr(cel, "validate_selector", spy)
    return spy


@pytest.mark.parametrize(
    ("old_requests", "new_requests", "stored"),
    [
        ([driver_requests()], [driver_requests()], True),
        ([driver_requests(GOOD, request("true"))], [driver_requests(GOOD, request("false"))], False),
        ([driver_requests()], [driver_requests(), driver_requests("other")], False),
        # Semantic equality: a vendorParameters change also counts as a change of driverRequests.
        ([driver_requests()], [{**driver_requests(), "vendorParameters": {"a": 1}}], False),
    ],
    ids=[
        "unchanged-requests-are-stored",
        "changed-selector-is-new",
        "added-entry-is-new",
        "vendor-parameters-change",
    ],
)
def test_claim_parameters_update_uses_stored_expressions_only_for_unchanged_requests(
    selector_spy: SelectorSpy, old_requests: list[Any], new_requests: list[Any], stored: bool
) -> None:
    old = old_claim_parameters(driverRequests=old_requests)
    new = old_claim_parameters(driverRequests=new_requests)
    assert validate_resource_claim_parameters_update(new, old) == []
    assert selector_spy.stored_flags == [stored] * len(new_requests)


def test_claim_parameters_create_uses_new_expressions(selector_spy: SelectorSpy) -> None:
    assert validate_resource_claim_parameters(claim_parameters(driverRequests=[driver_requests()])) == []
    assert selector_spy.stored_flags == [False]


# --- ResourceClassParameters ---------------------------------------------------------------------

CLASS_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("no-filters", class_parameters(filters=None, vendorParameters=None), []),
    (
        "good",
        class_parameters(
            generatedFrom={"kind": "ConfigMap", "name": "x", "namespace": "ns"},
            filters=[rfilter(), rfilter("other")],
            vendorParameters=[{"driverName": GOOD, "parameters": {"any": "thing"}}, {"driverName": "other"}],
        ),
        [],
    ),
    (
        "empty-model",
        class_parameters(filters=[{"driverName": GOOD}]),
        [(ErrorType.REQUIRED, "filters[0]", f"filters[0]: Required value: {MODEL_REQUIRED_MSG}")],
    ),
    (
        "filters-invalid-driver",
        class_parameters(filters=[rfilter(), rfilter(BAD)]),
        [
            (
                ErrorType.INVALID,
                "filters[1].driverName",
                f'filters[1].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "filters-duplicate-driver",
        class_parameters(filters=[rfilter(), rfilter()]),
        [(ErrorType.DUPLICATE, "filters[1].driverName", 'filters[1].driverName: Duplicate value: "foo"')],
    ),
    (
        "filters-empty-selector",
        class_parameters(filters=[rfilter(GOOD, "")]),
        [
            (
                ErrorType.REQUIRED,
                "filters[0].namedResources.selector",
                "filters[0].namedResources.selector: Required value",
            )
        ],
    ),
    (
        "filters-selector-not-bool",
        class_parameters(filters=[rfilter(GOOD, '"x"')]),
        [
            (
                ErrorType.INVALID,
                "filters[0].namedResources.selector",
                'filters[0].namedResources.selector: Invalid value: "\\"x\\"": must evaluate to bool',
            )
        ],
    ),
    (
        "parameters-invalid-driver",
        class_parameters(vendorParameters=[{"driverName": GOOD}, {"driverName": BAD}]),
        [
            (
                ErrorType.INVALID,
                "vendorParameters[1].driverName",
                f'vendorParameters[1].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "parameters-duplicate-driver",
        class_parameters(vendorParameters=[{"driverName": GOOD}, {"driverName": GOOD}]),
        [
            (
                ErrorType.DUPLICATE,
                "vendorParameters[1].driverName",
                'vendorParameters[1].driverName: Duplicate value: "foo"',
            )
        ],
    ),
    (
        "parameters-missing-driver",
        class_parameters(vendorParameters=[{"parameters": {}}]),
        [
            (
                ErrorType.REQUIRED,
                "vendorParameters[0].driverName",
                "vendorParameters[0].driverName: Required value",
            ),
            (
                ErrorType.INVALID,
                "vendorParameters[0].driverName",
                f'vendorParameters[0].driverName: Invalid value: "": {SUBDOMAIN_MSG}',
            ),
        ],
    ),
    (
        "generated-from-empty",
        class_parameters(generatedFrom={}),
        [
            (ErrorType.REQUIRED, "generatedFrom.kind", "generatedFrom.kind: Required value"),
            (ErrorType.REQUIRED, "generatedFrom.name", "generatedFrom.name: Required value"),
        ],
    ),
    (
        "generated-from-bad-namespace",
        class_parameters(generatedFrom={"kind": "k", "name": "n", "namespace": BAD}),
        [
            (
                ErrorType.INVALID,
                "generatedFrom.namespace",
                f'generatedFrom.namespace: Invalid value: "{BAD}": {LABEL_MSG}',
            )
        ],
    ),
    (
        "every-check-in-order",
        class_parameters(
            generatedFrom={"kind": "k"},
            vendorParameters=[{"driverName": GOOD}, {"driverName": GOOD}],
            filters=[{"driverName": GOOD}, rfilter(GOOD, "")],
        ),
        [
            (ErrorType.REQUIRED, "generatedFrom.name", "generatedFrom.name: Required value"),
            (ErrorType.REQUIRED, "filters[0]", f"filters[0]: Required value: {MODEL_REQUIRED_MSG}"),
            (ErrorType.DUPLICATE, "filters[1].driverName", 'filters[1].driverName: Duplicate value: "foo"'),
            (
                ErrorType.REQUIRED,
                "filters[1].namedResources.selector",
                "filters[1].namedResources.selector: Required value",
            ),
            (
                ErrorType.DUPLICATE,
                "vendorParameters[1].driverName",
                'vendorParameters[1].driverName: Duplicate value: "foo"',
            ),
        ],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in CLASS_CASES], ids=[c[0] for c in CLASS_CASES])
def test_class_parameters_create(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_class_parameters(obj)) == expected
    assert rendered(RESOURCE_CLASS_PARAMETERS.validate_create(obj)) == expected


def old_class_parameters(**fields: Any) -> dict[str, Any]:
    return with_metadata(class_parameters("valid", "valid", **fields), resourceVersion="1")


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        (old_class_parameters(), []),
        (
            with_metadata(old_class_parameters(), name="valid-update"),
            [
                (
                    ErrorType.INVALID,
                    "metadata.name",
                    'metadata.name: Invalid value: "valid-update": field is immutable',
                )
            ],
        ),
        (old_class_parameters(filters=[rfilter()]), []),
        (
            old_class_parameters(filters=[rfilter(BAD)]),
            [
                (
                    ErrorType.INVALID,
                    "filters[0].driverName",
                    f'filters[0].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
                )
            ],
        ),
    ],
    ids=["valid-no-op-update", "invalid-name-update", "filters-may-change", "create-checks-run-again"],
)
def test_class_parameters_update(new: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_resource_class_parameters_update(new, old_class_parameters())) == expected
    assert rendered(RESOURCE_CLASS_PARAMETERS.validate_update(new, old_class_parameters())) == expected


def test_class_parameters_update_never_uses_stored_expressions(selector_spy: SelectorSpy) -> None:
    # ValidateResourceClassParametersUpdate calls ValidateResourceClassParameters: filtersStored=false.
    old = old_class_parameters(filters=[rfilter()])
    assert validate_resource_class_parameters_update(copy.deepcopy(old), old) == []
    assert selector_spy.stored_flags == [False]


def test_kind_rules() -> None:
    for rules, resource in (
        (RESOURCE_CLAIM_PARAMETERS, "resourceclaimparameters"),
        (RESOURCE_CLASS_PARAMETERS, "resourceclassparameters"),
    ):
        assert rules.resource == resource
        assert rules.namespaced
        assert rules.subresources == ()


MALFORMED: list[dict[str, Any]] = [
    {},
    {
        "metadata": None,
        "generatedFrom": None,
        "driverRequests": None,
        "filters": None,
        "vendorParameters": None,
    },
    {"metadata": "x", "generatedFrom": "x", "driverRequests": "x", "filters": "x", "vendorParameters": "x"},
    {
        "generatedFrom": {"kind": 1, "name": None, "namespace": 3},
        "driverRequests": [None, 1, {"requests": "x"}, {"requests": [None, 2, {"namedResources": "x"}]}],
    },
    {
        "filters": [None, 1, {"namedResources": {"selector": 5}}],
        "vendorParameters": [None, [], {"driverName": {}}],
    },
]


@pytest.mark.parametrize("obj", MALFORMED)
def test_malformed_objects_never_raise(obj: dict[str, Any]) -> None:
    for rules in (RESOURCE_CLAIM_PARAMETERS, RESOURCE_CLASS_PARAMETERS):
        for errs in (
            rules.validate_create(obj),
            rules.validate_update(obj, obj),
            rules.validate_update(obj, {}),
        ):
            assert all(isinstance(err, FieldError) for err in errs)
