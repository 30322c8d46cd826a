"""The table of what Kubernetes 1.27 to 1.37 serve of resource.k8s.io (webhook.served): the registry
judges only served kinds, each as a release that serves it, and kubectl's words for the rest."""

from __future__ import annotations

import pytest

from webhook.registry import REGISTRY
from webhook.served import (
    GROUP,
    SERVED_KINDS,
    kinds_of_version,
    no_kind_match,
    served_kind,
    served_versions,
    what_is_served,
)


def release_number(release: str) -> tuple[int, int]:
    major, minor = release.split(".")
    return int(major), int(minor)


def test_every_registered_kind_is_served_by_the_release_it_is_judged_as() -> None:
    for gvk in REGISTRY:
        served = served_kind(gvk.version, gvk.kind)
        assert gvk.group == GROUP and served is not None, gvk
        judged_as = release_number(REGISTRY.release_of(gvk).version)
        assert release_number(served.first) <= judged_as <= release_number(served.last), gvk


def test_the_table_names_each_kind_of_a_version_once_within_1_27_and_1_37() -> None:
    keys = [(served.version, served.kind) for served in SERVED_KINDS]
    assert len(keys) == len(set(keys))
    for served in SERVED_KINDS:
        assert (1, 27) <= release_number(served.first) <= release_number(served.last) <= (1, 37), served


@pytest.mark.parametrize(
    ("version", "kind", "releases"),
    [
        ("v1alpha2", "ResourceClass", "Kubernetes 1.27 to 1.30"),
        ("v1alpha2", "ResourceSlice", "Kubernetes 1.30"),
        ("v1alpha3", "PodSchedulingContext", "Kubernetes 1.31"),
        ("v1alpha3", "DeviceClass", "Kubernetes 1.31 to 1.33"),
        ("v1alpha3", "DeviceTaintRule", "Kubernetes 1.33 to 1.37"),
        ("v1beta2", "DeviceTaintRule", "Kubernetes 1.36 to 1.37"),
        ("v1", "DeviceTaintRule", "Kubernetes 1.37"),
        ("v1", "ResourceClaim", "Kubernetes 1.34 to 1.37"),
    ],
)
def test_served_kinds_and_their_releases(version: str, kind: str, releases: str) -> None:
    served = served_kind(version, kind)
    assert served is not None and served.releases == releases


@pytest.mark.parametrize(
    ("version", "kind"),
    [
        ("v1alpha1", "ResourceClass"),  # Kubernetes 1.26 only
        ("v1alpha2", "DeviceClass"),  # design prototypes
        ("v1alpha2", "Status"),
        ("v1alpha2", "ResourceClaims"),
        ("v1alpha3", "ResourceClass"),  # the pre-release shape of 1.31
        ("v1beta1", "ResourceClass"),
        ("v1", "PodSchedulingContext"),
    ],
)
def test_kinds_no_release_serves(version: str, kind: str) -> None:
    assert served_kind(version, kind) is None


def test_versions_in_the_order_the_table_gives_them() -> None:
    assert list(served_versions()) == ["v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1"]
    assert kinds_of_version("v1alpha1") == ()


def test_kubectls_words_for_a_kind_it_cannot_map() -> None:
    # apimachinery meta/errors.go NoKindMatchError, one searched version.
    assert no_kind_match("resource.k8s.io/v1alpha2", "ResourceClaims") == (
        'no matches for kind "ResourceClaims" in version "resource.k8s.io/v1alpha2"'
    )


@pytest.mark.parametrize(
    ("version", "kind", "said"),
    [
        (
            "v1alpha2",
            "ResourceClaims",
            "resource.k8s.io/v1alpha2 has ResourceClass, ResourceClaim, ResourceClaimTemplate, "
            "PodSchedulingContext (Kubernetes 1.27 to 1.30) and ResourceSlice, ResourceClaimParameters, "
            "ResourceClassParameters (Kubernetes 1.30)",
        ),
        (
            "v1alpha2",
            "DeviceClass",
            "resource.k8s.io/v1alpha2 has ResourceClass, ResourceClaim, ResourceClaimTemplate, "
            "PodSchedulingContext (Kubernetes 1.27 to 1.30) and ResourceSlice, ResourceClaimParameters, "
            "ResourceClassParameters (Kubernetes 1.30); DeviceClass is in v1alpha3, v1beta1, v1beta2, v1",
        ),
        (
            "v1",
            "ResourceClaims",
            "resource.k8s.io/v1 has DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice "
            "(Kubernetes 1.34 to 1.37) and DeviceTaintRule (Kubernetes 1.37)",
        ),
        (
            "v1beta1",
            "DeviceTaintRule",
            "resource.k8s.io/v1beta1 has DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice "
            "(Kubernetes 1.32 to 1.37); DeviceTaintRule is in v1alpha3, v1beta2, v1",
        ),
        (
            "v1alpha",
            "ResourceClaim",
            "resource.k8s.io has v1alpha2, v1alpha3, v1beta1, v1beta2, v1 (Kubernetes 1.27 to 1.37); "
            "ResourceClaim is in v1alpha2, v1alpha3, v1beta1, v1beta2, v1",
        ),
    ],
)
def test_what_a_reader_of_no_matches_learns_next(version: str, kind: str, said: str) -> None:
    assert what_is_served(version, kind) == said
