"""The kinds of `resource.k8s.io` some Kubernetes release from 1.27 to 1.37 serves, per apiVersion.

This is what `dra-webhook validate` means by a kind or an apiVersion that "does not exist": one no
release in this range serves, which kubectl answers with `no matches for kind "X" in version
"resource.k8s.io/Y"` before anything reaches the API server's validation or a webhook. A kind that
exists but that the webhook's registry (`webhook.registry`) does not judge is another matter: it
is reported as not validated (docs/offline.md).

The facts are `webhook.eras.SERVED` (each release's `resource/<version>/register.go`, read in the
kubernetes/api repository at its tag): this module reads that one table per (version, kind), with
the first and last release that serves it. An alpha or beta version is served only when the cluster
enables it (`--runtime-config`); "served" here means that a release can serve it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from webhook.eras import GROUP as GROUP
from webhook.eras import RELEASES
from webhook.eras import SERVED as SERVED_BY_RELEASE
from webhook.field import go_quote

# The releases this project judges objects of: v1alpha1 (1.26) is before them.
FIRST_RELEASE: Final = "1.27"
LAST_RELEASE: Final = RELEASES[-1]


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


def _release_number(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


def _served_kinds() -> tuple[ServedKind, ...]:
    """Every (version, kind) of `eras.SERVED` from FIRST_RELEASE on, with the releases that serve it,
    in the order the releases first serve them."""
    releases: dict[tuple[str, str], list[str]] = {}
    for release, versions in SERVED_BY_RELEASE.items():
        if _release_number(release) < _release_number(FIRST_RELEASE):
            continue
        for version, kinds in versions.items():
            for kind in kinds:
                releases.setdefault((version, kind), []).append(release)
    by_version: dict[str, list[ServedKind]] = {}
    for (version, kind), serving in releases.items():
        by_version.setdefault(version, []).append(ServedKind(version, kind, serving[0], serving[-1]))
    return tuple(served for kinds in by_version.values() for served in kinds)


SERVED_KINDS: Final[tuple[ServedKind, ...]] = _served_kinds()

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
        said = f"{GROUP}/{version} has {_kinds_with_their_releases(holds)}"
    else:
        said = f"{GROUP} has {', '.join(served_versions())} (Kubernetes {FIRST_RELEASE} to {LAST_RELEASE})"
    elsewhere = [served.version for served in versions_of_kind(kind) if served.version != version]
    if elsewhere:
        said += f"; {kind} is in {', '.join(elsewhere)}"
    return said


def _kinds_with_their_releases(kinds: tuple[ServedKind, ...]) -> str:
    """``A, B (Kubernetes 1.34 to 1.37) and C (Kubernetes 1.37)``: the kinds of one version, those
    served by the same releases together, in the order the table gives them."""
    by_releases: dict[str, list[str]] = {}
    for served in kinds:
        by_releases.setdefault(served.releases, []).append(served.kind)
    groups = [f"{', '.join(names)} ({releases})" for releases, names in by_releases.items()]
    return groups[0] if len(groups) == 1 else f"{', '.join(groups[:-1])} and {groups[-1]}"
