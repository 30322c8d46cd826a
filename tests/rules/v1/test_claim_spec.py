"""The spec of a v1 ResourceClaim (and of a ResourceClaimTemplate's claim) as 1.37 validates it:
the hand-written checks of `validateDeviceClaim`, the declarative ones, and the v1 defaults."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from webhook.rules.v1.resourceclaim import validate_claim, validate_claim_update
from webhook.rules.v1.resourceclaimtemplate import validate_claim_template, validate_claim_template_update

REQUESTS = "spec.devices.requests"


def exactly(name: str = "req", device_class: str = "gpu", **fields: Any) -> dict[str, Any]:
    return {"name": name, "exactly": {"deviceClassName": device_class, **fields}}


def first_available(name: str = "req", *subrequests: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "firstAvailable": list(subrequests)}


def subrequest(name: str, device_class: str = "gpu", **fields: Any) -> dict[str, Any]:
    return {"name": name, "deviceClassName": device_class, **fields}


def claim(*requests: dict[str, Any], **devices: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "claim", "namespace": "ns"},
        "spec": {"devices": {"requests": list(requests), **devices}},
    }


def template(claim_spec: dict[str, Any], **template_meta: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"spec": claim_spec}
    if template_meta:
        spec["metadata"] = template_meta
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": "template", "namespace": "ns"},
        "spec": spec,
    }


def errors_of(obj: dict[str, Any]) -> list[str]:
    return [str(error) for error in validate_claim(obj)]


# --- requests -----------------------------------------------------------------------------------------


def test_a_request_with_exactly_and_defaults_is_valid() -> None:
    # allocationMode ExactCount and count 1 come from the v1 defaulters, before validation.
    assert errors_of(claim(exactly())) == []


def test_a_request_needs_exactly_one_of_exactly_and_first_available() -> None:
    assert errors_of(claim({"name": "req"})) == [
        f"{REQUESTS}[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"
    ]
    both = {**exactly(), "firstAvailable": [subrequest("a")]}
    assert errors_of(claim(both)) == [
        f"{REQUESTS}[0]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required,"
        " but multiple fields are set"
    ]


def test_first_available_subrequests_are_validated_like_requests() -> None:
    assert errors_of(claim(first_available("req", subrequest("a"), subrequest("b")))) == []
    errors = errors_of(claim(first_available("req", subrequest("a", allocationMode="All", count=2))))
    assert errors == [
        f"{REQUESTS}[0].firstAvailable[0].count: Invalid value: 2: must not be specified when allocationMode is 'All'"
    ]


def test_the_allocation_mode_is_one_of_two() -> None:
    errors = errors_of(claim(exactly(allocationMode="Some")))
    assert errors == [
        f'{REQUESTS}[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"'
    ]


def test_an_exact_count_is_positive_and_zero_means_the_default_of_one() -> None:
    assert errors_of(claim(exactly(allocationMode="ExactCount", count=0))) == []
    assert errors_of(claim(exactly(allocationMode="ExactCount", count=-1))) == [
        f"{REQUESTS}[0].exactly.count: Invalid value: -1: must be greater than zero"
    ]


def test_request_names_are_unique_and_declarative_validation_shows_the_whole_duplicate() -> None:
    # The hand-written Duplicate at .name gives way to the declarative one at the item, which
    # prints the (defaulted) v1 struct as encoding/json writes it.
    errors = errors_of(claim(exactly("req"), exactly("req")))
    assert errors == [
        f'{REQUESTS}[1]: Duplicate value: {{"name":"req","exactly":'
        '{"deviceClassName":"gpu","allocationMode":"ExactCount","count":1}}'
    ]


def test_more_than_32_requests_are_too_many_in_1_37_words() -> None:
    requests = [exactly(f"req-{i}") for i in range(33)]
    assert errors_of(claim(*requests)) == [f"{REQUESTS}: Too many: 33: must have at most 32 items"]


def test_more_than_8_subrequests_are_too_many() -> None:
    subrequests = [subrequest(f"sub-{i}") for i in range(9)]
    assert errors_of(claim(first_available("req", *subrequests))) == [
        f"{REQUESTS}[0].firstAvailable: Too many: 9: must have at most 8 items"
    ]


# --- constraints and configuration ----------------------------------------------------------------


def test_constraints_name_an_attribute_and_known_requests() -> None:
    spec_ok = claim(
        exactly("req"), constraints=[{"requests": ["req"], "matchAttribute": "dra.example.com/numa"}]
    )
    assert errors_of(spec_ok) == []
    errors = errors_of(claim(exactly("req"), constraints=[{"requests": ["other"]}]))
    assert errors == [
        'spec.devices.constraints[0].requests[0]: Invalid value: "other": must be the name of a request in the claim'
        " or the name of a request and a subrequest separated by '/'",
        'spec.devices.constraints[0]: Required value: exactly one of "matchAttribute" or "distinctAttribute"'
        " is required, but multiple fields are set",
    ]


def test_a_request_reference_may_name_a_subrequest() -> None:
    spec = claim(
        first_available("req", subrequest("a"), subrequest("b")),
        constraints=[{"requests": ["req/a"], "distinctAttribute": "dra.example.com/numa"}],
    )
    assert errors_of(spec) == []


def test_opaque_parameters_are_limited_to_10_kib() -> None:
    parameters = {"data": "x" * 10240}
    config = [{"opaque": {"driver": "dra.example.com", "parameters": parameters}}]
    assert errors_of(claim(exactly(), config=config)) == [
        "spec.devices.config[0].opaque.parameters: Too long: may not be more than 10240 bytes"
    ]


# --- update -------------------------------------------------------------------------------------------


def test_the_spec_is_immutable_and_declarative_validation_says_so() -> None:
    old = claim(exactly())
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    new["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"] = "other"
    errors = [str(error) for error in validate_claim_update(new, old)]
    assert len(errors) == 1
    assert errors[0].startswith("spec: Invalid value: ") and errors[0].endswith("field is immutable")


def test_an_update_that_only_spells_out_the_defaults_changes_nothing() -> None:
    old = claim(exactly())
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    new["spec"]["devices"]["requests"][0]["exactly"].update(allocationMode="ExactCount", count=1)
    assert validate_claim_update(new, old) == []


# --- templates ----------------------------------------------------------------------------------------


def test_a_template_checks_its_claim_spec_under_spec_spec() -> None:
    errors = [
        str(error) for error in validate_claim_template(template({"devices": {"requests": [{"name": "r"}]}}))
    ]
    assert errors == [
        "spec.spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"
    ]


def test_a_template_metadata_has_only_labels_and_annotations() -> None:
    spec = {"devices": {"requests": [exactly()]}}
    assert validate_claim_template(template(spec, labels={"a": "b"}, annotations={"c": "d"})) == []
    errors = [str(error) for error in validate_claim_template(template(spec, name="x", labels={"a": "b c"}))]
    assert [error.split(":")[0] for error in errors] == ["spec.metadata.labels", "spec.metadata.name"]
    assert errors[1] == "spec.metadata.name: Forbidden: cannot be set"


def test_a_template_spec_is_immutable() -> None:
    old = template({"devices": {"requests": [exactly()]}})
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    new["spec"]["metadata"] = {"labels": {"a": "b"}}
    errors = [str(error) for error in validate_claim_template_update(new, old)]
    assert len(errors) == 1 and errors[0].startswith("spec: Invalid value: {")
    assert errors[0].endswith(": field is immutable")


# The bad value of the immutable spec is the internal ResourceClaimTemplateSpec as json.Marshal writes it:
# the embedded metav1.ObjectMeta's fields promoted (its own tags, omitempty; creationTimestamp omitzero),
# then the internal structs with no tags (Go names, every field, nil as null, `[]` as []).
_REQ_GPU = (
    '{"Name":"req","Exactly":{"DeviceClassName":"gpu","Selectors":null,"AllocationMode":"ExactCount","Count":1,'
    '"AdminAccess":null,"Tolerations":null,"Capacity":null},"FirstAvailable":null}'
)


@pytest.mark.parametrize(
    ("new_spec", "shown"),
    [
        # An empty map and a null creationTimestamp are left out; other metadata comes before "Spec".
        (
            {
                "metadata": {"creationTimestamp": None, "labels": {}, "annotations": {"b": "2", "a": "<1>"}},
                "spec": {"devices": {"requests": [exactly(device_class="other")]}},
            },
            '{"annotations":{"a":"\\u003c1\\u003e","b":"2"},"Spec":{"Devices":{"Requests":[{"Name":"req",'
            '"Exactly":{"DeviceClassName":"other","Selectors":null,"AllocationMode":"ExactCount","Count":1,'
            '"AdminAccess":null,"Tolerations":null,"Capacity":null},"FirstAvailable":null}],'
            '"Constraints":null,"Config":null}}}',
        ),
        (
            {
                "metadata": {"name": "n", "creationTimestamp": "2024-01-02T03:04:05Z", "generation": 0},
                "spec": {"devices": {"requests": [exactly()]}},
            },
            '{"name":"n","creationTimestamp":"2024-01-02T03:04:05Z","Spec":{"Devices":{"Requests":['
            + _REQ_GPU
            + '],"Constraints":null,"Config":null}}}',
        ),
        (
            {"spec": {"devices": {"requests": [], "constraints": [], "config": []}}},
            '{"Spec":{"Devices":{"Requests":[],"Constraints":[],"Config":[]}}}',
        ),
        ({}, '{"Spec":{"Devices":{"Requests":null,"Constraints":null,"Config":null}}}'),
        (
            {
                "spec": {
                    "devices": {
                        "requests": [exactly()],
                        "constraints": [{"distinctAttribute": "example.com/card"}],
                        "config": [{"opaque": {"driver": "dra.example.com"}}],
                    }
                }
            },
            '{"Spec":{"Devices":{"Requests":['
            + _REQ_GPU
            + '],"Constraints":[{"Requests":null,"MatchAttribute":null,"DistinctAttribute":"example.com/card"}],'
            '"Config":[{"Requests":null,"Opaque":{"Driver":"dra.example.com","Parameters":null}}]}}}',
        ),
        (
            {
                "spec": {
                    "devices": {
                        "requests": [
                            exactly(
                                adminAccess=False,
                                tolerations=[
                                    {"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 0}
                                ],
                            )
                        ]
                    }
                }
            },
            '{"Spec":{"Devices":{"Requests":[{"Name":"req","Exactly":{"DeviceClassName":"gpu","Selectors":null,'
            '"AllocationMode":"ExactCount","Count":1,"AdminAccess":false,"Tolerations":[{"Key":"","Operator":'
            '"Exists","Value":"","Effect":"NoExecute","TolerationSeconds":0}],"Capacity":null},'
            '"FirstAvailable":null}],"Constraints":null,"Config":null}}}',
        ),
    ],
)
def test_an_immutable_template_spec_is_shown_as_the_internal_type(
    new_spec: dict[str, Any], shown: str
) -> None:
    old = template({"devices": {"requests": [exactly(), exactly("second")]}})
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    new["spec"] = new_spec
    spec_errors = [str(error) for error in validate_claim_template_update(new, old) if error.field == "spec"]
    assert spec_errors == [f"spec: Invalid value: {shown}: field is immutable"]
