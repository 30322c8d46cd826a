"""What the API server does to an object before validation that a client does not.

A namespaced object without a namespace gets the request's (`-n`, default "default") and a
cluster-scoped one loses its namespace (registry/rest/meta.go). A create with `generateName` and no
name gets a generated name (registry/rest/create.go `BeforeCreate`). An update is given what
`BeforeUpdate` (registry/rest/update.go) and an unconditional update take from the stored object:
resourceVersion, generation, uid, creationTimestamp, deletionTimestamp and
deletionGracePeriodSeconds, so a manifest without them is not denied for "field is immutable". A
status update also keeps the stored metadata the status strategies put back
(`metav1.ResetObjectMetaForStatus`), so what the server would drop is not judged.

The server judges objects as kube-apiserver sends them, all this done; offline, a manifest is a
client's object, and these functions do it first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.rules.kinds import KindRules
from webhook.rules.values import mapping

KUBECTL_NAMESPACE: Final = "default"  # kubectl's namespace when neither the object nor -n names one


def effective_namespace(namespace: str, rules: KindRules | None, request_namespace: str) -> str:
    """The namespace an object ends up in: see `in_request_namespace`."""
    if rules is None:
        return namespace
    if not rules.namespaced:
        return ""
    return namespace or request_namespace


def in_request_namespace(obj: dict[str, Any], rules: KindRules, request_namespace: str) -> dict[str, Any]:
    """The object as BeforeCreate and BeforeUpdate leave it (apiserver registry/rest/meta.go
    `EnsureObjectNamespaceMatchesRequestNamespace`): a namespaced object without a namespace gets
    the request's (kubectl's current namespace), a cluster-scoped object loses any namespace. An
    object with no `metadata` (or `metadata: null`) decodes to an empty ObjectMeta, which gets the
    namespace as well."""
    metadata = obj.get("metadata")
    if metadata is None:
        metadata = {}
        obj = {**obj, "metadata": metadata}
    if not isinstance(metadata, dict):
        return obj  # the structural check reports it
    namespace = metadata.get("namespace")
    if rules.namespaced and not namespace and request_namespace:
        return {**obj, "metadata": {**metadata, "namespace": request_namespace}}
    if not rules.namespaced and "namespace" in metadata:
        return {**obj, "metadata": {key: value for key, value in metadata.items() if key != "namespace"}}
    return obj


# apiserver pkg/storage/names/generate.go: `generateName` is cut to 63 - 5 characters and 5 random
# characters of utilrand's alphabet ("bcdfghjklmnpqrstvwxz2456789") are appended. Offline the suffix
# is always "xxxxx", so that a verdict and its message do not change from one run to the next.
MAX_GENERATED_NAME_LENGTH: Final = 63 - 5
GENERATED_NAME_SUFFIX: Final = "xxxxx"


def generated_name(generate_name: str) -> str:
    """The name the API server gives an object created with `generateName` and no name (the
    suffix deterministic, see `GENERATED_NAME_SUFFIX`)."""
    return generate_name[:MAX_GENERATED_NAME_LENGTH] + GENERATED_NAME_SUFFIX


def server_filled_create(obj: dict[str, Any], rules: KindRules, request_namespace: str) -> dict[str, Any]:
    """The object of a create as the API server validates it: in the request namespace
    (`in_request_namespace`), and named when it asks for a generated name (`BeforeCreate`:
    `generateName` set and `name` empty)."""
    filled = in_request_namespace(obj, rules, request_namespace)
    metadata = filled.get("metadata")
    if isinstance(metadata, dict) and not metadata.get("name"):
        generate_name = metadata.get("generateName")
        if isinstance(generate_name, str) and generate_name:
            filled = {**filled, "metadata": {**metadata, "name": generated_name(generate_name)}}
    return filled


STORED_RESOURCE_VERSION: Final = "1"


# What a status update keeps of the stored metadata: every resource.k8s.io status strategy of 1.30,
# 1.31 and 1.37 calls `metav1.ResetObjectMetaForStatus(&new.ObjectMeta, &old.ObjectMeta)` in its
# PrepareForUpdate (pkg/registry/resource/*/strategy.go), which sets these from the stored object
# (apimachinery pkg/apis/meta/v1/helpers.go, the same at v0.30.0, v0.31.0 and v0.37.0-beta.0, lines
# 265-276 of the last; managedFields is kept as sent). Generation is the stored one on every update.
STATUS_RESET_METADATA: Final = (
    "deletionTimestamp",
    "generation",
    "selfLink",
    "labels",
    "annotations",
    "finalizers",
    "ownerReferences",
)


def server_filled_update(
    new: Mapping[str, Any], old: Mapping[str, Any], *, subresource: str = ""
) -> dict[str, Any]:
    """The new object as the API server hands it to validation on an update: what `BeforeUpdate`
    (apiserver registry/rest/update.go) and an unconditional update take from the stored object,
    and on a `status` update what the status strategy puts back (`STATUS_RESET_METADATA`)."""
    if subresource == "status":
        new = _status_metadata_reset(new, old)
    filled = dict(new)
    metadata = dict(mapping(new.get("metadata")))
    old_metadata = mapping(old.get("metadata"))
    # generation: "Ensure requests cannot update generation".
    for name in ("generation",):
        if name in old_metadata:
            metadata[name] = old_metadata[name]
        else:
            metadata.pop(name, None)
    # Filled only when the client sent none: an empty uid, a nil deletionGracePeriodSeconds (a 0 sent or
    # stored is a value, as it is for an object with finalizers being deleted).
    if not metadata.get("uid") and old_metadata.get("uid"):
        metadata["uid"] = old_metadata["uid"]
    stored_grace = old_metadata.get("deletionGracePeriodSeconds")
    if metadata.get("deletionGracePeriodSeconds") is None and stored_grace is not None:
        metadata["deletionGracePeriodSeconds"] = stored_grace
    # An unconditional update (no resourceVersion sent) is given the stored one; a stored object
    # always has one, so an old manifest without it stands for version "1".
    if not metadata.get("resourceVersion"):
        metadata["resourceVersion"] = old_metadata.get("resourceVersion") or STORED_RESOURCE_VERSION
    # Never changed by an update once the stored object has them.
    for name in ("creationTimestamp", "deletionTimestamp"):
        if old_metadata.get(name):
            metadata[name] = old_metadata[name]
    filled["metadata"] = metadata
    return filled


def _status_metadata_reset(new: Mapping[str, Any], old: Mapping[str, Any]) -> dict[str, Any]:
    """`new` with the metadata of `STATUS_RESET_METADATA` taken from `old`: absent where `old` has
    none."""
    metadata = dict(mapping(new.get("metadata")))
    old_metadata = mapping(old.get("metadata"))
    for name in STATUS_RESET_METADATA:
        if name in old_metadata:
            metadata[name] = old_metadata[name]
        else:
            metadata.pop(name, None)
    return {**new, "metadata": metadata}
