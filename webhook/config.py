"""The configuration file: the webhook's policy switches in YAML, re-read while it serves.

Every key is optional; an empty file changes nothing::

    unknownKind: allow                 # allow (with a warning) | deny: kinds this webhook does not validate
    namespaceRules:                    # the webhook's own parametersRef rules (webhook/rules/policy.py)
      enabled: true
      classReferenceScope: true        # ResourceClass(Parameters) references match the kind's scope
      claimReferenceNamespace: true    # a claim's parameters live in the claim's namespace
      scopes:                          # kinds beyond the built-in table of Kubernetes kinds
        - {apiGroup: gpu.example.com, kind: GpuClassParameters, scope: Cluster}
    enforcement:
      default: deny                    # deny | warn (allowed, every error returned as a warning)
      kinds:                           # a kind in every apiVersion, or Kind.version.group in one;
        ResourceClaimTemplate: warn    # the most specific setting applies
        ResourceClaim.v1alpha2.resource.k8s.io: warn

The command line (flags and ``DRA_WEBHOOK_*``) gives the base; what the file sets overrides it, and
a key removed from the file falls back to the base at the next reload. A file that cannot be read or
is not valid is refused as a whole, naming the first problem: at start-up the server does not start,
while serving it keeps the configuration it has and logs why (once per broken content).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import yaml

from webhook.rules.kinds import GroupVersionKind
from webhook.rules.policy import BUILTIN_SCOPES, NamespacePolicy
from webhook.settings import Enforcement, PolicySettings, UnknownKindPolicy, enforcement_key
from webhook.watched import WatchedFiles

log = logging.getLogger("webhook.config")

_TOP_LEVEL_KEYS: Final = ("unknownKind", "namespaceRules", "enforcement")
_ENFORCEMENT_KEYS: Final = ("default", "kinds")
# namespaceRules switch -> (NamespacePolicy attribute, PolicySettings field).
_NAMESPACE_SWITCHES: Final = {
    "enabled": ("enabled", "namespace_rules"),
    "classReferenceScope": ("class_reference_scope", "class_reference_scope"),
    "claimReferenceNamespace": ("claim_reference_namespace", "claim_reference_namespace"),
}


class ConfigError(ValueError):
    """The configuration file cannot be used; the message names the file and the first problem."""


def parse_config(
    content: bytes | str,
    *,
    base: PolicySettings,
    known_kinds: Collection[GroupVersionKind],
    source: str = "config",
) -> PolicySettings:
    """The policy of `base` with what the YAML `content` sets applied. Raises ConfigError."""
    try:
        document = yaml.safe_load(content)
    except yaml.YAMLError as error:
        raise ConfigError(f"{source}: not valid YAML: {_one_line(error)}") from None
    if document is None:
        return base
    if not isinstance(document, Mapping):
        raise ConfigError(f"{source}: the configuration must be a mapping of {', '.join(_TOP_LEVEL_KEYS)}")
    try:
        _require_known_keys(document, _TOP_LEVEL_KEYS, "")
        policy = base
        if "unknownKind" in document:
            policy = dataclasses.replace(policy, unknown_kind=_unknown_kind(document["unknownKind"]))
        if "namespaceRules" in document:
            policy = _with_namespace_rules(policy, document["namespaceRules"])
        if "enforcement" in document:
            policy = _with_enforcement(policy, document["enforcement"], known_kinds)
    except ValueError as error:
        raise ConfigError(f"{source}: {error}") from None
    return policy


def load_config(
    path: Path, *, base: PolicySettings, known_kinds: Collection[GroupVersionKind]
) -> PolicySettings:
    """Read and parse the file at `path`. Raises ConfigError."""
    return parse_config(_read(path), base=base, known_kinds=known_kinds, source=str(path))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None


def _one_line(error: yaml.YAMLError) -> str:
    return " ".join(str(error).split())


def _require_known_keys(section: Mapping[Any, Any], known: Collection[str], where: str) -> None:
    unknown = [str(key) for key in section if key not in known]
    if unknown:
        raise ValueError(f"{where}unknown keys {unknown} (known: {', '.join(known)})")


def _unknown_kind(value: Any) -> UnknownKindPolicy:
    try:
        return UnknownKindPolicy(value)
    except ValueError:
        choices = " or ".join(policy.value for policy in UnknownKindPolicy)
        raise ValueError(f"unknownKind must be {choices}, not {value!r}") from None


def _with_namespace_rules(policy: PolicySettings, section: Any) -> PolicySettings:
    if section is None:
        return policy
    if not isinstance(section, Mapping):
        raise ValueError("namespaceRules must be a mapping")
    # NamespacePolicy.from_config checks the keys, the switches and the scopes, with its own messages.
    parsed = NamespacePolicy.from_config(section)
    switches = {
        field: getattr(parsed, attribute)
        for key, (attribute, field) in _NAMESPACE_SWITCHES.items()
        if key in section
    }
    policy = dataclasses.replace(policy, **switches)
    if "scopes" in section:
        extra = tuple(
            (group, kind, namespaced)
            for (group, kind), namespaced in sorted(parsed.scopes.items())
            if BUILTIN_SCOPES.get((group, kind)) != namespaced
        )
        policy = dataclasses.replace(policy, extra_scopes=extra)
    return policy


def _with_enforcement(
    policy: PolicySettings, section: Any, known_kinds: Collection[GroupVersionKind]
) -> PolicySettings:
    if section is None:
        return policy
    if not isinstance(section, Mapping):
        raise ValueError("enforcement must be a mapping of default and kinds")
    _require_known_keys(section, _ENFORCEMENT_KEYS, "enforcement: ")
    if "default" in section:
        policy = dataclasses.replace(
            policy, default_enforcement=_enforcement(section["default"], "enforcement.default")
        )
    if "kinds" in section:
        kinds = section["kinds"] or {}
        if not isinstance(kinds, Mapping):
            raise ValueError("enforcement.kinds must map kind names to deny or warn")
        names = {gvk.kind for gvk in known_kinds}
        qualified = {enforcement_key(gvk.kind, version=gvk.version, group=gvk.group) for gvk in known_kinds}
        per_kind = []
        for kind, value in kinds.items():
            if kind not in names and kind not in qualified:
                # A kind of one apiVersion is told the kinds of each; a plain kind the kind names.
                known = qualified if "." in str(kind) else names
                raise ValueError(
                    f"enforcement.kinds: {kind!r} is not a kind this webhook validates "
                    f"(known: {', '.join(sorted(known))})"
                )
            per_kind.append((str(kind), _enforcement(value, f"enforcement.kinds.{kind}")))
        policy = dataclasses.replace(policy, enforcement=tuple(per_kind))
    return policy


def _enforcement(value: Any, where: str) -> Enforcement:
    try:
        return Enforcement(value)
    except ValueError:
        raise ValueError(f"{where} must be deny or warn, not {value!r}") from None


class ConfigWatcher(WatchedFiles[PolicySettings]):
    """The configuration of one file, kept current by `poll()` (`webhook.watched.WatchedFiles`).

    The constructor reads the file and raises ConfigError if it is not usable (the server must not
    start on a broken configuration). `poll()` never raises: it re-reads the file and returns the new
    policy when the content changed and is valid, None otherwise; a refused content is logged once,
    not at every poll, and the policy in service stays. `reloads` and `reload_errors` count for the
    metrics.
    """

    refusals = (ConfigError,)

    def __init__(
        self, path: Path, *, base: PolicySettings, known_kinds: Collection[GroupVersionKind]
    ) -> None:
        self.path = path
        self.base = base
        self.known_kinds = frozenset(known_kinds)
        super().__init__()

    @property
    def policy(self) -> PolicySettings:
        return self.value

    def read(self) -> tuple[bytes]:
        return (_read(self.path),)

    def build(self, contents: Sequence[bytes]) -> PolicySettings:
        (content,) = contents
        return parse_config(content, base=self.base, known_kinds=self.known_kinds, source=str(self.path))

    def applied(self, value: PolicySettings, previous: PolicySettings) -> None:
        log.info("applied the configuration of %s", self.path, extra={"policy": describe_policy(value)})

    def refused(self, reason: str) -> None:
        log.error("refusing the changed configuration, keeping the one in service: %s", reason)


def describe_policy(policy: PolicySettings) -> dict[str, Any]:
    """The policy as the configuration file writes it, for log lines."""
    return {
        "unknownKind": policy.unknown_kind.value,
        "namespaceRules": {
            "enabled": policy.namespace_rules,
            "classReferenceScope": policy.class_reference_scope,
            "claimReferenceNamespace": policy.claim_reference_namespace,
            "scopes": [
                {"apiGroup": group, "kind": kind, "scope": "Namespaced" if namespaced else "Cluster"}
                for group, kind, namespaced in policy.extra_scopes
            ],
        },
        "enforcement": {
            "default": policy.default_enforcement.value,
            "kinds": {kind: enforcement.value for kind, enforcement in policy.enforcement},
        },
    }
