"""The webhook's own namespace rules for parametersRef (webhook/rules/policy.py)."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.rules.kinds import GroupVersionKind
from webhook.rules.policy import BUILTIN_SCOPES, NamespacePolicy, PolicyFindings, check_namespace_policy

CLASS = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClass")
CLASS_PARAMETERS = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClassParameters")
CLAIM = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaim")
TEMPLATE = GroupVersionKind("resource.k8s.io", "v1alpha2", "ResourceClaimTemplate")
DEFAULT = NamespacePolicy()

Row = tuple[str, str]


def rendered(findings: PolicyFindings) -> list[Row]:
    return [(err.type.value, str(err)) for err in findings.errors]


def resource_class(**ref: Any) -> dict[str, Any]:
    return {"metadata": {"name": "gpu"}, "driverName": "gpu.example.com", "parametersRef": ref}


def class_parameters(**ref: Any) -> dict[str, Any]:
    return {"metadata": {"name": "p", "namespace": "ns"}, "generatedFrom": ref}


CLASS_ROWS: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("a namespaced kind with a namespace", {"kind": "ConfigMap", "name": "c", "namespace": "ns"}, []),
    (
        "a namespaced kind needs a namespace",
        {"kind": "ConfigMap", "name": "c"},
        [
            (
                "FieldValueRequired",
                'parametersRef.namespace: Required value: must be set for namespaced kind "ConfigMap"',
            )
        ],
    ),
    (
        "a namespaced kind of another group needs a namespace",
        {"apiGroup": "resource.k8s.io", "kind": "ResourceClassParameters", "name": "p"},
        [
            (
                "FieldValueRequired",
                "parametersRef.namespace: Required value: "
                'must be set for namespaced kind "ResourceClassParameters.resource.k8s.io"',
            )
        ],
    ),
    ("a cluster-scoped kind without a namespace", {"kind": "Node", "name": "n"}, []),
    (
        "a cluster-scoped kind may not have a namespace",
        {"apiGroup": "storage.k8s.io", "kind": "StorageClass", "name": "s", "namespace": "ns"},
        [
            (
                "FieldValueForbidden",
                'parametersRef.namespace: Forbidden: must be empty for cluster-scoped kind "StorageClass.storage.k8s.io"',
            )
        ],
    ),
    (
        "the group is part of the kind: a ConfigMap of another group is unknown",
        {"apiGroup": "x.io", "kind": "ConfigMap"},
        [],
    ),
    ("no kind, no judgement (the API server requires it)", {"name": "c"}, []),
]


@pytest.mark.parametrize(("ref", "expected"), [row[1:] for row in CLASS_ROWS], ids=[r[0] for r in CLASS_ROWS])
def test_class_parameters_ref_matches_the_scope_of_its_kind(ref: dict[str, Any], expected: list[Row]) -> None:
    assert rendered(check_namespace_policy(CLASS, resource_class(**ref), DEFAULT)) == expected


@pytest.mark.parametrize(("ref", "expected"), [row[1:] for row in CLASS_ROWS], ids=[r[0] for r in CLASS_ROWS])
def test_class_parameters_generated_from_matches_the_scope_of_its_kind(
    ref: dict[str, Any], expected: list[Row]
) -> None:
    findings = check_namespace_policy(CLASS_PARAMETERS, class_parameters(**ref), DEFAULT)
    assert rendered(findings) == [
        (reason, text.replace("parametersRef.", "generatedFrom.", 1)) for reason, text in expected
    ]


def test_a_kind_of_unknown_scope_gives_a_warning_not_an_error() -> None:
    findings = check_namespace_policy(
        CLASS, resource_class(apiGroup="gpu.example.com", kind="GpuConfig"), DEFAULT
    )
    assert findings.errors == []
    assert findings.warnings == (
        'parametersRef: scope of kind "GpuConfig.gpu.example.com" is unknown, namespace not checked',
    )


def test_unknown_scope_warnings_stay_short_and_printable() -> None:
    ref = {"apiGroup": "g\x1b[31m\n" * 50, "kind": "K\t" * 200}
    (warning,) = check_namespace_policy(CLASS, resource_class(**ref), DEFAULT).warnings
    assert len(warning) < 256
    assert warning.isprintable()


def test_configured_scopes_extend_and_override_the_builtin_table() -> None:
    policy = DEFAULT.with_scopes({("gpu.example.com", "GpuConfig"): False, ("", "ConfigMap"): False})
    assert (
        check_namespace_policy(CLASS, resource_class(apiGroup="gpu.example.com", kind="GpuConfig"), policy)
        == PolicyFindings()
    )
    assert rendered(
        check_namespace_policy(CLASS, resource_class(kind="ConfigMap", namespace="ns"), policy)
    ) == [
        (
            "FieldValueForbidden",
            'parametersRef.namespace: Forbidden: must be empty for cluster-scoped kind "ConfigMap"',
        )
    ]
    assert DEFAULT.is_namespaced("", "ConfigMap") is True  # the original policy is unchanged


def test_the_builtin_table_holds_real_scopes() -> None:
    assert BUILTIN_SCOPES[("", "Secret")] is True
    assert BUILTIN_SCOPES[("", "Namespace")] is False
    assert BUILTIN_SCOPES[("", "PersistentVolume")] is False
    assert BUILTIN_SCOPES[("resource.k8s.io", "ResourceClaimParameters")] is True
    assert BUILTIN_SCOPES[("resource.k8s.io", "ResourceSlice")] is False


CLAIM_ROWS: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("no namespace key (the wire type has none)", {"kind": "ConfigMap", "name": "c"}, []),
    ("the claim's own namespace", {"kind": "ConfigMap", "name": "c", "namespace": "ns"}, []),
    ("an empty namespace means the claim's own", {"kind": "ConfigMap", "name": "c", "namespace": ""}, []),
    ("a null namespace means the claim's own", {"kind": "ConfigMap", "name": "c", "namespace": None}, []),
    (
        "another namespace is forbidden",
        {"kind": "ConfigMap", "name": "c", "namespace": "other"},
        [
            (
                "FieldValueForbidden",
                'spec.parametersRef.namespace: Forbidden: must be the namespace of the ResourceClaim ("ns") or omitted',
            )
        ],
    ),
]


@pytest.mark.parametrize(("ref", "expected"), [row[1:] for row in CLAIM_ROWS], ids=[r[0] for r in CLAIM_ROWS])
def test_claim_parameters_stay_in_the_claims_namespace(ref: dict[str, Any], expected: list[Row]) -> None:
    obj = {
        "metadata": {"name": "c", "namespace": "ns"},
        "spec": {"resourceClassName": "x", "parametersRef": ref},
    }
    assert rendered(check_namespace_policy(CLAIM, obj, DEFAULT)) == expected


def test_template_claim_parameters_stay_in_the_templates_namespace() -> None:
    ref = {"kind": "ConfigMap", "name": "c", "namespace": "other"}
    obj = {"metadata": {"name": "t", "namespace": "ns"}, "spec": {"spec": {"parametersRef": ref}}}
    assert rendered(check_namespace_policy(TEMPLATE, obj, DEFAULT)) == [
        (
            "FieldValueForbidden",
            "spec.spec.parametersRef.namespace: Forbidden: "
            'must be the namespace of the ResourceClaimTemplate ("ns") or omitted',
        )
    ]


def test_a_claim_without_a_namespace_is_left_to_the_metadata_rules() -> None:
    obj = {"metadata": {"name": "c"}, "spec": {"parametersRef": {"kind": "k", "name": "n", "namespace": "x"}}}
    assert check_namespace_policy(CLAIM, obj, DEFAULT) == PolicyFindings()


@pytest.mark.parametrize(
    ("policy", "gvk", "obj"),
    [
        (NamespacePolicy(enabled=False), CLASS, resource_class(kind="ConfigMap", name="c")),
        (NamespacePolicy(class_reference_scope=False), CLASS, resource_class(kind="ConfigMap", name="c")),
        (NamespacePolicy(class_reference_scope=False), CLASS_PARAMETERS, class_parameters(kind="ConfigMap")),
        (
            NamespacePolicy(claim_reference_namespace=False),
            CLAIM,
            {"metadata": {"namespace": "ns"}, "spec": {"parametersRef": {"namespace": "other"}}},
        ),
        (
            NamespacePolicy(claim_reference_namespace=False),
            TEMPLATE,
            {"metadata": {"namespace": "ns"}, "spec": {"spec": {"parametersRef": {"namespace": "other"}}}},
        ),
        (
            DEFAULT,
            GroupVersionKind("resource.k8s.io", "v1alpha3", "ResourceClaim"),
            {"spec": {"parametersRef": {"namespace": "x"}}},
        ),
        (DEFAULT, GroupVersionKind("", "v1", "ConfigMap"), {"parametersRef": {"kind": "ConfigMap"}}),
    ],
)
def test_each_rule_can_be_switched_off_and_other_kinds_have_none(
    policy: NamespacePolicy, gvk: GroupVersionKind, obj: dict[str, Any]
) -> None:
    assert check_namespace_policy(gvk, obj, policy) == PolicyFindings()


def test_the_policy_reads_a_configuration_mapping() -> None:
    policy = NamespacePolicy.from_config(
        {
            "claimReferenceNamespace": False,
            "scopes": [{"apiGroup": "gpu.example.com", "kind": "GpuConfig", "scope": "Namespaced"}],
        }
    )
    assert policy.enabled and policy.class_reference_scope and not policy.claim_reference_namespace
    assert policy.is_namespaced("gpu.example.com", "GpuConfig") is True
    assert policy.is_namespaced("", "Node") is False
    assert NamespacePolicy.from_config({}) == DEFAULT


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"enabled": "yes"}, "enabled must be true or false"),
        ({"scope": []}, "unknown keys ['scope']"),
        ({"scopes": {"a": "b"}}, "scopes must be a list"),
        ({"scopes": ["x"]}, "scopes[0] must be a mapping"),
        ({"scopes": [{"apiGroup": "g"}]}, "scopes[0] needs a string apiGroup and a non-empty kind"),
        ({"scopes": [{"kind": "K", "scope": "namespaced"}]}, "scopes[0].scope must be Namespaced or Cluster"),
    ],
)
def test_a_bad_configuration_is_refused_with_its_reason(config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        NamespacePolicy.from_config(config)


@pytest.mark.parametrize("junk", [None, "x", 5, [], {}, [None], {"kind": None, "namespace": 5}])
@pytest.mark.parametrize("gvk", [CLASS, CLASS_PARAMETERS, CLAIM, TEMPLATE])
def test_malformed_input_never_raises(gvk: GroupVersionKind, junk: Any) -> None:
    for obj in (
        {"metadata": junk, "spec": junk, "parametersRef": junk, "generatedFrom": junk},
        {"metadata": {"namespace": "ns"}, "spec": {"parametersRef": junk, "spec": {"parametersRef": junk}}},
        {"spec": {"parametersRef": {"namespace": junk}, "spec": junk}},
    ):
        assert isinstance(check_namespace_policy(gvk, obj, DEFAULT), PolicyFindings)
