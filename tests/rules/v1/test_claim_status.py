"""The status of a v1 ResourceClaim as 1.37 validates an update of it: `validateResourceClaimStatusUpdate`
merged with the declarative checks of `ResourceClaimStatus`, after the status strategy's PrepareForUpdate."""

from __future__ import annotations

import copy
from typing import Any

from webhook.rules.v1.allocation import shared_device_id, shown_device_id
from webhook.rules.v1.resourceclaim import drop_deallocated_status_devices, validate_claim_status_update

RESULTS = "status.allocation.devices.results"
SHARE = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"


def claim(**status: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "claim", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"devices": {"requests": [{"name": "req", "exactly": {"deviceClassName": "gpu"}}]}},
    }
    if status:
        obj["status"] = status
    return obj


def result(**fields: Any) -> dict[str, Any]:
    return {"request": "req", "driver": "dra.example.com", "pool": "pool", "device": "dev", **fields}


def allocation(*results: dict[str, Any]) -> dict[str, Any]:
    return {"devices": {"results": list(results) or [result()]}}


def device(**fields: Any) -> dict[str, Any]:
    return {"driver": "dra.example.com", "pool": "pool", "device": "dev", **fields}


def consumer(uid: str = "1", name: str = "pod") -> dict[str, Any]:
    return {"resource": "pods", "name": name, "uid": uid}


def errors_of(new: dict[str, Any], old: dict[str, Any]) -> list[str]:
    return [str(error) for error in validate_claim_status_update(new, old)]


# --- allocation ---------------------------------------------------------------------------------------


def test_a_new_allocation_is_validated_in_full() -> None:
    assert errors_of(claim(allocation=allocation()), claim()) == []
    new = claim(allocation=allocation(result(request="other")))
    assert errors_of(new, claim()) == [
        f'{RESULTS}[0].request: Invalid value: "other": must be the name of a request in the claim'
        " or the name of a request and a subrequest separated by '/'"
    ]


def test_a_set_allocation_cannot_change_and_declarative_validation_says_so() -> None:
    old = claim(allocation=allocation())
    new = claim(allocation=allocation(result(device="other")))
    assert errors_of(new, old) == [
        "status.allocation: Invalid value: null: field cannot be modified once set"
    ]


def test_an_allocation_may_be_removed() -> None:
    assert errors_of(claim(), claim(allocation=allocation())) == []


def test_share_ids_are_lower_case_uuids_in_the_declarative_words() -> None:
    new = claim(allocation=allocation(result(shareID=SHARE.upper())))
    assert errors_of(new, claim()) == [
        f'{RESULTS}[0].shareID: Invalid value: "{SHARE.upper()}": must be a lowercase UUID in 8-4-4-4-12 format'
    ]


def test_binding_conditions_come_with_binding_failure_conditions() -> None:
    new = claim(allocation=allocation(result(bindingConditions=["ready"])))
    assert errors_of(new, claim()) == [
        f"{RESULTS}[0].bindingFailureConditions: Invalid value: null:"
        " bindingFailureConditions are required to use bindingConditions"
    ]


# --- reservedFor ----------------------------------------------------------------------------------------


def test_reservations_need_an_allocation() -> None:
    assert errors_of(claim(reservedFor=[consumer()]), claim()) == [
        "status.reservedFor: Forbidden: may not be specified when `allocated` is not set"
    ]


def test_at_most_256_reservations() -> None:
    old = claim(allocation=allocation())
    at_limit = claim(allocation=allocation(), reservedFor=[consumer(str(i)) for i in range(256)])
    assert errors_of(at_limit, old) == []
    over = claim(allocation=allocation(), reservedFor=[consumer(str(i)) for i in range(257)])
    assert errors_of(over, old) == ["status.reservedFor: Too many: 257: must have at most 256 items"]


def test_a_reservation_is_unique_by_uid_and_the_duplicate_is_shown_whole() -> None:
    new = claim(allocation=allocation(), reservedFor=[consumer("1", "a"), consumer("1", "b")])
    assert errors_of(new, claim(allocation=allocation())) == [
        'status.reservedFor[1]: Duplicate value: {"resource":"pods","name":"b","uid":"1"}'
    ]


def test_no_new_reservations_while_the_claim_is_deleted() -> None:
    old = claim(allocation=allocation(), reservedFor=[consumer("1"), consumer("2")])
    old["metadata"]["deletionTimestamp"] = "2024-01-02T03:04:05Z"
    shrunk = copy.deepcopy(old)
    shrunk["status"]["reservedFor"] = [consumer("2")]
    assert errors_of(shrunk, old) == []
    grown = copy.deepcopy(old)
    grown["status"]["reservedFor"].append(consumer("3"))
    assert errors_of(grown, old) == [
        "status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested`"
        " or `deletionTimestamp` are set"
    ]


# --- devices ----------------------------------------------------------------------------------------------


def test_the_status_of_a_device_needs_the_device_allocated() -> None:
    old = claim(allocation=allocation())
    assert errors_of(claim(allocation=allocation(), devices=[device()]), old) == []
    stray = claim(allocation=allocation(), devices=[device(device="other")])
    assert errors_of(stray, old) == [
        'status.devices[0]: Invalid value: {"Driver":"dra.example.com","Pool":"pool","Device":"other","ShareID":""}:'
        " must be an allocated device in the claim"
    ]


def test_a_shared_device_id_prints_as_encoding_json_does() -> None:
    device_id = shared_device_id("d", "p", "x", None)
    assert shown_device_id(device_id).text == '{"Driver":"d","Pool":"p","Device":"x","ShareID":""}'


def test_device_data_is_a_json_object_of_at_most_10_kib() -> None:
    old = claim(allocation=allocation())
    not_object = claim(allocation=allocation(), devices=[device(data=[1])])
    assert errors_of(not_object, old) == [
        'status.devices[0].data: Invalid value: "<value omitted>": must be a valid JSON object'
    ]
    too_big = claim(allocation=allocation(), devices=[device(data={"s": "x" * 10240})])
    assert errors_of(too_big, old) == ["status.devices[0].data: Too long: may not be more than 10240 bytes"]


def test_network_data_limits_are_declarative_and_addresses_hand_written() -> None:
    network = {"interfaceName": "x" * 257, "ips": ["10.9.8.7"]}
    new = claim(allocation=allocation(), devices=[device(networkData=network)])
    assert errors_of(new, claim(allocation=allocation())) == [
        'status.devices[0].networkData.ips[0]: Invalid value: "10.9.8.7": must be a valid address in CIDR form,'
        " (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
        "status.devices[0].networkData.interfaceName: Too long: may not be more than 256 bytes",
    ]


def test_more_than_8_conditions_are_too_many() -> None:
    conditions = [
        {"type": f"t{i}", "status": "True", "reason": "r", "lastTransitionTime": "2024-01-02T03:04:05Z"}
        for i in range(9)
    ]
    new = claim(allocation=allocation(), devices=[device(conditions=conditions)])
    assert errors_of(new, claim(allocation=allocation())) == [
        "status.devices[0].conditions: Too many: 9: must have at most 8 items"
    ]


def test_the_status_of_deallocated_devices_is_dropped_before_validation() -> None:
    old_status = {"allocation": allocation(), "devices": [device()]}
    assert drop_deallocated_status_devices({"devices": [device()]}, old_status) == {"devices": None}
    assert errors_of(claim(devices=[device()]), claim(**old_status)) == []
