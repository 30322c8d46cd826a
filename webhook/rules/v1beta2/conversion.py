"""resource.k8s.io/v1beta2 objects in v1's shape, as kube-apiserver 1.37 converts them.

In 1.37 every v1beta2 type has the fields of its v1 twin, with the same names, JSON names and types
(`staging/src/k8s.io/api/resource/v1beta2/types.go` against `v1/types.go` at v1.37.0-beta.0), and
`pkg/apis/resource/v1beta2/conversion.go` holds no hand-written conversion (only the ResourceSlice
field-label selector): the generated conversion copies every field. So the object the v1 rules see is
the v1beta2 object itself, under v1's apiVersion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from webhook.rules.kinds import Obj

V1_API_VERSION: Final = "resource.k8s.io/v1"


def to_v1(obj: Obj) -> Obj:
    """The object as kube-apiserver 1.37 converts a v1beta2 object of any kind to v1: unchanged."""
    if not isinstance(obj, Mapping):
        return obj  # not an object: the structural check has denied it
    return {**obj, "apiVersion": V1_API_VERSION}
