"""Which release serves which apiVersion of resource.k8s.io, and what the webhook judges on each
(`webhook.eras`). The registry of this branch may not hold every version yet: the choices of each
era are checked here with a registry of the test's, holding every version the project judges
(docs/versions.md) with rules that judge nothing, and with the real registry for what it holds."""

from __future__ import annotations

import pytest

from webhook.eras import (
    ERAS,
    GROUP,
    NEWEST_ERA,
    RELEASES,
    SERVED,
    STANDS_FOR,
    era_kinds,
    era_of,
    judged_as_elsewhere,
    parse_release,
    release_span,
    serves,
    serving_releases,
    unjudged_kinds,
    unserved_message,
    versions_serving,
    webhook_kinds,
)
from webhook.field import ErrorList
from webhook.registry import REGISTRY, KindRegistry, ServedKinds
from webhook.release import KUBERNETES_1_30, KUBERNETES_1_31, KUBERNETES_1_37
from webhook.rules.kinds import GroupVersionKind, KindRules, Obj
from webhook.rules.v1alpha2 import kinds as v1alpha2_kinds


def nothing(obj: Obj, old: Obj | None = None) -> ErrorList:
    return []


RESOURCES = {
    "DeviceClass": "deviceclasses",
    "ResourceClaim": "resourceclaims",
    "ResourceClaimTemplate": "resourceclaimtemplates",
    "ResourceSlice": "resourceslices",
    "DeviceTaintRule": "devicetaintrules",
    "PodSchedulingContext": "podschedulingcontexts",
}
STATUS = {"ResourceClaim", "PodSchedulingContext", "DeviceTaintRule"}


def kinds(version: str, *names: str) -> tuple[KindRules, ...]:
    return tuple(
        KindRules(
            GroupVersionKind(GROUP, version, name),
            RESOURCES[name],
            name in ("ResourceClaim", "ResourceClaimTemplate", "PodSchedulingContext"),
            nothing,
            nothing,
            validate_status_update=nothing if name in STATUS else None,
        )
        for name in names
    )


DEVICES = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")
# Every apiVersion the project judges, with the release of docs/versions.md (and SOURCES.md):
# v1alpha3's DeviceTaintRule judged by 1.37's rules, as a later release added it.
EVERY_VERSION = KindRegistry(
    [
        ServedKinds(KUBERNETES_1_30, v1alpha2_kinds.KINDS),
        ServedKinds(KUBERNETES_1_31, kinds("v1alpha3", *DEVICES, "PodSchedulingContext")),
        ServedKinds(KUBERNETES_1_37, kinds("v1alpha3", "DeviceTaintRule")),
        ServedKinds(KUBERNETES_1_37, kinds("v1", *DEVICES, "DeviceTaintRule")),
        ServedKinds(KUBERNETES_1_37, kinds("v1beta2", *DEVICES, "DeviceTaintRule")),
        ServedKinds(KUBERNETES_1_37, kinds("v1beta1", *DEVICES)),
    ]
)


def named(rules: tuple[KindRules, ...]) -> list[str]:
    return [f"{rule.gvk.version}/{rule.gvk.kind}" for rule in rules]


CLASSIC = [
    "v1alpha2/PodSchedulingContext",
    "v1alpha2/ResourceClaim",
    "v1alpha2/ResourceClaimTemplate",
    "v1alpha2/ResourceClass",
]


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        ("1.26", []),  # v1alpha1: not judged
        ("1.27", CLASSIC),
        ("1.29", CLASSIC),
        (
            "1.30",
            [
                "v1alpha2/PodSchedulingContext",
                "v1alpha2/ResourceClaim",
                "v1alpha2/ResourceClaimParameters",
                "v1alpha2/ResourceClaimTemplate",
                "v1alpha2/ResourceClass",
                "v1alpha2/ResourceClassParameters",
                "v1alpha2/ResourceSlice",
            ],
        ),
        (
            "1.31",
            [
                "v1alpha3/DeviceClass",
                "v1alpha3/PodSchedulingContext",
                "v1alpha3/ResourceClaim",
                "v1alpha3/ResourceClaimTemplate",
                "v1alpha3/ResourceSlice",
            ],
        ),
        # v1beta1 is preferred to 1.32's v1alpha3, whose rules (1.31's) are not 1.32's anyway.
        ("1.32", [f"v1beta1/{kind}" for kind in sorted(DEVICES)]),
        # v1beta2 preferred; DeviceTaintRule only in v1alpha3, judged as 1.37.
        ("1.33", ["v1alpha3/DeviceTaintRule", *(f"v1beta2/{kind}" for kind in sorted(DEVICES))]),
        ("1.34", [*(f"v1/{kind}" for kind in sorted(DEVICES)), "v1alpha3/DeviceTaintRule"]),
        ("1.35", [*(f"v1/{kind}" for kind in sorted(DEVICES)), "v1alpha3/DeviceTaintRule"]),
        ("1.36", [*(f"v1/{kind}" for kind in sorted(DEVICES)), "v1beta2/DeviceTaintRule"]),
        ("1.37", [f"v1/{kind}" for kind in sorted((*DEVICES, "DeviceTaintRule"))]),
    ],
)
def test_each_release_names_each_kind_in_the_most_preferred_version_whose_rules_stand_for_it(
    release: str, expected: list[str]
) -> None:
    assert named(webhook_kinds(release, EVERY_VERSION)) == expected


def test_an_era_names_the_kinds_of_all_its_releases() -> None:
    assert [era.name for era in ERAS] == ["1.27-1.30", "1.31", "1.32-1.33", "1.34-1.37"]
    assert named(era_kinds(ERAS[2], EVERY_VERSION)) == [
        "v1alpha3/DeviceTaintRule",
        *(f"v1beta1/{kind}" for kind in sorted(DEVICES)),
        *(f"v1beta2/{kind}" for kind in sorted(DEVICES)),
    ]
    assert named(era_kinds(NEWEST_ERA, EVERY_VERSION)) == [
        *(f"v1/{kind}" for kind in sorted((*DEVICES, "DeviceTaintRule"))),
        "v1alpha3/DeviceTaintRule",
        "v1beta2/DeviceTaintRule",
    ]


def test_every_release_from_1_27_is_in_one_era_and_its_rules_stand_for_it() -> None:
    in_eras = [release for era in ERAS for release in era.releases]
    assert in_eras == list(RELEASES[1:])
    assert sorted(release for releases in STANDS_FOR.values() for release in releases) == sorted(in_eras)
    for release in in_eras:
        assert webhook_kinds(release, EVERY_VERSION), release
        assert era_of(release).releases.count(release) == 1
    with pytest.raises(ValueError, match="judges none of its kinds"):
        era_of("1.26")


def test_what_a_release_serves_but_the_webhook_does_not_judge() -> None:
    assert unjudged_kinds("1.26", EVERY_VERSION) == (
        "ResourceClass",
        "ResourceClaim",
        "ResourceClaimTemplate",
        "PodScheduling",
    )
    assert unjudged_kinds("1.36", EVERY_VERSION) == ("ResourcePoolStatusRequest",)
    assert unjudged_kinds("1.31", EVERY_VERSION) == ()


def test_the_releases_an_era_is_judged_as() -> None:
    assert judged_as_elsewhere(ERAS[0], EVERY_VERSION) == (
        ("1.27", "1.30"),
        ("1.28", "1.30"),
        ("1.29", "1.30"),
    )
    assert judged_as_elsewhere(ERAS[1], EVERY_VERSION) == ()
    assert judged_as_elsewhere(NEWEST_ERA, EVERY_VERSION) == (
        ("1.34", "1.37"),
        ("1.35", "1.37"),
        ("1.36", "1.37"),
    )


def test_the_real_registry_is_read_for_what_it_holds() -> None:
    # Whatever it holds, an era names only registered kinds of releases its rules stand for.
    for era in ERAS:
        for rules in era_kinds(era, REGISTRY):
            assert REGISTRY[rules.gvk] is rules
            assert any(
                release in STANDS_FOR[REGISTRY.release_of(rules.gvk).version] for release in era.releases
            )
    assert named(webhook_kinds("1.30", REGISTRY)) == named(webhook_kinds("1.30", EVERY_VERSION))


# --- what each release serves -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "kind", "releases"),
    [
        ("v1alpha2", "ResourceClaim", ("1.27", "1.28", "1.29", "1.30")),
        ("v1alpha2", "ResourceSlice", ("1.30",)),
        ("v1alpha3", "PodSchedulingContext", ("1.31",)),
        ("v1alpha3", "DeviceClass", ("1.31", "1.32", "1.33")),
        ("v1alpha3", "DeviceTaintRule", ("1.33", "1.34", "1.35", "1.36", "1.37")),
        ("v1beta1", "ResourceSlice", ("1.32", "1.33", "1.34", "1.35", "1.36", "1.37")),
        ("v1beta1", "DeviceTaintRule", ()),
        ("v1beta2", "DeviceTaintRule", ("1.36", "1.37")),
        ("v1", "ResourceClaim", ("1.34", "1.35", "1.36", "1.37")),
        ("v1", "DeviceTaintRule", ("1.37",)),
    ],
)
def test_the_releases_that_serve_a_kind(version: str, kind: str, releases: tuple[str, ...]) -> None:
    assert serving_releases(GroupVersionKind(GROUP, version, kind)) == releases


def test_a_release_serves_only_its_group() -> None:
    assert serves("1.37", GroupVersionKind(GROUP, "v1", "ResourceClaim"))
    assert not serves("1.37", GroupVersionKind("example.com", "v1", "ResourceClaim"))
    assert versions_serving("1.37", "ResourceClaim") == ("v1", "v1beta2", "v1beta1")
    assert versions_serving("1.36", "DeviceTaintRule") == ("v1beta2", "v1alpha3")
    assert set(SERVED) == set(RELEASES)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("1.31", "1.31"),
        ("v1.31", "1.31"),
        ("1.31.4", "1.31"),
        ("v1.33.2-gke.1200", "1.33"),
        (" 1.37 ", "1.37"),
    ],
)
def test_a_release_is_read_as_kubectl_version_prints_it(text: str, release: str) -> None:
    assert parse_release(text) == release


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("1", "is not a Kubernetes version"),
        ("latest", "is not a Kubernetes version"),
        ("1.25", "Kubernetes 1.25 is not a release this build knows: it knows 1.26 to 1.37"),
        ("1.38", "it knows 1.26 to 1.37"),
    ],
)
def test_an_unknown_release_is_refused(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        parse_release(text)


@pytest.mark.parametrize(
    ("release", "version", "kind", "message"),
    [
        (
            "1.37",
            "v1alpha2",
            "ResourceClaim",
            'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1alpha2" (Kubernetes 1.37 does '
            "not serve it; resource.k8s.io/v1alpha2 ResourceClaim is served by Kubernetes 1.27-1.30; "
            "Kubernetes 1.37 serves ResourceClaim in resource.k8s.io/v1, resource.k8s.io/v1beta2, "
            "resource.k8s.io/v1beta1)",
        ),
        (
            "1.30",
            "v1",
            "DeviceClass",
            'no matches for kind "DeviceClass" in version "resource.k8s.io/v1" (Kubernetes 1.30 does not '
            "serve it; resource.k8s.io/v1 DeviceClass is served by Kubernetes 1.34-1.37)",
        ),
        (
            "1.37",
            "v1alpha2",
            "Pod",
            'no matches for kind "Pod" in version "resource.k8s.io/v1alpha2" (Kubernetes 1.37 does not serve it)',
        ),
    ],
)
def test_an_unserved_kind_is_said_as_kubectl_says_it_with_where_it_is_served(
    release: str, version: str, kind: str, message: str
) -> None:
    assert unserved_message(release, GroupVersionKind(GROUP, version, kind)) == message


def test_a_span_of_releases() -> None:
    assert release_span(("1.31",)) == "1.31"
    assert release_span(("1.27", "1.28")) == "1.27-1.28"
    assert release_span(("1.27", "1.30")) == "1.27, 1.30"


# --- what `dra-webhook manifests --kubernetes-version` says --------------------------------------------


def test_the_notes_of_a_release_name_the_release_it_is_judged_as_and_what_is_not_judged() -> None:
    from webhook.manifests import release_notes

    assert release_notes("1.31", EVERY_VERSION) == []
    assert release_notes("1.36", EVERY_VERSION) == [
        "Kubernetes 1.36: resource.k8s.io/v1, resource.k8s.io/v1beta2 judged as Kubernetes 1.37, whose rules "
        "this webhook has: where they differ from 1.36's, its verdict is 1.37's (docs/versions.md)",
        "Kubernetes 1.36 serves kinds this webhook does not judge: ResourcePoolStatusRequest (v1alpha3)",
    ]
    assert release_notes("1.26", EVERY_VERSION)[-1] == (
        "this webhook judges none of the kinds Kubernetes 1.26 serves: its configuration has no rule"
    )
