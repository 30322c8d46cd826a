"""The webhook's own namespace rules for `parametersRef` -- not API-server rules.

The API reference states two rules the API server cannot enforce, because it never looks up the kind a
reference names:

* `ResourceClass.parametersRef.namespace` (and `ResourceClassParameters.generatedFrom.namespace`)
  "must be empty for cluster-scoped resources and non-empty for namespaced resources";
* the object named by `ResourceClaim.spec.parametersRef` (and a template's `spec.spec.parametersRef`)
  "must be in the same namespace as the ResourceClaim". The wire type has no namespace field, so only
  a `namespace` key that survived without pruning (kinds served as custom resources in a test
  cluster, objects judged offline) can break it.

Each rule can be switched off; the scope of a kind comes from a built-in table of well-known kinds
(facts of Kubernetes 1.30) extended by configuration. A kind of unknown scope is not judged: a short
warning says so. Findings are kept apart from the built-in errors; the admission layer appends them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, forbidden, go_quote, required
from webhook.rules.kinds import GroupVersionKind, Obj
from webhook.rules.v1alpha2 import GROUP, VERSION
from webhook.rules.values import mapping, optional_mapping, text

# Scopes of built-in kinds, as `kubectl api-resources` lists them for Kubernetes 1.30:
# (apiGroup, kind) -> namespaced. The core group is "".
_NAMESPACED = {
    "": (
        "Binding ConfigMap Endpoints Event LimitRange PersistentVolumeClaim Pod PodTemplate "
        "ReplicationController ResourceQuota Secret Service ServiceAccount"
    ),
    "apps": "ControllerRevision DaemonSet Deployment ReplicaSet StatefulSet",
    "autoscaling": "HorizontalPodAutoscaler",
    "batch": "CronJob Job",
    "coordination.k8s.io": "Lease",
    "discovery.k8s.io": "EndpointSlice",
    "events.k8s.io": "Event",
    "networking.k8s.io": "Ingress NetworkPolicy",
    "policy": "PodDisruptionBudget",
    "rbac.authorization.k8s.io": "Role RoleBinding",
    "resource.k8s.io": (
        "PodSchedulingContext ResourceClaim ResourceClaimParameters ResourceClaimTemplate "
        "ResourceClassParameters"
    ),
    "storage.k8s.io": "CSIStorageCapacity",
}
_CLUSTER_SCOPED = {
    "": "ComponentStatus Namespace Node PersistentVolume",
    "admissionregistration.k8s.io": "MutatingWebhookConfiguration ValidatingWebhookConfiguration",
    "apiextensions.k8s.io": "CustomResourceDefinition",
    "apiregistration.k8s.io": "APIService",
    "certificates.k8s.io": "CertificateSigningRequest",
    "flowcontrol.apiserver.k8s.io": "FlowSchema PriorityLevelConfiguration",
    "networking.k8s.io": "IngressClass",
    "node.k8s.io": "RuntimeClass",
    "rbac.authorization.k8s.io": "ClusterRole ClusterRoleBinding",
    "resource.k8s.io": "ResourceClass ResourceSlice",
    "scheduling.k8s.io": "PriorityClass",
    "storage.k8s.io": "CSIDriver CSINode StorageClass VolumeAttachment",
}


def _scope_table(kinds_by_group: Mapping[str, str], namespaced: bool) -> dict[tuple[str, str], bool]:
    return {(group, kind): namespaced for group, kinds in kinds_by_group.items() for kind in kinds.split()}


BUILTIN_SCOPES: Final[Mapping[tuple[str, str], bool]] = MappingProxyType(
    _scope_table(_NAMESPACED, True) | _scope_table(_CLUSTER_SCOPED, False)
)

# The scope words of a CustomResourceDefinition, accepted in configuration.
_SCOPE_WORDS: Final = {"Namespaced": True, "Cluster": False}
# A warning must stay printable and short (the apiserver truncates long ones): cap what we echo.
_MAX_KIND_IN_WARNING = 120


@dataclass(frozen=True, slots=True)
class NamespacePolicy:
    """Which namespace rules are on, and the scope of every kind the webhook knows."""

    enabled: bool = True
    # ResourceClass.parametersRef and ResourceClassParameters.generatedFrom match the kind's scope.
    class_reference_scope: bool = True
    # ResourceClaim(Template) parametersRef stays in the claim's namespace.
    claim_reference_namespace: bool = True
    scopes: Mapping[tuple[str, str], bool] = field(default_factory=lambda: BUILTIN_SCOPES)

    def with_scopes(self, extra: Mapping[tuple[str, str], bool]) -> NamespacePolicy:
        """A copy that also knows (or overrides) the scopes in `extra`: (apiGroup, kind) -> namespaced."""
        if not extra:
            return self
        return replace(self, scopes=MappingProxyType({**self.scopes, **extra}))

    def is_namespaced(self, api_group: str, kind: str) -> bool | None:
        """True for a namespaced kind, False for a cluster-scoped one, None when the scope is unknown."""
        return self.scopes.get((api_group, kind))

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> NamespacePolicy:
        """Build from a configuration mapping (YAML), every key optional::

            enabled: true
            classReferenceScope: true
            claimReferenceNamespace: true
            scopes:
              - {apiGroup: gpu.example.com, kind: GpuClassParameters, scope: Cluster}

        `scope` takes the words of a CustomResourceDefinition (`Namespaced` or `Cluster`).
        Raises ValueError naming the first bad entry.
        """
        unknown = set(config) - {"enabled", "classReferenceScope", "claimReferenceNamespace", "scopes"}
        if unknown:
            raise ValueError(f"namespace policy: unknown keys {sorted(unknown)}")
        policy = cls(
            enabled=_switch(config, "enabled"),
            class_reference_scope=_switch(config, "classReferenceScope"),
            claim_reference_namespace=_switch(config, "claimReferenceNamespace"),
        )
        return policy.with_scopes(_scopes_from_config(config.get("scopes") or []))


def _switch(config: Mapping[str, Any], key: str) -> bool:
    """A rule switch: on unless configured off."""
    value = config.get(key, True)
    if not isinstance(value, bool):
        raise ValueError(f"namespace policy: {key} must be true or false, not {value!r}")
    return value


def _scopes_from_config(entries: Iterable[Any]) -> dict[tuple[str, str], bool]:
    if not isinstance(entries, list):
        raise ValueError("namespace policy: scopes must be a list of {apiGroup, kind, scope}")
    scopes: dict[tuple[str, str], bool] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise ValueError(f"namespace policy: scopes[{i}] must be a mapping")
        api_group, kind, scope = entry.get("apiGroup", ""), entry.get("kind"), entry.get("scope")
        if not isinstance(api_group, str) or not isinstance(kind, str) or not kind:
            raise ValueError(f"namespace policy: scopes[{i}] needs a string apiGroup and a non-empty kind")
        if scope not in _SCOPE_WORDS:
            raise ValueError(
                f"namespace policy: scopes[{i}].scope must be Namespaced or Cluster, not {scope!r}"
            )
        scopes[(api_group, kind)] = _SCOPE_WORDS[scope]
    return scopes


@dataclass(frozen=True, slots=True)
class PolicyFindings:
    """What the namespace rules found: errors (to deny) and warnings (kinds of unknown scope)."""

    errors: ErrorList = field(default_factory=list)
    warnings: tuple[str, ...] = ()


_PARAMETERS_REF: Final = ROOT.child("parametersRef")
_GENERATED_FROM: Final = ROOT.child("generatedFrom")
_CLAIM_PARAMETERS_REF: Final = ROOT.child("spec", "parametersRef")
_TEMPLATE_PARAMETERS_REF: Final = ROOT.child("spec", "spec", "parametersRef")


def check_namespace_policy(gvk: GroupVersionKind, obj: Obj, policy: NamespacePolicy) -> PolicyFindings:
    """The namespace rules for one object of resource.k8s.io/v1alpha2; other kinds have none."""
    if not policy.enabled or gvk.group != GROUP or gvk.version != VERSION:
        return PolicyFindings()
    if policy.class_reference_scope and gvk.kind == "ResourceClass":
        return _check_reference_scope(obj.get("parametersRef"), _PARAMETERS_REF, policy)
    if policy.class_reference_scope and gvk.kind == "ResourceClassParameters":
        return _check_reference_scope(obj.get("generatedFrom"), _GENERATED_FROM, policy)
    if policy.claim_reference_namespace and gvk.kind == "ResourceClaim":
        spec = mapping(obj.get("spec"))
        return _check_same_namespace(obj, spec.get("parametersRef"), _CLAIM_PARAMETERS_REF, "ResourceClaim")
    if policy.claim_reference_namespace and gvk.kind == "ResourceClaimTemplate":
        claim_spec = mapping(mapping(obj.get("spec")).get("spec"))
        return _check_same_namespace(
            obj,
            claim_spec.get("parametersRef"),
            _TEMPLATE_PARAMETERS_REF,
            "ResourceClaimTemplate",
        )
    return PolicyFindings()


def _qualified_kind(api_group: str, kind: str) -> str:
    """`schema.GroupKind.String()`: ``Kind.group``, or just ``Kind`` in the core group."""
    return f"{kind}.{api_group}" if api_group else kind


def _check_reference_scope(reference: Any, path: FieldPath, policy: NamespacePolicy) -> PolicyFindings:
    """A class-level reference names its namespace exactly when the referenced kind is namespaced."""
    ref = optional_mapping(reference)
    if ref is None:
        return PolicyFindings()
    api_group, kind, namespace = text(ref.get("apiGroup")), text(ref.get("kind")), text(ref.get("namespace"))
    if not kind:
        return PolicyFindings()  # the API server's own rule already requires the kind
    qualified = go_quote(_qualified_kind(api_group, kind))
    namespaced = policy.is_namespaced(api_group, kind)
    if namespaced is None:
        shown = (
            qualified if len(qualified) <= _MAX_KIND_IN_WARNING else qualified[:_MAX_KIND_IN_WARNING] + '..."'
        )
        return PolicyFindings(warnings=(f"{path}: scope of kind {shown} is unknown, namespace not checked",))
    if namespaced and not namespace:
        return PolicyFindings(
            errors=[required(path.child("namespace"), f"must be set for namespaced kind {qualified}")]
        )
    if not namespaced and namespace:
        return PolicyFindings(
            errors=[forbidden(path.child("namespace"), f"must be empty for cluster-scoped kind {qualified}")]
        )
    return PolicyFindings()


def _check_same_namespace(obj: Obj, reference: Any, path: FieldPath, owner_kind: str) -> PolicyFindings:
    """A claim's parameters live in the claim's namespace: a differing `namespace` key is forbidden.

    An empty or null `namespace` means "the claim's own" and passes; so does an object without a
    namespace of its own (the built-in metadata rules already require one).
    """
    ref = optional_mapping(reference)
    if ref is None or ref.get("namespace") in (None, ""):
        return PolicyFindings()
    own_namespace = text(mapping(obj.get("metadata")).get("namespace"))
    if not own_namespace or ref.get("namespace") == own_namespace:
        return PolicyFindings()
    detail = f"must be the namespace of the {owner_kind} ({go_quote(own_namespace)}) or omitted"
    return PolicyFindings(errors=[forbidden(path.child("namespace"), detail)])
