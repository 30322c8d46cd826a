"""PodSchedulingContext: the rows of 1.30's validation_podschedulingcontext_test.go plus the edges of
`validateSliceIsASet` and of the status path (`status.claims[i]`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import BAD, SUBDOMAIN_MSG, Row, rendered
from tests.rules.objectmeta_rows import object_meta_cases
from webhook.field import ErrorType, FieldError, aggregate_message
from webhook.rules.v1alpha2.podschedulingcontext import (
    POD_SCHEDULING_CONTEXT,
    validate_pod_scheduling_context,
    validate_pod_scheduling_context_status_update,
    validate_pod_scheduling_context_update,
)

GOOD = "foo"
GOOD_NS = "ns"
WORKERS = [f"worker{i}" for i in range(129)]


def scheduling_context(
    name: str = GOOD, namespace: str = GOOD_NS, spec: dict[str, Any] | None = None, **metadata: Any
) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "PodSchedulingContext",
        "metadata": {"name": name, "namespace": namespace, **metadata},
        "spec": spec if spec is not None else {},
    }


CREATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("good-schedulingCtx", scheduling_context(), []),
    *object_meta_cases(scheduling_context(), namespaced=True),
    ("selected-node-is-not-validated", scheduling_context(spec={"selectedNode": BAD}), []),
    ("potential-nodes-at-the-limit", scheduling_context(spec={"potentialNodes": WORKERS[:128]}), []),
    (
        "potential-nodes-too-long",
        scheduling_context(spec={"potentialNodes": WORKERS}),
        [
            (
                ErrorType.TOO_LONG,
                "spec.potentialNodes",
                "spec.potentialNodes: Too long: may not be longer than 128",
            )
        ],
    ),
    (
        "potential-nodes-name",
        scheduling_context(spec={"potentialNodes": [BAD]}),
        [
            (
                ErrorType.INVALID,
                "spec.potentialNodes[0]",
                f'spec.potentialNodes[0]: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "potential-nodes-duplicate-skips-the-name-check",
        scheduling_context(spec={"potentialNodes": ["a", BAD, "a", BAD]}),
        [
            (
                ErrorType.INVALID,
                "spec.potentialNodes[1]",
                f'spec.potentialNodes[1]: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            ),
            (ErrorType.DUPLICATE, "spec.potentialNodes[2]", 'spec.potentialNodes[2]: Duplicate value: "a"'),
            (
                ErrorType.DUPLICATE,
                "spec.potentialNodes[3]",
                f'spec.potentialNodes[3]: Duplicate value: "{BAD}"',
            ),
        ],
    ),
    (
        "duplicates-count-towards-the-limit",
        scheduling_context(spec={"potentialNodes": ["a"] * 129}),
        [
            *[
                (
                    ErrorType.DUPLICATE,
                    f"spec.potentialNodes[{i}]",
                    f'spec.potentialNodes[{i}]: Duplicate value: "a"',
                )
                for i in range(1, 129)
            ],
            (
                ErrorType.TOO_LONG,
                "spec.potentialNodes",
                "spec.potentialNodes: Too long: may not be longer than 128",
            ),
        ],
    ),
    (
        "too-long-node-name",
        scheduling_context(spec={"potentialNodes": ["a" * 254]}),
        [
            (
                ErrorType.INVALID,
                "spec.potentialNodes[0]",
                f'spec.potentialNodes[0]: Invalid value: "{"a" * 254}": must be no more than 253 characters',
            )
        ],
    ),
    # PrepareForCreate drops the status; the create validation never looks at it.
    (
        "status-is-not-validated-on-create",
        {**scheduling_context(), "status": {"resourceClaims": [{"name": "a"}, {"name": "a"}]}},
        [],
    ),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in CREATE_CASES], ids=[c[0] for c in CREATE_CASES])
def test_create(obj: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_pod_scheduling_context(obj)) == expected
    assert rendered(POD_SCHEDULING_CONTEXT.validate_create(obj)) == expected


def valid_old() -> dict[str, Any]:
    return scheduling_context(resourceVersion="1")


def with_spec(**spec: Any) -> dict[str, Any]:
    new = copy.deepcopy(valid_old())
    new["spec"].update(spec)
    return new


UPDATE_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("valid-no-op-update", with_spec(), []),
    ("add-selected-node", with_spec(selectedNode="worker1"), []),
    ("add-potential-nodes", with_spec(potentialNodes=WORKERS[:128]), []),
    (
        "invalid-potential-nodes-too-long",
        with_spec(potentialNodes=WORKERS),
        [
            (
                ErrorType.TOO_LONG,
                "spec.potentialNodes",
                "spec.potentialNodes: Too long: may not be longer than 128",
            )
        ],
    ),
    (
        "invalid-potential-nodes-name",
        with_spec(potentialNodes=[BAD]),
        [
            (
                ErrorType.INVALID,
                "spec.potentialNodes[0]",
                f'spec.potentialNodes[0]: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
]


@pytest.mark.parametrize(("new", "expected"), [c[1:] for c in UPDATE_CASES], ids=[c[0] for c in UPDATE_CASES])
def test_update(new: dict[str, Any], expected: list[Row]) -> None:
    # ValidatePodSchedulingContextUpdate, as Go's TestValidatePodSchedulingUpdate calls it.
    assert rendered(validate_pod_scheduling_context_update(new, valid_old())) == expected


def test_update_reports_metadata_update_errors_then_create_errors_each_once() -> None:
    # ValidatePodSchedulingContextUpdate: ObjectMetaUpdate, then ValidatePodSchedulingContexts(new).
    new = with_spec(potentialNodes=[BAD])
    new["metadata"]["namespace"] = "other"
    node_error = (
        ErrorType.INVALID,
        "spec.potentialNodes[0]",
        f'spec.potentialNodes[0]: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
    )
    namespace_error = (
        ErrorType.INVALID,
        "metadata.namespace",
        'metadata.namespace: Invalid value: "other": field is immutable',
    )
    errs = POD_SCHEDULING_CONTEXT.validate_update(new, valid_old())
    assert rendered(errs) == [namespace_error, node_error]
    assert aggregate_message(errs) == f"[{namespace_error[2]}, {node_error[2]}]"


def with_claims(*claims: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(valid_old())
    new["status"] = {"resourceClaims": list(claims)}
    return new


STATUS_CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("valid-no-op-update", valid_old(), []),
    ("add-claim-status", with_claims({"name": "my-claim", "unsuitableNodes": WORKERS[:128]}), []),
    (
        "invalid-duplicated-claim-status",
        with_claims({"name": "my-claim"}, {"name": "my-claim"}),
        [(ErrorType.DUPLICATE, "status.claims[1]", 'status.claims[1]: Duplicate value: "my-claim"')],
    ),
    (
        "invalid-too-long-claim-status",
        with_claims({"name": "my-claim", "unsuitableNodes": WORKERS}),
        [
            (
                ErrorType.TOO_LONG,
                "status.claims[0].unsuitableNodes",
                "status.claims[0].unsuitableNodes: Too long: may not be longer than 128",
            )
        ],
    ),
    (
        "invalid-node-name",
        with_claims({"name": "my-claim", "unsuitableNodes": [BAD]}),
        [
            (
                ErrorType.INVALID,
                "status.claims[0].unsuitableNodes[0]",
                f'status.claims[0].unsuitableNodes[0]: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    ("claim-names-are-not-format-checked", with_claims({"name": BAD}, {"name": ""}), []),
    (
        "empty-name-twice",
        with_claims({}, {"name": None}),
        [(ErrorType.DUPLICATE, "status.claims[1]", 'status.claims[1]: Duplicate value: ""')],
    ),
    (
        "nodes-before-the-duplicate-name",
        with_claims({"name": "a"}, {"name": "a", "unsuitableNodes": ["n", "n"]}),
        [
            (
                ErrorType.DUPLICATE,
                "status.claims[1].unsuitableNodes[1]",
                'status.claims[1].unsuitableNodes[1]: Duplicate value: "n"',
            ),
            (ErrorType.DUPLICATE, "status.claims[1]", 'status.claims[1]: Duplicate value: "a"'),
        ],
    ),
    # The status update does not look at the spec (the status strategy keeps the old one anyway).
    ("spec-is-not-validated", {**with_claims(), "spec": {"potentialNodes": [BAD]}}, []),
    (
        "metadata-update-is-validated",
        {**with_claims(), "metadata": {"name": "other", "namespace": GOOD_NS, "resourceVersion": "1"}},
        [(ErrorType.INVALID, "metadata.name", 'metadata.name: Invalid value: "other": field is immutable')],
    ),
]


@pytest.mark.parametrize(("new", "expected"), [c[1:] for c in STATUS_CASES], ids=[c[0] for c in STATUS_CASES])
def test_status_update(new: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(validate_pod_scheduling_context_status_update(new, valid_old())) == expected
    assert POD_SCHEDULING_CONTEXT.validate_status_update is not None
    assert rendered(POD_SCHEDULING_CONTEXT.validate_status_update(new, valid_old())) == expected


def test_kind_rules() -> None:
    assert POD_SCHEDULING_CONTEXT.resource == "podschedulingcontexts"
    assert POD_SCHEDULING_CONTEXT.namespaced
    assert POD_SCHEDULING_CONTEXT.subresources == ("status",)


MALFORMED: list[dict[str, Any]] = [
    {},
    {"metadata": None, "spec": None, "status": None},
    {"metadata": [], "spec": "x", "status": 5},
    {"spec": {"potentialNodes": "abc"}, "status": {"resourceClaims": "abc"}},
    {
        "spec": {"potentialNodes": [None, 1, ["x"], {"a": 1}]},
        "status": {"resourceClaims": [None, 1, {"name": 5, "unsuitableNodes": {}}]},
    },
]


@pytest.mark.parametrize("obj", MALFORMED)
def test_malformed_objects_never_raise(obj: dict[str, Any]) -> None:
    rules = POD_SCHEDULING_CONTEXT
    assert rules.validate_status_update is not None
    for errs in (
        rules.validate_create(obj),
        rules.validate_update(obj, obj),
        rules.validate_update(obj, {}),
        rules.validate_status_update(obj, obj),
    ):
        assert all(isinstance(err, FieldError) for err in errs)
