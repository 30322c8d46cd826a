"""The Go types of `pkg/apis/resource` 1.31 that the v1alpha3 rules compare with
`equality.Semantic.DeepEqual`, written in the vocabulary of `webhook.rules.equality`: the claim spec
and the template spec (immutable on update) and the allocation result (immutable once set).

The v1alpha3 types convert field for field to these internal types, so the JSON names are the
internal ones. `DeviceConfiguration` is inlined in the structs that embed it (`opaque` beside
`requests`). The opaque parameters are a `runtime.RawExtension`, compared as raw JSON.
"""

from __future__ import annotations

from typing import Final

from webhook.rules.equality import (
    BOOL,
    INT,
    NODE_SELECTOR,
    OBJECT_META,
    RAW_OBJECT,
    STRING,
    Pointer,
    Slice,
    Struct,
)

__all__ = ["ALLOCATION_RESULT", "DEVICE_SELECTORS", "RESOURCE_CLAIM_SPEC", "RESOURCE_CLAIM_TEMPLATE_SPEC"]

_OPAQUE_DEVICE_CONFIGURATION: Final = Pointer(Struct({"driver": STRING, "parameters": RAW_OBJECT}))
_DEVICE_SELECTOR: Final = Struct({"cel": Pointer(Struct({"expression": STRING}))})
# A class's or a request's `selectors`, compared as `apiequality.Semantic.DeepEqual` does.
DEVICE_SELECTORS: Final = Slice(_DEVICE_SELECTOR)
_DEVICE_REQUEST: Final = Struct(
    {
        "name": STRING,
        "deviceClassName": STRING,
        "selectors": DEVICE_SELECTORS,
        "allocationMode": STRING,
        "count": INT,
        "adminAccess": BOOL,
    }
)
_DEVICE_CONSTRAINT: Final = Struct({"requests": Slice(STRING), "matchAttribute": Pointer(STRING)})
_DEVICE_CLAIM_CONFIGURATION: Final = Struct(
    {"requests": Slice(STRING), "opaque": _OPAQUE_DEVICE_CONFIGURATION}
)
_DEVICE_CLAIM: Final = Struct(
    {
        "requests": Slice(_DEVICE_REQUEST),
        "constraints": Slice(_DEVICE_CONSTRAINT),
        "config": Slice(_DEVICE_CLAIM_CONFIGURATION),
    }
)
RESOURCE_CLAIM_SPEC: Final = Struct({"devices": _DEVICE_CLAIM, "controller": STRING})
# ObjectMeta is embedded by value in ResourceClaimTemplateSpec (`metadata`), as is the claim spec.
RESOURCE_CLAIM_TEMPLATE_SPEC: Final = Struct({"metadata": OBJECT_META, "spec": RESOURCE_CLAIM_SPEC})

_DEVICE_REQUEST_ALLOCATION_RESULT: Final = Struct(
    {"request": STRING, "driver": STRING, "pool": STRING, "device": STRING}
)
_DEVICE_ALLOCATION_CONFIGURATION: Final = Struct(
    {"source": STRING, "requests": Slice(STRING), "opaque": _OPAQUE_DEVICE_CONFIGURATION}
)
ALLOCATION_RESULT: Final = Struct(
    {
        "devices": Struct(
            {
                "results": Slice(_DEVICE_REQUEST_ALLOCATION_RESULT),
                "config": Slice(_DEVICE_ALLOCATION_CONFIGURATION),
            }
        ),
        "nodeSelector": Pointer(NODE_SELECTOR),
        "controller": STRING,
    }
)
