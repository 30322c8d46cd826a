"""The kind registry: (group, version, kind) -> the rules of that kind and the release they are exact to.

The rules differ by Kubernetes *release*; the wire shape and the field paths differ by *apiVersion*.
Each apiVersion has a package under `webhook/rules/` whose `kinds.KINDS` lists its kinds (one
`KindRules` per kind) and whose `RELEASE` names the release its rules are exact to. This module binds
the two, one `ServedKinds` entry per (release, kinds) group, and is the one list of what the webhook
judges. Everything that lists kinds reads it: the admission judge (dispatch, and the release a verdict
names), `manifests` (the ValidatingWebhookConfiguration's rules), `metrics` (kind and version
labels), `config` (the kinds enforcement may name), the structural check (a schema for every kind,
checked when a judge is built) and the offline commands.

Adding an apiVersion is one package and one entry in `REGISTRY` below (docs/versions.md). An
apiVersion may hold kinds of two releases (a kind added later and judged by a later release's rules):
that is two entries for the one version.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from webhook.release import KUBERNETES_1_37, Release
from webhook.rules import v1, v1alpha2, v1alpha3, v1beta1, v1beta2
from webhook.rules.kinds import GroupVersionKind, KindRules
from webhook.rules.v1 import kinds as v1_kinds
from webhook.rules.v1alpha2 import kinds as v1alpha2_kinds
from webhook.rules.v1alpha3 import kinds as v1alpha3_kinds
from webhook.rules.v1beta1 import kinds as v1beta1_kinds
from webhook.rules.v1beta2 import kinds as v1beta2_kinds


@dataclass(frozen=True, slots=True)
class ServedKinds:
    """Kinds the webhook judges as one Kubernetes release judges them."""

    release: Release
    kinds: tuple[KindRules, ...]


class KindRegistry(Mapping[GroupVersionKind, KindRules]):
    """The kinds the webhook judges, by GroupVersionKind, in the order they were registered, each with
    the release it is judged as. Immutable; a kind may be registered once."""

    __slots__ = ("_releases", "_rules", "entries")

    def __init__(self, entries: Iterable[ServedKinds]) -> None:
        self.entries: tuple[ServedKinds, ...] = tuple(entries)
        rules: dict[GroupVersionKind, KindRules] = {}
        releases: dict[GroupVersionKind, Release] = {}
        for entry in self.entries:
            for kind in entry.kinds:
                if kind.gvk in rules:
                    raise ValueError(f"{kind.gvk} is registered twice")
                rules[kind.gvk] = kind
                releases[kind.gvk] = entry.release
        self._rules = rules
        self._releases = releases

    def __getitem__(self, gvk: GroupVersionKind) -> KindRules:
        return self._rules[gvk]

    def __iter__(self) -> Iterator[GroupVersionKind]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def __repr__(self) -> str:
        return f"KindRegistry({list(self.entries)!r})"

    def release_of(self, gvk: GroupVersionKind) -> Release:
        """The release whose rules and messages a registered kind is judged by; KeyError if it is not."""
        return self._releases[gvk]

    def kinds_by_group_version(self) -> dict[tuple[str, str], tuple[KindRules, ...]]:
        """The registered kinds of each (group, version) served, in registration order: what an
        apiVersion holds (and whether the webhook serves it at all)."""
        served: dict[tuple[str, str], tuple[KindRules, ...]] = {}
        for gvk, rules in self._rules.items():
            served[gvk.group, gvk.version] = (*served.get((gvk.group, gvk.version), ()), rules)
        return served

    def version_table(self) -> tuple[tuple[str, Release], ...]:
        """(apiVersion, release) for every apiVersion with a registered kind and each release its kinds
        are judged as, in registration order: ``(("resource.k8s.io/v1alpha2", KUBERNETES_1_30),)``."""
        return tuple(dict.fromkeys((api_version_of(gvk), self._releases[gvk]) for gvk in self._rules))

    def kinds_judged_as(self, api_version: str, release: Release) -> tuple[str, ...]:
        """The kinds of an apiVersion judged as a release, in registration order."""
        return tuple(
            gvk.kind
            for gvk in self._rules
            if api_version_of(gvk) == api_version and self._releases[gvk] == release
        )


def api_version_of(gvk: GroupVersionKind) -> str:
    """What the objects of a kind say in ``apiVersion``: ``group/version`` (``version`` in the core group)."""
    return f"{gvk.group}/{gvk.version}" if gvk.group else gvk.version


REGISTRY: Final = KindRegistry(
    [
        # resource.k8s.io/v1alpha2, as kube-apiserver 1.30 validates it.
        ServedKinds(v1alpha2.RELEASE, v1alpha2_kinds.KINDS),
        # resource.k8s.io/v1alpha3, as kube-apiserver 1.31 validates it.
        ServedKinds(v1alpha3.RELEASE, v1alpha3_kinds.KINDS),
        # The kinds kube-apiserver 1.37 serves under resource.k8s.io/v1alpha3, as it validates them.
        ServedKinds(KUBERNETES_1_37, v1alpha3_kinds.KINDS_OF_1_37),
        # resource.k8s.io/v1, as kube-apiserver 1.37 validates it.
        ServedKinds(v1.RELEASE, v1_kinds.KINDS),
        # resource.k8s.io/v1beta2 and v1beta1: converted to v1 and judged as 1.37 judges them.
        ServedKinds(v1beta2.RELEASE, v1beta2_kinds.KINDS),
        ServedKinds(v1beta1.RELEASE, v1beta1_kinds.KINDS),
    ]
)
