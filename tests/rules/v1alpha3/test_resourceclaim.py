"""ResourceClaim (v1alpha3, Kubernetes 1.31): each rule of `ValidateResourceClaim*` as a table of rows.

The seed's rule -- "While [deallocationRequested] is set, no new consumers may be added to ReservedFor
... There can be at most 32 such reservations" -- is checked at its boundaries: 32 reservations are
fine, 33 are too many; entries may be removed while deallocation is requested or the claim is being
deleted, and the same list may be written back, but no entry may be added.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.rules.expected import BAD, LABEL_MSG, SUBDOMAIN_MSG, ReasonRow, rendered_reasons
from webhook.rules.v1alpha3.resourceclaim import (
    RESOURCE_CLAIM,
    validate_claim,
    validate_claim_status_update,
    validate_claim_update,
)

NEW_ENTRIES = (
    "status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or "
    "`deletionTimestamp` are set"
)
NOT_A_REQUEST = "must be the name of a request in the claim"
MODES = 'supported values: "All", "ExactCount"'


def request(name: str = "gpu", **fields: Any) -> dict[str, Any]:
    return {"name": name, "deviceClassName": "gpu.example.com", **fields}


def claim(*requests: dict[str, Any], **devices: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha3",
        "kind": "ResourceClaim",
        "metadata": {"name": "claim", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"devices": {"requests": list(requests) or [request()], **devices}},
    }


def consumer(i: int, **fields: Any) -> dict[str, str]:
    return {"resource": "pods", "name": f"pod-{i}", "uid": f"uid-{i}", **fields}


def with_status(obj: dict[str, Any], **status: Any) -> dict[str, Any]:
    changed = copy.deepcopy(obj)
    changed["status"] = status
    return changed


ALLOCATION = {
    "devices": {
        "results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"}]
    }
}


def allocated(**status: Any) -> dict[str, Any]:
    return with_status(claim(), allocation=copy.deepcopy(ALLOCATION), **status)


def reserved(count: int, **status: Any) -> dict[str, Any]:
    return allocated(reservedFor=[consumer(i) for i in range(count)], **status)


# --- requests -------------------------------------------------------------------------------------

REQUEST_ROWS: list[tuple[str, dict[str, Any], list[ReasonRow]]] = [
    ("mode and count are defaulted to ExactCount and 1", request(), []),
    ("ExactCount with count 0 is defaulted to 1", request(allocationMode="ExactCount", count=0), []),
    ("ExactCount of 3", request(allocationMode="ExactCount", count=3), []),
    (
        "ExactCount needs a positive count",
        request(allocationMode="ExactCount", count=-2),
        [
            (
                "FieldValueInvalid",
                "spec.devices.requests[0].count: Invalid value: -2: must be greater than zero",
            )
        ],
    ),
    ("All without a count", request(allocationMode="All"), []),
    (
        "All takes no count",
        request(allocationMode="All", count=1),
        [
            (
                "FieldValueInvalid",
                "spec.devices.requests[0].count: Invalid value: 1: must not be specified when allocationMode is 'All'",
            )
        ],
    ),
    (
        "the mode is All or ExactCount",
        request(allocationMode="Any"),
        [
            (
                "FieldValueNotSupported",
                f'spec.devices.requests[0].allocationMode: Unsupported value: "Any": {MODES}',
            )
        ],
    ),
    (
        "the request name is a DNS label",
        request("gpu.0"),
        [
            (
                "FieldValueInvalid",
                'spec.devices.requests[0].name: Invalid value: "gpu.0": must not contain dots',
            )
        ],
    ),
    (
        "the device class name is required",
        request(deviceClassName=""),
        [("FieldValueRequired", "spec.devices.requests[0].deviceClassName: Required value")],
    ),
    (
        "the device class name is a DNS subdomain",
        request(deviceClassName=BAD),
        [
            (
                "FieldValueInvalid",
                f'spec.devices.requests[0].deviceClassName: Invalid value: "{BAD}": {SUBDOMAIN_MSG}',
            )
        ],
    ),
    (
        "a selector needs cel",
        request(selectors=[{}]),
        [("FieldValueRequired", "spec.devices.requests[0].selectors[0].cel: Required value")],
    ),
    ("adminAccess is not checked", request(adminAccess=True), []),
]


@pytest.mark.parametrize(
    ("obj", "expected"), [(claim(r[1]), r[2]) for r in REQUEST_ROWS], ids=[r[0] for r in REQUEST_ROWS]
)
def test_a_request(obj: dict[str, Any], expected: list[ReasonRow]) -> None:
    assert rendered_reasons(validate_claim(obj)) == expected
    assert rendered_reasons(RESOURCE_CLAIM.validate_create(obj)) == expected


def test_requests_are_a_set_by_name_checked_whole_before_the_duplicates() -> None:
    obj = claim(request("GPU"), request("GPU"))
    assert rendered_reasons(validate_claim(obj)) == [
        ("FieldValueInvalid", f'spec.devices.requests[0].name: Invalid value: "GPU": {LABEL_MSG}'),
        ("FieldValueInvalid", f'spec.devices.requests[1].name: Invalid value: "GPU": {LABEL_MSG}'),
        ("FieldValueDuplicate", 'spec.devices.requests[1].name: Duplicate value: "GPU"'),
    ]


@pytest.mark.parametrize(
    ("count", "expected"), [(32, []), (33, ["spec.devices.requests: Too long: may not be longer than 32"])]
)
def test_a_claim_has_at_most_32_requests(count: int, expected: list[str]) -> None:
    obj = claim(*(request(f"r{i}") for i in range(count)))
    assert [str(err) for err in validate_claim(obj)] == expected


# --- constraints and config -----------------------------------------------------------------------

DEVICE_ROWS: list[tuple[str, dict[str, Any], list[ReasonRow]]] = [
    (
        "a constraint on a request of the claim",
        {"constraints": [{"requests": ["gpu"], "matchAttribute": "gpu.example.com/numa"}]},
        [],
    ),
    (
        "a constraint names requests of the claim",
        {"constraints": [{"requests": ["tpu"], "matchAttribute": "gpu.example.com/numa"}]},
        [
            (
                "FieldValueInvalid",
                f'spec.devices.constraints[0].requests[0]: Invalid value: "tpu": {NOT_A_REQUEST}',
            )
        ],
    ),
    (
        "a constraint needs matchAttribute",
        {"constraints": [{}]},
        [("FieldValueRequired", "spec.devices.constraints[0].matchAttribute: Required value")],
    ),
    (
        "matchAttribute is fully qualified",
        {"constraints": [{"matchAttribute": "numa"}]},
        [
            (
                "FieldValueRequired",
                "spec.devices.constraints[0].matchAttribute.domain: Required value: must include a prefix",
            )
        ],
    ),
    (
        "a configuration needs opaque",
        {"config": [{"requests": ["gpu"]}]},
        [("FieldValueRequired", "spec.devices.config[0].opaque: Required value")],
    ),
    (
        "opaque parameters are required",
        {"config": [{"opaque": {"driver": "gpu.example.com"}}]},
        [("FieldValueRequired", "spec.devices.config[0].opaque.parameters: Required value")],
    ),
    (
        "opaque parameters are a JSON object",
        {"config": [{"opaque": {"driver": "gpu.example.com", "parameters": "sharing: true"}}]},
        [
            (
                "FieldValueInvalid",
                'spec.devices.config[0].opaque.parameters: Invalid value: "<value omitted>": '
                "parameters must be a valid JSON object",
            )
        ],
    ),
    (
        "opaque parameters may be any object",
        {"config": [{"opaque": {"driver": "gpu.example.com", "parameters": {"a": [1]}}}]},
        [],
    ),
]


@pytest.mark.parametrize(
    ("devices", "expected"), [r[1:] for r in DEVICE_ROWS], ids=[r[0] for r in DEVICE_ROWS]
)
def test_constraints_and_config(devices: dict[str, Any], expected: list[ReasonRow]) -> None:
    assert rendered_reasons(validate_claim(claim(**devices))) == expected


@pytest.mark.parametrize(
    ("controller", "expected"),
    [
        ("", []),
        ("GPU.Example.com", []),
        (BAD, [("FieldValueInvalid", f'spec.controller: Invalid value: "{BAD}": {SUBDOMAIN_MSG}')]),
    ],
)
def test_the_controller_is_a_driver_name_when_set(controller: str, expected: list[ReasonRow]) -> None:
    obj = claim()
    obj["spec"]["controller"] = controller
    assert rendered_reasons(validate_claim(obj)) == expected


# --- update -----------------------------------------------------------------------------------------


def test_the_spec_is_immutable() -> None:
    old = claim()
    new = claim(request(allocationMode="ExactCount", count=2))
    assert [(err.type.value, err.field, err.detail) for err in validate_claim_update(new, old)] == [
        ("FieldValueInvalid", "spec", "field is immutable")
    ]


def test_the_spec_is_compared_as_defaulted() -> None:
    assert validate_claim_update(claim(request(allocationMode="ExactCount", count=1)), claim()) == []


def test_an_update_reports_what_only_the_create_pass_finds_and_each_error_once() -> None:
    old = claim()
    new = copy.deepcopy(old)
    new["metadata"]["finalizers"] = ["orphan", "foregroundDeletion"]  # ValidateFinalizers: create pass only
    new["metadata"]["labels"] = {"a": "b c"}  # both passes
    new["spec"]["devices"]["requests"][0]["deviceClassName"] = BAD  # spec change, then the spec check
    assert [(err.field, err.detail[:30]) for err in validate_claim_update(new, old)] == [
        ("metadata.finalizers", "finalizer orphan and foregroun"),
        ("metadata.labels", "a valid label must be an empty"),
        ("spec", "field is immutable"),
        ("spec.devices.requests[0].deviceClassName", SUBDOMAIN_MSG[:30]),
    ]


# --- status: the seed's rule ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, []), (1, []), (32, []), (33, ["status.reservedFor: Too long: may not be longer than 32"])],
)
def test_there_can_be_at_most_32_reservations(count: int, expected: list[str]) -> None:
    assert [str(err) for err in validate_claim_status_update(reserved(count), allocated())] == expected


DEALLOCATING = reserved(3, deallocationRequested=True)


def deleted(obj: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(obj)
    changed["metadata"]["deletionTimestamp"] = "2024-08-13T10:00:00Z"
    return changed


RESERVATION_ROWS: list[tuple[str, list[dict[str, str]], list[str]]] = [
    ("the same list may be written back", [consumer(0), consumer(1), consumer(2)], []),
    ("entries may be removed", [consumer(2)], []),
    ("all entries may be removed", [], []),
    ("the order does not matter", [consumer(2), consumer(0), consumer(1)], []),
    ("no entry may be added", [consumer(0), consumer(1), consumer(2), consumer(3)], [NEW_ENTRIES]),
    ("no entry may replace another", [consumer(0), consumer(1), consumer(3)], [NEW_ENTRIES]),
    ("an entry with another apiGroup is new", [consumer(0, apiGroup="example.com")], [NEW_ENTRIES]),
]


@pytest.mark.parametrize(
    ("entries", "expected"), [r[1:] for r in RESERVATION_ROWS], ids=[r[0] for r in RESERVATION_ROWS]
)
def test_reserved_for_cannot_grow_while_deallocation_is_requested(
    entries: list[dict[str, str]], expected: list[str]
) -> None:
    new = with_status(DEALLOCATING, **{**DEALLOCATING["status"], "reservedFor": entries})
    assert [str(err) for err in validate_claim_status_update(new, DEALLOCATING)] == expected


@pytest.mark.parametrize(
    ("entries", "expected"), [r[1:] for r in RESERVATION_ROWS], ids=[r[0] for r in RESERVATION_ROWS]
)
def test_reserved_for_cannot_grow_while_the_claim_is_being_deleted(
    entries: list[dict[str, str]], expected: list[str]
) -> None:
    old = deleted(reserved(3))
    new = with_status(old, **{**old["status"], "reservedFor": entries})
    assert [str(err) for err in validate_claim_status_update(new, old)] == expected


def test_reserved_for_may_grow_to_32_when_nothing_stops_it() -> None:
    assert validate_claim_status_update(reserved(32), reserved(3)) == []


def test_33_reservations_while_deallocating_are_too_many_and_new() -> None:
    assert [
        str(err)
        for err in validate_claim_status_update(
            reserved(33, deallocationRequested=True), reserved(32, deallocationRequested=True)
        )
    ] == [
        "status.reservedFor: Too long: may not be longer than 32",
        NEW_ENTRIES,
    ]


# --- status: the other invariants -------------------------------------------------------------------

STATUS_ROWS: list[tuple[str, dict[str, Any], dict[str, Any], list[str]]] = [
    ("an allocation may be added", allocated(), claim(), []),
    ("an allocation may be removed", claim(), allocated(), []),
    (
        "reservations need an allocation",
        with_status(claim(), reservedFor=[consumer(0)]),
        claim(),
        ["status.reservedFor: Forbidden: may not be specified when `allocated` is not set"],
    ),
    (
        "a reservation names resource, name and uid",
        allocated(reservedFor=[{"apiGroup": BAD}]),
        allocated(),
        [
            "status.reservedFor[0].resource: Required value",
            "status.reservedFor[0].name: Required value",
            "status.reservedFor[0].uid: Required value",
        ],
    ),
    (
        "reservations are a set by uid",
        allocated(reservedFor=[consumer(0), consumer(1, uid="uid-0")]),
        allocated(),
        ['status.reservedFor[1].uid: Duplicate value: "uid-0"'],
    ),
    ("deallocation may be requested", allocated(deallocationRequested=True), allocated(), []),
    (
        "deallocation cannot be requested while reserved",
        reserved(1, deallocationRequested=True),
        reserved(1),
        [
            "status.deallocationRequested: Forbidden: deallocation cannot be requested while `reservedFor` is set"
        ],
    ),
    (
        "deallocation needs an allocation",
        with_status(claim(), deallocationRequested=True),
        claim(),
        ["status: Forbidden: `allocation` must be set when `deallocationRequested` is set"],
    ),
    (
        "a deallocation request is not withdrawn while allocated",
        allocated(),
        allocated(deallocationRequested=True),
        ["status.deallocationRequested: Forbidden: may not be cleared when `allocation` is set"],
    ),
    ("the driver clears the request with the allocation", claim(), allocated(deallocationRequested=True), []),
    (
        "results name requests of the claim",
        with_status(
            claim(),
            allocation={"devices": {"results": [{**ALLOCATION["devices"]["results"][0], "request": "tpu"}]}},
        ),
        claim(),
        [f'status.allocation.devices.results[0].request: Invalid value: "tpu": {NOT_A_REQUEST}'],
    ),
    (
        "a configuration comes from the class or the claim",
        with_status(
            claim(),
            allocation={
                "devices": {"config": [{"source": "FromPod", "opaque": {"driver": "d", "parameters": {}}}]}
            },
        ),
        claim(),
        [
            'status.allocation.devices.config[0].source: Unsupported value: "FromPod": supported values: "FromClaim", "FromClass"'
        ],
    ),
    (
        "the controller is a driver name",
        with_status(claim(), allocation={"controller": "_"}),
        claim(),
        [f'status.allocation.controller: Invalid value: "_": {SUBDOMAIN_MSG}'],
    ),
]


@pytest.mark.parametrize(
    ("new", "old", "expected"), [r[1:] for r in STATUS_ROWS], ids=[r[0] for r in STATUS_ROWS]
)
def test_status(new: dict[str, Any], old: dict[str, Any], expected: list[str]) -> None:
    assert [str(err) for err in validate_claim_status_update(new, old)] == expected
    assert RESOURCE_CLAIM.validate_status_update is not None
    assert [str(err) for err in RESOURCE_CLAIM.validate_status_update(new, old)] == expected


def test_a_status_update_reads_the_request_names_of_the_stored_spec() -> None:
    # The status strategy's PrepareForUpdate puts the stored spec back before validating: a spec
    # written with a status update is not what the allocation's requests are checked against.
    spec_renamed_to_tpu = with_status(claim(request("tpu")), allocation=copy.deepcopy(ALLOCATION))
    assert validate_claim_status_update(spec_renamed_to_tpu, claim()) == []
    result_for_tpu = with_status(
        claim(request("tpu")),
        allocation={"devices": {"results": [{**ALLOCATION["devices"]["results"][0], "request": "tpu"}]}},
    )
    assert [str(err) for err in validate_claim_status_update(result_for_tpu, claim())] == [
        f'status.allocation.devices.results[0].request: Invalid value: "tpu": {NOT_A_REQUEST}'
    ]


def test_an_allocation_once_set_is_immutable() -> None:
    new = allocated()
    new["status"]["allocation"]["devices"]["results"][0]["device"] = "gpu-1"
    errs = validate_claim_status_update(new, allocated())
    assert [(err.type.value, err.field, err.detail) for err in errs] == [
        ("FieldValueInvalid", "status.allocation", "field is immutable")
    ]
