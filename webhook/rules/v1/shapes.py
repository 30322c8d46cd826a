"""The Go types of resource.k8s.io (1.37) that validation compares with `equality.Semantic.DeepEqual`,
as `webhook.rules.equality` shapes.

Hand-written validation compares internal types (`pkg/apis/resource`), declarative validation the
v1 types (its "don't revalidate unchanged data" checks); the two have the same fields, so one set of
shapes serves both. Quantities (capacities, counters, capacity requests, consumed capacity) compare by
value, as the Semantic equality function of `resource.Quantity` does (`Cmp`).
"""

from __future__ import annotations

from typing import Final

from webhook.rules.equality import (
    BOOL,
    INT,
    NODE_SELECTOR,
    OBJECT_META,
    QUANTITY,
    RAW_OBJECT,
    STRING,
    TIME,
    Map,
    Pointer,
    Slice,
    Struct,
)

_STRINGS: Final = Slice(STRING)
DEVICE_SELECTOR: Final = Struct({"cel": Pointer(Struct({"expression": STRING}))})
DEVICE_SELECTORS: Final = Slice(DEVICE_SELECTOR)
DEVICE_TOLERATION: Final = Struct(
    {
        "key": STRING,
        "operator": STRING,
        "value": STRING,
        "effect": STRING,
        "tolerationSeconds": Pointer(INT),
    }
)
_QUANTITIES: Final = Map(QUANTITY)
_CAPACITY_REQUIREMENTS: Final = Struct({"requests": _QUANTITIES})
EXACT_DEVICE_REQUEST: Final = Struct(
    {
        "deviceClassName": STRING,
        "selectors": DEVICE_SELECTORS,
        "allocationMode": STRING,
        "count": INT,
        "adminAccess": Pointer(BOOL),
        "tolerations": Slice(DEVICE_TOLERATION),
        "capacity": Pointer(_CAPACITY_REQUIREMENTS),
    }
)
DEVICE_SUB_REQUEST: Final = Struct(
    {
        "name": STRING,
        "deviceClassName": STRING,
        "selectors": DEVICE_SELECTORS,
        "allocationMode": STRING,
        "count": INT,
        "tolerations": Slice(DEVICE_TOLERATION),
        "capacity": Pointer(_CAPACITY_REQUIREMENTS),
    }
)
DEVICE_REQUEST: Final = Struct(
    {
        "name": STRING,
        "exactly": Pointer(EXACT_DEVICE_REQUEST),
        "firstAvailable": Slice(DEVICE_SUB_REQUEST),
    }
)
_OPAQUE_CONFIGURATION: Final = Struct({"driver": STRING, "parameters": RAW_OBJECT})
# DeviceConfiguration is embedded inline: `opaque` sits beside the fields of its container.
DEVICE_CONFIGURATION_FIELDS: Final = {"opaque": Pointer(_OPAQUE_CONFIGURATION)}
DEVICE_CLASS_CONFIGURATIONS: Final = Slice(Struct(DEVICE_CONFIGURATION_FIELDS))
DEVICE_CONSTRAINT: Final = Struct(
    {"requests": _STRINGS, "matchAttribute": Pointer(STRING), "distinctAttribute": Pointer(STRING)}
)
DEVICE_CLAIM_CONFIGURATION: Final = Struct({"requests": _STRINGS, **DEVICE_CONFIGURATION_FIELDS})
DEVICE_CLAIM: Final = Struct(
    {
        "requests": Slice(DEVICE_REQUEST),
        "constraints": Slice(DEVICE_CONSTRAINT),
        "config": Slice(DEVICE_CLAIM_CONFIGURATION),
    }
)
RESOURCE_CLAIM_SPEC: Final = Struct({"devices": DEVICE_CLAIM})
RESOURCE_CLAIM_TEMPLATE_SPEC: Final = Struct({"metadata": OBJECT_META, "spec": RESOURCE_CLAIM_SPEC})
DEVICE_CLASS_SPEC: Final = Struct(
    {
        "selectors": DEVICE_SELECTORS,
        "config": DEVICE_CLASS_CONFIGURATIONS,
        "extendedResourceName": Pointer(STRING),
    }
)

DEVICE_REQUEST_ALLOCATION_RESULT: Final = Struct(
    {
        "request": STRING,
        "driver": STRING,
        "pool": STRING,
        "device": STRING,
        "adminAccess": Pointer(BOOL),
        "tolerations": Slice(DEVICE_TOLERATION),
        "bindingConditions": _STRINGS,
        "bindingFailureConditions": _STRINGS,
        "shareID": Pointer(STRING),
        "consumedCapacity": _QUANTITIES,
        "skipNodeOperations": _STRINGS,
    }
)
DEVICE_ALLOCATION_CONFIGURATION: Final = Struct(
    {"source": STRING, "requests": _STRINGS, **DEVICE_CONFIGURATION_FIELDS}
)
DEVICE_ALLOCATION_RESULT: Final = Struct(
    {
        "results": Slice(DEVICE_REQUEST_ALLOCATION_RESULT),
        "config": Slice(DEVICE_ALLOCATION_CONFIGURATION),
    }
)
ALLOCATION_RESULT: Final = Struct(
    {
        "devices": DEVICE_ALLOCATION_RESULT,
        "nodeSelector": Pointer(NODE_SELECTOR),
        "allocationTimestamp": Pointer(TIME),
    }
)
RESOURCE_CLAIM_CONSUMER_REFERENCE: Final = Struct(
    {"apiGroup": STRING, "resource": STRING, "name": STRING, "uid": STRING}
)
RESOURCE_CLAIM_CONSUMER_REFERENCES: Final = Slice(RESOURCE_CLAIM_CONSUMER_REFERENCE)
_CONDITION: Final = Struct(
    {
        "type": STRING,
        "status": STRING,
        "observedGeneration": INT,
        "lastTransitionTime": TIME,
        "reason": STRING,
        "message": STRING,
    }
)
_NETWORK_DEVICE_DATA: Final = Struct({"interfaceName": STRING, "ips": _STRINGS, "hardwareAddress": STRING})
NETWORK_DEVICE_DATA: Final = Pointer(_NETWORK_DEVICE_DATA)
CONDITIONS: Final = Slice(_CONDITION)
ALLOCATED_DEVICE_STATUS: Final = Struct(
    {
        "driver": STRING,
        "pool": STRING,
        "device": STRING,
        "shareID": Pointer(STRING),
        "conditions": CONDITIONS,
        "data": Pointer(RAW_OBJECT),
        "networkData": NETWORK_DEVICE_DATA,
    }
)
ALLOCATED_DEVICE_STATUSES: Final = Slice(ALLOCATED_DEVICE_STATUS)

# --- ResourceSlice and DeviceTaintRule -----------------------------------------------------------------

COUNTERS: Final = Map(Struct({"value": QUANTITY}))
COUNTER_SET: Final = Struct({"name": STRING, "counters": COUNTERS})
COUNTER_SETS: Final = Slice(COUNTER_SET)
DEVICE_COUNTER_CONSUMPTION: Final = Struct({"counterSet": STRING, "counters": COUNTERS})
DEVICE_ATTRIBUTE: Final = Struct(
    {
        "int": Pointer(INT),
        "bool": Pointer(BOOL),
        "string": Pointer(STRING),
        "version": Pointer(STRING),
        "ints": Slice(INT),
        "bools": Slice(BOOL),
        "strings": _STRINGS,
        "versions": _STRINGS,
    }
)
DEVICE_ATTRIBUTES: Final = Map(DEVICE_ATTRIBUTE)
_REQUEST_POLICY_RANGE: Final = Struct(
    {"min": Pointer(QUANTITY), "max": Pointer(QUANTITY), "step": Pointer(QUANTITY)}
)
_REQUEST_POLICY: Final = Struct(
    {
        "default": Pointer(QUANTITY),
        "validValues": Slice(QUANTITY),
        "validRange": Pointer(_REQUEST_POLICY_RANGE),
    }
)
DEVICE_CAPACITIES: Final = Map(Struct({"value": QUANTITY, "requestPolicy": Pointer(_REQUEST_POLICY)}))
# A taint without timeAdded is defaulted to "now" when it is decoded (the new object's and a stored
# one's alike): two absent times are the same second, an absent and a written one are not.
DEVICE_TAINT: Final = Struct({"key": STRING, "value": STRING, "effect": STRING, "timeAdded": Pointer(TIME)})
DEVICE_TAINTS: Final = Slice(DEVICE_TAINT)
_NODE_ALLOCATABLE_RESOURCE: Final = Struct(
    {
        "mapping": Pointer(
            Struct(
                {
                    "capacityKey": Pointer(STRING),
                    "capacityMultiplier": Pointer(QUANTITY),
                    "deviceMultiplier": Pointer(QUANTITY),
                }
            )
        ),
        "overhead": Pointer(Struct({"perPod": Pointer(QUANTITY), "perContainer": Pointer(QUANTITY)})),
    }
)
DEVICE: Final = Struct(
    {
        "name": STRING,
        "attributes": DEVICE_ATTRIBUTES,
        "capacity": DEVICE_CAPACITIES,
        "consumesCounters": Slice(DEVICE_COUNTER_CONSUMPTION),
        "nodeName": Pointer(STRING),
        "nodeSelector": Pointer(NODE_SELECTOR),
        "allNodes": Pointer(BOOL),
        "taints": DEVICE_TAINTS,
        "bindsToNode": Pointer(BOOL),
        "bindingConditions": _STRINGS,
        "bindingFailureConditions": _STRINGS,
        "allowMultipleAllocations": Pointer(BOOL),
        "nodeAllocatableResources": Map(_NODE_ALLOCATABLE_RESOURCE),
    }
)
DEVICES: Final = Slice(DEVICE)
RESOURCE_SLICE_SPEC: Final = Struct(
    {
        "driver": STRING,
        "pool": Struct({"name": STRING, "generation": INT, "resourceSliceCount": INT}),
        "nodeName": Pointer(STRING),
        "nodeSelector": Pointer(NODE_SELECTOR),
        "allNodes": Pointer(BOOL),
        "devices": DEVICES,
        "perDeviceNodeSelection": Pointer(BOOL),
        "sharedCounters": COUNTER_SETS,
        "partitionTypeAttribute": Pointer(STRING),
        "skipNodeOperations": _STRINGS,
    }
)
STRINGS: Final = _STRINGS
DEVICE_TAINT_RULE_SPEC: Final = Struct(
    {
        "deviceSelector": Pointer(
            Struct({"driver": Pointer(STRING), "pool": Pointer(STRING), "device": Pointer(STRING)})
        ),
        "taint": DEVICE_TAINT,
    }
)
