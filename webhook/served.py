"""The kinds of `resource.k8s.io` each Kubernetes release from 1.27 to 1.37 serves, per apiVersion.

This is what `dra-webhook validate` means by a kind or an apiVersion that "does not exist": one no
release in this range serves, which kubectl answers with `no matches for kind "X" in version
"resource.k8s.io/Y"` before anything reaches the API server's validation or a webhook. A kind that
exists but that the webhook's registry (`webhook.registry`) does not judge is another matter: it
is reported as not validated (docs/offline.md).

Source, for every row: the types the release's `k8s.io/api` registers for the version
(`resource/<version>/register.go`, `addKnownTypes`, without the `...List` kinds), read in the
kubernetes/api repository at the tags `v0.27.0` to `v0.36.0` (Kubernetes 1.27 to 1.36) and
`v0.37.0-beta.0` (1.37, the tree `../shared/SOURCES.md` names for 1.37). An alpha or beta version is
served only when the cluster enables it (`--runtime-config`); "served" here means that a release can
serve it.

    v0.27.0 .. v0.29.0  v1alpha2: ResourceClass ResourceClaim ResourceClaimTemplate PodSchedulingContext
    v0.30.0             v1alpha2: those four, ResourceSlice ResourceClaimParameters ResourceClassParameters
    v0.31.0             v1alpha3: DeviceClass ResourceClaim ResourceClaimTemplate PodSchedulingContext
                                  ResourceSlice
    v0.32.0             v1alpha3: DeviceClass ResourceClaim ResourceClaimTemplate ResourceSlice
                        v1beta1:  DeviceClass ResourceClaim ResourceClaimTemplate ResourceSlice
    v0.33.0             v1alpha3: those four and DeviceTaintRule; v1beta1 and v1beta2: the four
    v0.34.0, v0.35.0    v1alpha3: DeviceTaintRule; v1beta1, v1beta2, v1: the four
    v0.36.0             v1alpha3: DeviceTaintRule ResourcePoolStatusRequest; v1beta2: the four and
                                  DeviceTaintRule; v1beta1, v1: the four
    v0.37.0-beta.0      as v0.36.0, and v1: DeviceTaintRule
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from webhook.field import go_quote

GROUP: Final = "resource.k8s.io"
FIRST_RELEASE: Final = "1.27"
LAST_RELEASE: Final = "1.37"


@dataclass(frozen=True, slots=True)
class ServedKind:
    """A kind of one apiVersion of `resource.k8s.io`, and the releases that serve it (both included)."""

    version: str
    kind: str
    first: str
    last: str

    @property
    def releases(self) -> str:
        """``Kubernetes 1.31 to 1.33``, or ``Kubernetes 1.31`` for one release."""
        return (
            f"Kubernetes {self.first}"
            if self.first == self.last
            else f"Kubernetes {self.first} to {self.last}"
        )


def _served(version: str, first: str, last: str, *kinds: str) -> tuple[ServedKind, ...]:
    return tuple(ServedKind(version, kind, first, last) for kind in kinds)


_FOUR_KINDS: Final = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")

SERVED_KINDS: Final[tuple[ServedKind, ...]] = (
    *_served("v1alpha2", "1.27", "1.30", "ResourceClass", "ResourceClaim", "ResourceClaimTemplate"),
    *_served("v1alpha2", "1.27", "1.30", "PodSchedulingContext"),
    *_served(
        "v1alpha2", "1.30", "1.30", "ResourceSlice", "ResourceClaimParameters", "ResourceClassParameters"
    ),
    *_served("v1alpha3", "1.31", "1.33", *_FOUR_KINDS),
    *_served("v1alpha3", "1.31", "1.31", "PodSchedulingContext"),
    *_served("v1alpha3", "1.33", "1.37", "DeviceTaintRule"),
    *_served("v1alpha3", "1.36", "1.37", "ResourcePoolStatusRequest"),
    *_served("v1beta1", "1.32", "1.37", *_FOUR_KINDS),
    *_served("v1beta2", "1.33", "1.37", *_FOUR_KINDS),
    *_served("v1beta2", "1.36", "1.37", "DeviceTaintRule"),
    *_served("v1", "1.34", "1.37", *_FOUR_KINDS),
    *_served("v1", "1.37", "1.37", "DeviceTaintRule"),
)

_BY_VERSION_KIND: Final = {(served.version, served.kind): served for served in SERVED_KINDS}


def served_kind(version: str, kind: str) -> ServedKind | None:
    """The `resource.k8s.io` kind of this version as some release from 1.27 to 1.37 serves it, or None."""
    return _BY_VERSION_KIND.get((version, kind))


def kinds_of_version(version: str) -> tuple[ServedKind, ...]:
    """Every kind a version of `resource.k8s.io` holds in some release from 1.27 to 1.37 (none: no
    release serves the version)."""
    return tuple(served for served in SERVED_KINDS if served.version == version)


def versions_of_kind(kind: str) -> tuple[ServedKind, ...]:
    """Every version of `resource.k8s.io` that serves a kind of this name, in table order."""
    return tuple(served for served in SERVED_KINDS if served.kind == kind)


def served_versions() -> Iterator[str]:
    """The versions of `resource.k8s.io` some release from 1.27 to 1.37 serves, in table order."""
    return iter(dict.fromkeys(served.version for served in SERVED_KINDS))


def no_kind_match(api_version: str, kind: str) -> str:
    """kubectl's words for a kind its REST mapping does not find (apimachinery `NoKindMatchError`)."""
    return f"no matches for kind {go_quote(kind)} in version {go_quote(api_version)}"


def what_is_served(version: str, kind: str) -> str:
    """What a reader of `no_kind_match` needs next: the kinds the version holds (or the versions the
    group has), and the versions that hold the kind, when some do."""
    holds = kinds_of_version(version)
    if holds:
        names = ", ".join(dict.fromkeys(served.kind for served in holds))
        first = min((served.first for served in holds), key=_release_number)
        last = max((served.last for served in holds), key=_release_number)
        said = f"{GROUP}/{version} has {names} ({ServedKind(version, '', first, last).releases})"
    else:
        said = f"{GROUP} has {', '.join(served_versions())} (Kubernetes {FIRST_RELEASE} to {LAST_RELEASE})"
    elsewhere = [served.version for served in versions_of_kind(kind) if served.version != version]
    if elsewhere:
        said += f"; {kind} is in {', '.join(elsewhere)}"
    return said


def _release_number(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))
