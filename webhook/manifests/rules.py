"""The rules of the webhook configuration: which kinds and subresources, in which apiVersion, the API
server of each era sends the webhook, derived from the rule registry (`webhook.registry.REGISTRY`)
and the release table (`webhook.eras`); and what a user of a release should know of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from webhook.eras import NEWEST_ERA, Era, era_kinds, unjudged_kinds, versions_serving, webhook_kinds
from webhook.registry import REGISTRY, KindRegistry
from webhook.rules.kinds import KindRules

Manifest = dict[str, Any]

OPERATIONS = ("CREATE", "UPDATE")


def webhook_rules(registry: KindRegistry = REGISTRY) -> list[Manifest]:
    """One rule per group and version of every kind the registry judges (of every era)."""
    return rules_of(registry.values())


def era_rules(era: Era = NEWEST_ERA, registry: KindRegistry = REGISTRY) -> list[Manifest]:
    """The rules of the webhook configuration for the clusters of `era`."""
    return rules_of(era_kinds(era, registry))


def rules_of(kinds: Iterable[KindRules]) -> list[Manifest]:
    """One rule per group and version: CREATE and UPDATE of each kind and of each of its subresources."""
    by_group_version: dict[tuple[str, str], list[KindRules]] = {}
    for kind in kinds:
        by_group_version.setdefault((kind.gvk.group, kind.gvk.version), []).append(kind)
    return [
        {
            "apiGroups": [group],
            "apiVersions": [version],
            "operations": list(OPERATIONS),
            "resources": sorted(
                name
                for kind in kinds
                for name in (kind.resource, *(f"{kind.resource}/{sub}" for sub in kind.subresources))
            ),
            "scope": "*",
        }
        for (group, version), kinds in sorted(by_group_version.items())
    ]


def rule_resources(configuration: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """(group, version, resource) for every resource the webhooks of a configuration name."""
    named: set[tuple[str, str, str]] = set()
    for webhook in configuration.get("webhooks") or ():
        for rule in webhook.get("rules") or ():
            for group in rule.get("apiGroups") or ():
                for version in rule.get("apiVersions") or ():
                    named.update((group, version, resource) for resource in rule.get("resources") or ())
    return named


def registry_resources(
    registry: KindRegistry = REGISTRY,
) -> set[tuple[str, str, str]]:
    """(group, version, resource) for every resource and subresource the registry validates."""
    return rule_resources({"webhooks": [{"rules": webhook_rules(registry)}]})


def era_resources(era: Era = NEWEST_ERA, registry: KindRegistry = REGISTRY) -> set[tuple[str, str, str]]:
    """(group, version, resource) for every resource and subresource the configuration of `era` names."""
    return rule_resources({"webhooks": [{"rules": era_rules(era, registry)}]})


def release_notes(release: str, registry: KindRegistry = REGISTRY) -> list[str]:
    """What a user of Kubernetes `release` should know of the webhook configuration of its era: the
    releases its kinds are judged as when not its own, and the kinds it serves that are not judged."""
    notes = []
    kinds = webhook_kinds(release, registry)
    judged_as: dict[str, list[str]] = {}
    for kind in kinds:
        version = registry.release_of(kind.gvk).version
        if version != release:
            api_version = f"{kind.gvk.group}/{kind.gvk.version}"
            judged_as.setdefault(version, [])
            if api_version not in judged_as[version]:
                judged_as[version].append(api_version)
    for version, api_versions in judged_as.items():
        judged = f"{', '.join(api_versions)} judged as Kubernetes {version}, whose rules this webhook has"
        notes.append(
            f"Kubernetes {release}: {judged}: where they differ from {release}'s, its verdict is "
            f"{version}'s (docs/versions.md)"
        )
    unjudged = [
        f"{kind} ({', '.join(versions_serving(release, kind))})" for kind in unjudged_kinds(release, registry)
    ]
    if unjudged:
        notes.append(f"Kubernetes {release} serves kinds this webhook does not judge: {'; '.join(unjudged)}")
    if not kinds:
        what = f"none of the kinds Kubernetes {release} serves"
        notes.append(f"this webhook judges {what}: its configuration has no rule")
    return notes
