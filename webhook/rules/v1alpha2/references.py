"""The two parameters references of resource.k8s.io/v1alpha2 (1.30), each checked by one function
wherever it appears, as `pkg/apis/resource/validation/validation.go` does:

* `validateResourceClaimParametersRef`: a ResourceClaim's (and a template's) `spec.parametersRef`,
  and a ResourceClaimParameters' `generatedFrom`;
* `validateClassParameters`: a ResourceClass's `parametersRef`, and a ResourceClassParameters'
  `generatedFrom`.

Both are pointers: null or absent is not checked, `{}` is. `apiGroup` is never checked in 1.30.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webhook.field import ErrorList, FieldPath, required
from webhook.rules.names import validate_dns_label
from webhook.rules.values import optional_mapping, text

__all__ = ["validate_claim_parameters_ref", "validate_class_parameters_ref"]


def validate_claim_parameters_ref(ref: Any, path: FieldPath) -> ErrorList:
    """`validateResourceClaimParametersRef`: kind and name are required."""
    fields = optional_mapping(ref)
    return [] if fields is None else _validate_kind_and_name(fields, path)


def validate_class_parameters_ref(ref: Any, path: FieldPath) -> ErrorList:
    """`validateClassParameters`: kind and name are required; the namespace, when set, goes through
    `ValidateNamespaceName` (a DNS label)."""
    fields = optional_mapping(ref)
    if fields is None:
        return []
    errs = _validate_kind_and_name(fields, path)
    namespace = text(fields.get("namespace"))
    if namespace:
        errs += validate_dns_label(namespace, path.child("namespace"))
    return errs


def _validate_kind_and_name(ref: Mapping[str, Any], path: FieldPath) -> ErrorList:
    # Go repeats these two checks in both functions ("generics cannot be used to access common
    # fields in structs"); the two reference types share them here.
    errs: ErrorList = []
    if not text(ref.get("kind")):
        errs.append(required(path.child("kind"), ""))
    if not text(ref.get("name")):
        errs.append(required(path.child("name"), ""))
    return errs
