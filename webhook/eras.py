"""Which Kubernetes release serves which apiVersion of resource.k8s.io, and what the webhook judges there.

Three tables, all facts or decisions about releases, none about rules (the rules and the release
they are exact to are `webhook.registry`'s):

* `SERVED`: the kinds each release serves in each apiVersion of resource.k8s.io, from
  `staging/src/k8s.io/api/resource/<version>/register.go` at each release tag (the kubernetes/api
  mirror, v0.26.0 to v0.37.0-beta.0), the REST storage of `pkg/registry/resource/rest/
  storage_resource.go`, and the OpenAPI of each release (kubernetes-validate's schema bundles).
  Alpha and beta versions are served only where the cluster enables them (`--runtime-config`, and
  before 1.34 the DynamicResourceAllocation feature gate).
* `STANDS_FOR`: for each release the registry judges as, the cluster releases its rules stand for.
  1.30's v1alpha2 rules stand for 1.27-1.30 (v1alpha2's whole life); 1.31's v1alpha3 rules stand
  for 1.31 only (1.32 and 1.33 serve a different v1alpha3, without classic DRA); 1.37's rules stand
  for 1.32-1.37, the releases that serve v1beta1, v1beta2 or v1: the webhook has no rules of 1.32
  to 1.36, and judges their objects as 1.37 does (docs/versions.md says what that means).
* `VERSION_PRIORITY`: the order in which kube-apiserver prefers the versions of the group.

From them, for a cluster release: which kinds the webhook judges there and in which apiVersion its
ValidatingWebhookConfiguration names each (the most preferred version that release serves and whose
rules stand for it; `matchPolicy: Equivalent` has the API server convert requests in the other
versions of the kind to that one), grouped in `ERAS` for the manifests; and what `dra-webhook
validate --kubernetes-version` says of an apiVersion and kind the release does not serve.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from webhook.registry import KindRegistry
from webhook.rules.kinds import GroupVersionKind, KindRules

GROUP: Final = "resource.k8s.io"

_CLASSIC: Final = ("ResourceClass", "ResourceClaim", "ResourceClaimTemplate", "PodSchedulingContext")
_STRUCTURED: Final = (*_CLASSIC, "ResourceSlice", "ResourceClaimParameters", "ResourceClassParameters")
_DEVICES: Final = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")

SERVED: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "1.26": {"v1alpha1": ("ResourceClass", "ResourceClaim", "ResourceClaimTemplate", "PodScheduling")},
    "1.27": {"v1alpha2": _CLASSIC},
    "1.28": {"v1alpha2": _CLASSIC},
    "1.29": {"v1alpha2": _CLASSIC},
    "1.30": {"v1alpha2": _STRUCTURED},
    "1.31": {"v1alpha3": (*_DEVICES, "PodSchedulingContext")},
    "1.32": {"v1beta1": _DEVICES, "v1alpha3": _DEVICES},
    "1.33": {"v1beta2": _DEVICES, "v1beta1": _DEVICES, "v1alpha3": (*_DEVICES, "DeviceTaintRule")},
    "1.34": {"v1": _DEVICES, "v1beta2": _DEVICES, "v1beta1": _DEVICES, "v1alpha3": ("DeviceTaintRule",)},
    "1.35": {"v1": _DEVICES, "v1beta2": _DEVICES, "v1beta1": _DEVICES, "v1alpha3": ("DeviceTaintRule",)},
    "1.36": {
        "v1": _DEVICES,
        "v1beta2": (*_DEVICES, "DeviceTaintRule"),
        "v1beta1": _DEVICES,
        "v1alpha3": ("DeviceTaintRule", "ResourcePoolStatusRequest"),
    },
    "1.37": {
        "v1": (*_DEVICES, "DeviceTaintRule"),
        "v1beta2": (*_DEVICES, "DeviceTaintRule"),
        "v1beta1": _DEVICES,
        "v1alpha3": ("DeviceTaintRule", "ResourcePoolStatusRequest"),
    },
}
RELEASES: Final = tuple(SERVED)  # oldest first

STANDS_FOR: Final[Mapping[str, tuple[str, ...]]] = {
    "1.30": ("1.27", "1.28", "1.29", "1.30"),
    "1.31": ("1.31",),
    "1.37": ("1.32", "1.33", "1.34", "1.35", "1.36", "1.37"),
}

# The apiserver's priority of the versions of resource.k8s.io (kube-apiserver's aggregator.go): the
# version a kind is stored and preferred in, when a release serves it in several.
VERSION_PRIORITY: Final = ("v1", "v1beta2", "v1beta1", "v1alpha3", "v1alpha2", "v1alpha1")


@dataclass(frozen=True, slots=True)
class Era:
    """Releases that get one webhook configuration: the kustomize component `manifests/eras/<name>`."""

    name: str  # "1.27-1.30": the directory under manifests/eras
    releases: tuple[str, ...]

    def __str__(self) -> str:
        return f"Kubernetes {self.name}"


ERAS: Final = (
    Era("1.27-1.30", ("1.27", "1.28", "1.29", "1.30")),  # v1alpha2, as 1.30
    Era("1.31", ("1.31",)),  # v1alpha3, as 1.31
    Era("1.32-1.33", ("1.32", "1.33")),  # v1beta1 (and v1beta2 from 1.33), as 1.37
    Era("1.34-1.37", ("1.34", "1.35", "1.36", "1.37")),  # v1, as 1.37: manifests/base
)
NEWEST_ERA: Final = ERAS[-1]
NEWEST_RELEASE: Final = RELEASES[-1]

_RELEASE_RE: Final = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?")


def parse_release(text: str) -> str:
    """`1.31`, `v1.31`, `1.31.4` or `v1.31.4-gke.1` -> ``"1.31"``; ValueError for what is not a release
    this table knows."""
    found = _RELEASE_RE.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{text!r} is not a Kubernetes version (expected MAJOR.MINOR, e.g. 1.31)")
    release = f"{int(found.group(1))}.{int(found.group(2))}"
    if release not in SERVED:
        known = f"{RELEASES[0]} to {NEWEST_RELEASE}"
        raise ValueError(f"Kubernetes {release} is not a release this build knows: it knows {known}")
    return release


def serves(release: str, gvk: GroupVersionKind) -> bool:
    """Whether a cluster of `release` serves `gvk` (when its version is enabled)."""
    return gvk.group == GROUP and gvk.kind in SERVED[release].get(gvk.version, ())


def serving_releases(gvk: GroupVersionKind) -> tuple[str, ...]:
    """The releases that serve `gvk`, oldest first."""
    return tuple(release for release in RELEASES if serves(release, gvk))


def versions_serving(release: str, kind: str) -> tuple[str, ...]:
    """The versions in which `release` serves `kind`, most preferred first."""
    served = SERVED[release]
    return tuple(version for version in VERSION_PRIORITY if kind in served.get(version, ()))


def stands_for(registry: KindRegistry, gvk: GroupVersionKind, release: str) -> bool:
    """Whether the registry's rules for `gvk` are the webhook's rules for a cluster of `release`."""
    return gvk in registry and release in STANDS_FOR.get(registry.release_of(gvk).version, ())


def webhook_kinds(release: str, registry: KindRegistry) -> tuple[KindRules, ...]:
    """The kinds the webhook judges on a cluster of `release`, each in the apiVersion its
    configuration names: the most preferred version that release serves and whose rules stand for it.
    A request in another version of the kind reaches the webhook converted to that one."""
    chosen: list[KindRules] = []
    for kind in dict.fromkeys(kind for kinds in SERVED[release].values() for kind in kinds):
        for version in versions_serving(release, kind):
            gvk = GroupVersionKind(GROUP, version, kind)
            if stands_for(registry, gvk, release):
                chosen.append(registry[gvk])
                break
    return tuple(sorted(chosen, key=lambda rules: rules.gvk))


def unjudged_kinds(release: str, registry: KindRegistry) -> tuple[str, ...]:
    """The kinds `release` serves that the webhook does not judge there (in any version)."""
    judged = {rules.gvk.kind for rules in webhook_kinds(release, registry)}
    served = dict.fromkeys(kind for kinds in SERVED[release].values() for kind in kinds)
    return tuple(kind for kind in served if kind not in judged)


def era_of(release: str) -> Era:
    for era in ERAS:
        if release in era.releases:
            return era
    raise ValueError(
        f"no webhook configuration for Kubernetes {release}: this webhook judges none of its kinds"
    )


def era_kinds(era: Era, registry: KindRegistry) -> tuple[KindRules, ...]:
    """The kinds of every release of the era, each in the version its release names: one
    configuration for all of them (a version one release does not serve is never requested there)."""
    kinds = {rules.gvk: rules for release in era.releases for rules in webhook_kinds(release, registry)}
    return tuple(kinds[gvk] for gvk in sorted(kinds))


def judged_as_elsewhere(era: Era, registry: KindRegistry) -> tuple[tuple[str, str], ...]:
    """(cluster release, judged release) for every release of the era whose objects the webhook
    judges as another release: what `dra-webhook manifests` warns of."""
    found: list[tuple[str, str]] = []
    for release in era.releases:
        kinds = webhook_kinds(release, registry)
        judged = sorted({registry.release_of(rules.gvk).version for rules in kinds})
        found.extend((release, version) for version in judged if version != release)
    return tuple(found)


def unserved_message(release: str, gvk: GroupVersionKind) -> str:
    """What a cluster of `release` answers for a kind it does not serve, as kubectl says it, and which
    releases serve it and where `release` serves the kind."""
    message = f'no matches for kind "{gvk.kind}" in version "{gvk.group}/{gvk.version}"'
    hints = [f"Kubernetes {release} does not serve it"]
    elsewhere = serving_releases(gvk)
    if elsewhere:
        span = release_span(elsewhere)
        hints.append(f"{gvk.group}/{gvk.version} {gvk.kind} is served by Kubernetes {span}")
    here = versions_serving(release, gvk.kind) if gvk.group == GROUP else ()
    if here:
        hints.append(f"Kubernetes {release} serves {gvk.kind} in {', '.join(f'{GROUP}/{v}' for v in here)}")
    return f"{message} ({'; '.join(hints)})"


def release_span(releases: tuple[str, ...]) -> str:
    """``1.27-1.30`` for consecutive releases, ``1.31`` for one, a list otherwise."""
    if len(releases) == 1:
        return releases[0]
    indexes = [RELEASES.index(release) for release in releases]
    if indexes == list(range(indexes[0], indexes[0] + len(indexes))):
        return f"{releases[0]}-{releases[-1]}"
    return ", ".join(releases)
