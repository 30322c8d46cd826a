"""ResourceClaim: the rows of 1.30's validation_resourceclaim_test.go plus the edges of the Go code.

Each row names the rule it checks and asserts the wire reason, the field and the full rendered error.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.expected import (
    ALLOCATION_MODES_MSG,
    BAD,
    MODEL_REQUIRED_MSG,
    SUBDOMAIN_MSG,
    ReasonRow,
    Row,
    rendered,
    rendered_reasons,
)
from tests.rules.objectmeta_rows import object_meta_cases
from webhook.field import aggregate_message
from webhook.rules.v1alpha2.resourceclaim import (
    RESOURCE_CLAIM,
    validate_claim,
    validate_claim_status_update,
    validate_claim_update,
)

NEW_ENTRIES = "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set"

Mutation = Callable[[dict[str, Any]], None]


def claim(**spec: Any) -> dict[str, Any]:
    """`testClaim("foo", "ns", spec)`, with resourceVersion "1" as the update tests set it."""
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceClaim",
        "metadata": {"name": "foo", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"resourceClassName": "valid", "allocationMode": "WaitForFirstConsumer", **spec},
    }


def consumer(i: int | str, **fields: Any) -> dict[str, Any]:
    return {"resource": "pods", "name": f"foo-{i}", "uid": str(i), **fields}


def handle(**fields: Any) -> dict[str, Any]:
    return {"driverName": "valid", **fields}


def allocated(shareable: bool = True, **status: Any) -> dict[str, Any]:
    """`validAllocatedClaim`: 32 handles of 16 KiB each (both limits reached, not exceeded)."""
    obj = claim()
    obj["status"] = {
        "driverName": "valid",
        "allocation": {
            "resourceHandles": [handle(data=" " * 16384) for _ in range(32)],
            "shareable": shareable,
        },
        **status,
    }
    return obj


def updated(old: dict[str, Any], mutate: Mutation) -> dict[str, Any]:
    new = copy.deepcopy(old)
    mutate(new)
    return new


def set_status(**fields: Any) -> Mutation:
    def mutate(obj: dict[str, Any]) -> None:
        status = obj.setdefault("status", {})
        for key, value in fields.items():
            if value is DELETE:
                status.pop(key, None)
            else:
                status[key] = value

    return mutate


DELETE = object()

# --- create ---------------------------------------------------------------------------------------

CREATE_ROWS: list[tuple[str, dict[str, Any], list[ReasonRow]]] = [
    ("good claim", claim(), []),
    (
        "name is required",
        {**claim(), "metadata": {"namespace": "ns"}},
        [("FieldValueRequired", "metadata.name: Required value: name or generateName is required")],
    ),
    (
        "name is a DNS subdomain",
        {**claim(), "metadata": {"name": BAD, "namespace": "ns"}},
        [("FieldValueInvalid", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "namespace is required",
        {**claim(), "metadata": {"name": "foo"}},
        [("FieldValueRequired", "metadata.namespace: Required value")],
    ),
    (
        "class name is a DNS subdomain",
        claim(resourceClassName=BAD),
        [("FieldValueInvalid", f'spec.resourceClassName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "an empty class name gets the regex message, not Required",
        claim(resourceClassName=""),
        [("FieldValueInvalid", f'spec.resourceClassName: Invalid value: "": {SUBDOMAIN_MSG}')],
    ),
    (
        "an over-long class name gets the length message",
        claim(resourceClassName="a" * 254),
        [
            (
                "FieldValueInvalid",
                f'spec.resourceClassName: Invalid value: "{"a" * 254}": must be no more than 253 characters',
            )
        ],
    ),
    ("parameters with kind and name", claim(parametersRef={"kind": "foo", "name": "bar"}), []),
    (
        "parameters apiGroup is not checked in 1.30",
        claim(parametersRef={"apiGroup": "example.com/v1", "kind": "foo", "name": "bar"}),
        [],
    ),
    (
        "parameters kind is required",
        claim(parametersRef={"name": "bar"}),
        [("FieldValueRequired", "spec.parametersRef.kind: Required value")],
    ),
    (
        "parameters name is required",
        claim(parametersRef={"kind": "foo"}),
        [("FieldValueRequired", "spec.parametersRef.name: Required value")],
    ),
    (
        "an empty parametersRef needs both",
        claim(parametersRef={}),
        [
            ("FieldValueRequired", "spec.parametersRef.kind: Required value"),
            ("FieldValueRequired", "spec.parametersRef.name: Required value"),
        ],
    ),
    ("a null parametersRef is absent", claim(parametersRef=None), []),
    ("allocation mode Immediate", claim(allocationMode="Immediate"), []),
    ("an absent allocation mode is defaulted", {**claim(), "spec": {"resourceClassName": "valid"}}, []),
    ("an empty allocation mode is defaulted", claim(allocationMode=""), []),
    (
        "allocation mode must be supported",
        claim(allocationMode="Sometimes"),
        [
            (
                "FieldValueNotSupported",
                f'spec.allocationMode: Unsupported value: "Sometimes": {ALLOCATION_MODES_MSG}',
            )
        ],
    ),
    (
        "status is not validated on create",
        {**claim(), "status": {"driverName": BAD, "reservedFor": [{}, {}]}},
        [],
    ),
    (
        "every error is reported, none stops the others",
        {
            "metadata": {"name": BAD},
            "spec": {"resourceClassName": "", "parametersRef": {}, "allocationMode": "x"},
        },
        [
            ("FieldValueInvalid", f'metadata.name: Invalid value: "{BAD}": {SUBDOMAIN_MSG}'),
            ("FieldValueRequired", "metadata.namespace: Required value"),
            ("FieldValueInvalid", f'spec.resourceClassName: Invalid value: "": {SUBDOMAIN_MSG}'),
            ("FieldValueRequired", "spec.parametersRef.kind: Required value"),
            ("FieldValueRequired", "spec.parametersRef.name: Required value"),
            (
                "FieldValueNotSupported",
                f'spec.allocationMode: Unsupported value: "x": {ALLOCATION_MODES_MSG}',
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("obj", "expected"), [row[1:] for row in CREATE_ROWS], ids=[r[0] for r in CREATE_ROWS]
)
def test_create(obj: dict[str, Any], expected: list[ReasonRow]) -> None:
    assert rendered_reasons(validate_claim(obj)) == expected
    assert rendered_reasons(RESOURCE_CLAIM.validate_create(obj)) == expected


OBJECT_META_CASES = object_meta_cases(claim(), namespaced=True)


@pytest.mark.parametrize(
    ("obj", "expected"), [c[1:] for c in OBJECT_META_CASES], ids=[c[0] for c in OBJECT_META_CASES]
)
def test_create_object_meta(obj: dict[str, Any], expected: list[Row]) -> None:
    # The ObjectMeta rows of the Go table, with the field as well as the full text.
    assert rendered(validate_claim(obj)) == expected


# --- update ---------------------------------------------------------------------------------------

VALID_FOR_UPDATE = claim(parametersRef={"kind": "foo", "name": "bar"})


def spec_change(**spec: Any) -> Mutation:
    def mutate(obj: dict[str, Any]) -> None:
        for key, value in spec.items():
            if value is DELETE:
                obj["spec"].pop(key, None)
            else:
                obj["spec"][key] = value

    return mutate


UPDATE_ROWS: list[tuple[str, Mutation, list[ReasonRow]]] = [
    ("no-op update", lambda obj: None, []),
    (
        "the class name is immutable",
        spec_change(resourceClassName="valid2"),
        [
            (
                "FieldValueInvalid",
                'spec: Invalid value: {"resourceClassName":"valid2","allocationMode":"WaitForFirstConsumer",'
                '"parametersRef":{"kind":"foo","name":"bar"}}: field is immutable',
            )
        ],
    ),
    (
        "removing the parameters is a spec change",
        spec_change(parametersRef=DELETE),
        [
            (
                "FieldValueInvalid",
                'spec: Invalid value: {"resourceClassName":"valid","allocationMode":"WaitForFirstConsumer"}: '
                "field is immutable",
            )
        ],
    ),
    (
        "rewriting the same parametersRef is no change",
        spec_change(parametersRef={"kind": "foo", "name": "bar"}),
        [],
    ),
    (
        "the allocation mode is immutable",
        spec_change(allocationMode="Immediate"),
        [
            (
                "FieldValueInvalid",
                'spec: Invalid value: {"resourceClassName":"valid","allocationMode":"Immediate",'
                '"parametersRef":{"kind":"foo","name":"bar"}}: field is immutable',
            )
        ],
    ),
    ("a dropped allocation mode is the default, not a change", spec_change(allocationMode=DELETE), []),
    (
        "an explicit empty apiGroup equals an absent one",
        spec_change(parametersRef={"kind": "foo", "name": "bar", "apiGroup": ""}),
        [],
    ),
    ("fields Go does not know do not count", spec_change(unknownField=[1, 2]), []),
    (
        "metadata update rules run first",
        lambda obj: obj["metadata"].update(resourceVersion="", namespace="other"),
        [
            (
                "FieldValueInvalid",
                'metadata.resourceVersion: Invalid value: "": must be specified for an update',
            ),
            ("FieldValueInvalid", 'metadata.namespace: Invalid value: "other": field is immutable'),
        ],
    ),
    (
        "status changes are not judged by the main resource",
        lambda obj: obj.update(status={"driverName": BAD, "deallocationRequested": True}),
        [],
    ),
]


@pytest.mark.parametrize(
    ("mutate", "expected"), [row[1:] for row in UPDATE_ROWS], ids=[r[0] for r in UPDATE_ROWS]
)
def test_update(mutate: Mutation, expected: list[ReasonRow]) -> None:
    old = copy.deepcopy(VALID_FOR_UPDATE)
    assert rendered_reasons(validate_claim_update(updated(old, mutate), old)) == expected


def test_spec_immutability_tells_an_explicit_empty_parameters_ref_from_an_absent_one() -> None:
    old = claim()
    new = claim(parametersRef={})
    assert rendered_reasons(validate_claim_update(new, old)) == [
        (
            "FieldValueInvalid",
            'spec: Invalid value: {"resourceClassName":"valid","allocationMode":"WaitForFirstConsumer",'
            '"parametersRef":{}}: field is immutable',
        ),
        ("FieldValueRequired", "spec.parametersRef.kind: Required value"),
        ("FieldValueRequired", "spec.parametersRef.name: Required value"),
    ]


def test_spec_immutability_treats_a_null_parameters_ref_as_absent() -> None:
    assert validate_claim_update(claim(parametersRef=None), claim()) == []
    assert validate_claim_update(claim(), claim(parametersRef=None)) == []


def test_spec_immutability_treats_an_absent_old_allocation_mode_as_defaulted() -> None:
    old = {**claim(), "spec": {"resourceClassName": "valid"}}
    assert validate_claim_update(claim(), old) == []
    assert validate_claim_update(claim(allocationMode="Immediate"), old) != []


def test_update_reports_each_error_once_in_validate_claim_update_order() -> None:
    """ValidateClaimUpdate: ObjectMetaUpdate, the immutable spec, then ValidateClaim(new). (The registry
    strategy runs ValidateClaim(new) before it as well; we do not repeat those causes.)"""
    old = claim(resourceClassName=BAD)
    new = claim(resourceClassName=BAD, allocationMode="Immediate")
    bad_class = ("FieldValueInvalid", f'spec.resourceClassName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')
    immutable = (
        "FieldValueInvalid",
        f'spec: Invalid value: {{"resourceClassName":"{BAD}","allocationMode":"Immediate"}}: field is immutable',
    )
    errs = RESOURCE_CLAIM.validate_update(new, old)
    assert rendered_reasons(errs) == [immutable, bad_class]
    assert aggregate_message(errs) == f"[{immutable[1]}, {bad_class[1]}]"


# --- status update --------------------------------------------------------------------------------

VALID = claim()
ALLOCATED = allocated()
NOT_SHAREABLE = allocated(shareable=False)
DEALLOCATING = allocated(deallocationRequested=True)
DELETING = updated(allocated(), lambda obj: obj["metadata"].update(deletionTimestamp="2024-05-01T12:00:00Z"))
RESERVED = allocated(reservedFor=[consumer(1)])


def structured(**fields: Any) -> dict[str, Any]:
    return {"driverName": "valid", "allocation": {"resourceHandles": [handle(structuredData=fields)]}}


STATUS_ROWS: list[tuple[str, dict[str, Any], Mutation, list[ReasonRow]]] = [
    ("no-op update", VALID, lambda obj: None, []),
    ("adding the driver name", VALID, set_status(driverName="valid"), []),
    (
        "the driver name is a driver name",
        VALID,
        set_status(driverName=BAD),
        [("FieldValueInvalid", f'status.driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')],
    ),
    (
        "an allocation needs the driver name",
        VALID,
        set_status(allocation={}),
        [
            (
                "FieldValueRequired",
                "status.driverName: Required value: must be specified when `allocation` is set",
            )
        ],
    ),
    (
        "an allocation with a handle of exactly 16384 bytes",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle(data=" " * 16384)]}),
        [],
    ),
    (
        "handle data may not exceed 16384 bytes",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle(data=" " * 16385)]}),
        [
            (
                "FieldValueTooLong",
                "status.allocation.resourceHandles[0].data: Too long: may not be longer than 16384",
            )
        ],
    ),
    (
        "handle data is measured in bytes, not characters (8193 x 2-byte é)",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle(data="é" * 8193)]}),
        [
            (
                "FieldValueTooLong",
                "status.allocation.resourceHandles[0].data: Too long: may not be longer than 16384",
            )
        ],
    ),
    (
        "8192 x 2-byte é is exactly 16384 bytes",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle(data="é" * 8192)]}),
        [],
    ),
    (
        "at most 32 resource handles",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle() for _ in range(33)]}),
        [("FieldValueTooLong", "status.allocation.resourceHandles: Too long: may not be longer than 32")],
    ),
    (
        "a handle's driver name is a driver name",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [handle(driverName=BAD)]}),
        [
            (
                "FieldValueInvalid",
                f'status.allocation.resourceHandles[0].driverName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "a handle without a driver name gets Required and the regex message",
        VALID,
        set_status(driverName="valid", allocation={"resourceHandles": [{"data": "x"}]}),
        [
            ("FieldValueRequired", "status.allocation.resourceHandles[0].driverName: Required value"),
            (
                "FieldValueInvalid",
                f'status.allocation.resourceHandles[0].driverName: Invalid value: "": {SUBDOMAIN_MSG}',
            ),
        ],
    ),
    ("an empty structured handle", VALID, set_status(**structured()), []),
    ("a structured handle with a node name", VALID, set_status(**structured(nodeName="worker")), []),
    (
        "structured data: node name, then one model per result",
        VALID,
        set_status(**structured(nodeName="&^!", results=[{"namedResources": {"name": "some-instance"}}, {}])),
        [
            (
                "FieldValueInvalid",
                "status.allocation.resourceHandles[0].structuredData.nodeName: Invalid value: "
                f'"&^!": {SUBDOMAIN_MSG}',
            ),
            (
                "FieldValueRequired",
                "status.allocation.resourceHandles[0].structuredData.results[1]: Required value: "
                f"{MODEL_REQUIRED_MSG}",
            ),
        ],
    ),
    (
        "a named resources result names a DNS subdomain",
        VALID,
        set_status(**structured(results=[{"namedResources": {"name": "Bad_Name"}}])),
        [
            (
                "FieldValueInvalid",
                "status.allocation.resourceHandles[0].structuredData.results[0].namedResources.name: "
                f'Invalid value: "Bad_Name": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "data and structuredData are mutually exclusive (Go passes nil as the value)",
        VALID,
        set_status(
            driverName="valid",
            allocation={"resourceHandles": [handle(data="something", structuredData={"nodeName": "worker"})]},
        ),
        [
            (
                "FieldValueInvalid",
                'status.allocation.resourceHandles[0]: Invalid value: "null": '
                "data and structuredData are mutually exclusive",
            )
        ],
    ),
    (
        "availableOnNodes is a node selector",
        VALID,
        set_status(driverName="valid", allocation={"availableOnNodes": {}}),
        [
            (
                "FieldValueRequired",
                "status.allocation.availableOnNodes.nodeSelectorTerms: Required value: "
                "must have at least one node selector term",
            )
        ],
    ),
    (
        "32 reservations on a shareable allocation",
        ALLOCATED,
        set_status(reservedFor=[consumer(i) for i in range(32)]),
        [],
    ),
    (
        "allocating and reserving at once",
        VALID,
        set_status(**allocated(reservedFor=[consumer(i) for i in range(32)])["status"]),
        [],
    ),
    (
        "at most 32 reservations",
        ALLOCATED,
        set_status(reservedFor=[consumer(i) for i in range(33)]),
        [("FieldValueTooLong", "status.reservedFor: Too long: may not be longer than 32")],
    ),
    (
        "a consumer uid may appear once",
        ALLOCATED,
        set_status(reservedFor=[consumer(1, name="foo"), consumer(1, name="foo")]),
        [("FieldValueDuplicate", 'status.reservedFor[1].uid: Duplicate value: "1"')],
    ),
    (
        "a repeated uid is not checked further",
        ALLOCATED,
        set_status(reservedFor=[consumer(1), {"uid": "1"}]),
        [("FieldValueDuplicate", 'status.reservedFor[1].uid: Duplicate value: "1"')],
    ),
    (
        "a second empty uid is a duplicate of the first",
        ALLOCATED,
        set_status(reservedFor=[{"resource": "pods", "name": "a"}, {"resource": "pods", "name": "b"}]),
        [
            ("FieldValueRequired", "status.reservedFor[0].uid: Required value"),
            ("FieldValueDuplicate", 'status.reservedFor[1].uid: Duplicate value: ""'),
        ],
    ),
    (
        "a claim that is not shareable may not be reserved more than once",
        NOT_SHAREABLE,
        set_status(reservedFor=[consumer(0), consumer(1)]),
        [("FieldValueForbidden", "status.reservedFor: Forbidden: may not be reserved more than once")],
    ),
    (
        "reservations need an allocation",
        VALID,
        set_status(driverName="valid", reservedFor=[consumer(1)]),
        [
            (
                "FieldValueForbidden",
                "status.reservedFor: Forbidden: may not be specified when `allocated` is not set",
            )
        ],
    ),
    (
        "a consumer needs a resource",
        ALLOCATED,
        set_status(reservedFor=[{"name": "foo", "uid": "1"}]),
        [("FieldValueRequired", "status.reservedFor[0].resource: Required value")],
    ),
    (
        "a consumer needs a name",
        ALLOCATED,
        set_status(reservedFor=[{"resource": "pods", "uid": "1"}]),
        [("FieldValueRequired", "status.reservedFor[0].name: Required value")],
    ),
    (
        "a consumer needs a uid",
        ALLOCATED,
        set_status(reservedFor=[{"resource": "pods", "name": "foo"}]),
        [("FieldValueRequired", "status.reservedFor[0].uid: Required value")],
    ),
    (
        "no new reservations while the claim is being deleted",
        DELETING,
        set_status(reservedFor=[consumer(1)]),
        [("FieldValueForbidden", f"status.reservedFor: Forbidden: {NEW_ENTRIES}")],
    ),
    (
        "requesting deallocation is allowed while nothing is reserved",
        ALLOCATED,
        set_status(deallocationRequested=True),
        [],
    ),
    (
        "deallocation cannot be requested while reserved",
        RESERVED,
        set_status(deallocationRequested=True),
        [
            (
                "FieldValueForbidden",
                "status.deallocationRequested: Forbidden: deallocation cannot be requested while `reservedFor` is set",
            )
        ],
    ),
    (
        "deallocation needs an allocation",
        VALID,
        set_status(deallocationRequested=True),
        [
            (
                "FieldValueForbidden",
                "status: Forbidden: `allocation` must be set when `deallocationRequested` is set",
            )
        ],
    ),
    (
        "removing the allocation while deallocation stays requested",
        DEALLOCATING,
        set_status(allocation=DELETE),
        [
            (
                "FieldValueForbidden",
                "status: Forbidden: `allocation` must be set when `deallocationRequested` is set",
            )
        ],
    ),
    (
        "the driver removes the allocation and resets the request together",
        DEALLOCATING,
        set_status(allocation=DELETE, deallocationRequested=False),
        [],
    ),
    (
        "a deallocation request cannot be withdrawn while allocated",
        DEALLOCATING,
        set_status(deallocationRequested=False),
        [
            (
                "FieldValueForbidden",
                "status.deallocationRequested: Forbidden: may not be cleared when `allocation` is set",
            )
        ],
    ),
    (
        "an allocation may be set from nil",
        VALID,
        set_status(driverName="valid", allocation={"shareable": True}),
        [],
    ),
    ("an allocation may be cleared to nil", ALLOCATED, set_status(allocation=None), []),
    (
        "an allocation may not change once set",
        updated(ALLOCATED, set_status(allocation={"resourceHandles": [handle(data="a")]})),
        set_status(allocation={"resourceHandles": [handle(data="b")]}),
        [
            (
                "FieldValueInvalid",
                'status.allocation: Invalid value: {"resourceHandles":[{"driverName":"valid","data":"b"}]}: '
                "field is immutable",
            )
        ],
    ),
    (
        "an allocation compares semantically (false shareable, empty lists)",
        updated(ALLOCATED, set_status(allocation={"resourceHandles": [handle()]})),
        set_status(
            allocation={"resourceHandles": [handle(data="")], "shareable": False, "availableOnNodes": None}
        ),
        [],
    ),
    (
        "the spec is not validated in a status update",
        VALID,
        lambda obj: obj["spec"].update(resourceClassName=BAD, allocationMode="Sometimes"),
        [],
    ),
    (
        "a status update checks metadata changes, not the name format",
        updated(VALID, lambda obj: obj["metadata"].update(name="Not_A_Subdomain")),
        lambda obj: obj["metadata"].update(resourceVersion=""),
        [
            (
                "FieldValueInvalid",
                'metadata.resourceVersion: Invalid value: "": must be specified for an update',
            )
        ],
    ),
]


@pytest.mark.parametrize(
    ("old", "mutate", "expected"), [row[1:] for row in STATUS_ROWS], ids=[r[0] for r in STATUS_ROWS]
)
def test_status_update(old: dict[str, Any], mutate: Mutation, expected: list[ReasonRow]) -> None:
    old = copy.deepcopy(old)
    new = updated(old, mutate)
    assert rendered_reasons(validate_claim_status_update(new, old)) == expected
    assert RESOURCE_CLAIM.validate_status_update is not None
    assert rendered_reasons(RESOURCE_CLAIM.validate_status_update(new, old)) == expected


def test_reserved_for_cannot_grow_while_deallocation_is_requested() -> None:
    old = copy.deepcopy(DEALLOCATING)
    new = updated(old, set_status(reservedFor=[consumer(1)]))
    assert rendered_reasons(validate_claim_status_update(new, old)) == [
        ("FieldValueForbidden", f"status.reservedFor: Forbidden: {NEW_ENTRIES}")
    ]


def test_reserved_for_may_shrink_while_deallocation_is_requested() -> None:
    old = allocated(reservedFor=[consumer(1), consumer(2)], deallocationRequested=True)
    new = updated(old, set_status(reservedFor=[consumer(2)]))
    assert validate_claim_status_update(new, old) == []


def test_a_changed_consumer_counts_as_a_new_entry_while_deleting() -> None:
    """Go compares whole ResourceClaimConsumerReference structs, so a renamed entry is new."""
    old = updated(
        allocated(reservedFor=[consumer(1)]),
        lambda obj: obj["metadata"].update(deletionTimestamp="2024-05-01T12:00:00Z"),
    )
    new = updated(old, set_status(reservedFor=[consumer(1, name="renamed")]))
    assert rendered_reasons(validate_claim_status_update(new, old)) == [
        ("FieldValueForbidden", f"status.reservedFor: Forbidden: {NEW_ENTRIES}")
    ]


def test_the_deletion_rule_looks_at_the_new_objects_deletion_timestamp() -> None:
    """1.30 reads `resourceClaim.DeletionTimestamp` (the new object); the old one's only matters through
    ObjectMetaUpdate, which reports the change itself."""
    old = copy.deepcopy(ALLOCATED)
    new = updated(old, set_status(reservedFor=[consumer(1)]))
    new["metadata"]["deletionTimestamp"] = "2024-05-01T12:00:00Z"
    assert rendered_reasons(validate_claim_status_update(new, old)) == [
        (
            "FieldValueInvalid",
            "metadata.deletionTimestamp: Invalid value: 2024-05-01 12:00:00 +0000 UTC: field is immutable",
        ),
        ("FieldValueForbidden", f"status.reservedFor: Forbidden: {NEW_ENTRIES}"),
    ]


def test_status_errors_come_in_the_api_servers_order() -> None:
    old = copy.deepcopy(NOT_SHAREABLE)
    old["status"]["deallocationRequested"] = True
    new = updated(
        old,
        set_status(
            driverName=BAD,
            allocation={"resourceHandles": [handle(data="x" * 16385)]},
            reservedFor=[consumer(1), consumer(1), {}],
            deallocationRequested=True,
        ),
    )
    assert [err.field for err in validate_claim_status_update(new, old)] == [
        "status.driverName",
        "status.allocation.resourceHandles[0].data",
        "status.reservedFor[1].uid",
        "status.reservedFor[2].resource",
        "status.reservedFor[2].name",
        "status.reservedFor[2].uid",
        "status.reservedFor",  # may not be reserved more than once
        "status.reservedFor",  # new entries while deallocation is requested
        "status.allocation",  # immutable
    ]


# --- malformed input never raises -------------------------------------------------------------------

JUNK = [None, "x", 7, True, [], {}, [None], ["x"], {"x": None}]
PATHS = [
    ("metadata",),
    ("spec",),
    ("spec", "parametersRef"),
    ("spec", "allocationMode"),
    ("spec", "resourceClassName"),
    ("status",),
    ("status", "allocation"),
    ("status", "allocation", "resourceHandles"),
    ("status", "allocation", "availableOnNodes"),
    ("status", "allocation", "shareable"),
    ("status", "reservedFor"),
    ("status", "driverName"),
    ("status", "deallocationRequested"),
]


def _with(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    target = obj
    for key in path[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    target[path[-1]] = value
    return obj


@pytest.mark.parametrize("junk", JUNK, ids=repr)
@pytest.mark.parametrize("path", PATHS, ids=".".join)
def test_malformed_input_never_raises(path: tuple[str, ...], junk: Any) -> None:
    good = allocated(reservedFor=[consumer(1)])
    bad = _with(good, path, junk)
    for new, old in ((bad, good), (good, bad), (bad, bad)):
        assert isinstance(validate_claim(new), list)
        assert isinstance(RESOURCE_CLAIM.validate_update(new, old), list)
        assert isinstance(validate_claim_status_update(new, old), list)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "metadata",
                    "spec",
                    "status",
                    "allocation",
                    "resourceHandles",
                    "reservedFor",
                    "structuredData",
                    "results",
                    "namedResources",
                    "name",
                    "uid",
                    "data",
                    "driverName",
                    "parametersRef",
                    "nodeName",
                    "availableOnNodes",
                    "nodeSelectorTerms",
                    "deletionTimestamp",
                    "deallocationRequested",
                    "shareable",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(new=JSON, old=JSON)
def test_arbitrary_json_never_raises(new: Any, old: Any) -> None:
    new_obj = new if isinstance(new, dict) else {"status": new}
    old_obj = old if isinstance(old, dict) else {"spec": old}
    validate_claim(new_obj)
    RESOURCE_CLAIM.validate_update(new_obj, old_obj)
    validate_claim_status_update(new_obj, old_obj)


def test_kind_rules() -> None:
    assert str(RESOURCE_CLAIM.gvk) == "resource.k8s.io/v1alpha2, Kind=ResourceClaim"
    assert RESOURCE_CLAIM.resource == "resourceclaims"
    assert RESOURCE_CLAIM.namespaced
    assert RESOURCE_CLAIM.subresources == ("status",)
