"""ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, cluster-scoped, with a `status` subresource), a
kind Kubernetes 1.37 serves under v1alpha3 (DRAResourcePoolStatus): a one-time query of a driver's
pool status, answered by a controller in the status. Judged as kube-apiserver 1.37 judges it.

Hand-written (`pkg/apis/resource/validation/validation_resourcepoolstatusrequest.go` of the 1.37 tree,
search id 51849906864, the version whose types are those of `k8s.io/api` at 2026-07-24): the metadata
on create; ObjectMetaUpdate on update; on a status update ObjectMetaUpdate, then a status once set is
immutable (the whole of it, not covered by declarative validation), else the status conditions
(metav1 `ValidateConditions`).

Declarative (`pkg/apis/resource/v1alpha3/zz_generated.validations.go` of the same tree, the tags of
`resource/v1alpha3/types.go`): standard tags, always enforced -- the spec immutable, the driver
required and a caseless long name, the pool name a resource pool name, the limit between 1 and 1000
(defaulted to 100), the default partition type attribute a fully qualified name; in the status the
pool count, at most 1000 pools each checked field by field, at most 10 conditions. The conditions'
own tags and ObjectMeta's are alpha (never enforced). Both are merged as `webhook.rules.v1.lifecycle`
describes; the strategy is taken to embed `rest.DeclarativeValidation` as the 1.37 declarative test
table's use of `registry.Strategy` shows, so updates begin with `rest.validateCommonFields`.

What the strategy resets is not looked at: the status on create (`Status = nil`) and on an update of
the request (the old one is kept), the spec on a status update. `defaultPartitionTypeAttribute` is
validated as with DRAPartitionableDevicesType on, whenever it arrives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from webhook.field import ROOT, ErrorList, FieldPath, invalid
from webhook.release import KUBERNETES_1_37
from webhook.rules import equality, meta
from webhook.rules.equality import semantic_equal
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1 import gojson
from webhook.rules.v1.allocation import validate_conditions
from webhook.rules.v1.declarative import (
    immutable,
    long_name,
    long_name_caseless,
    max_bytes,
    max_items,
    maximum,
    minimum,
    required_value,
    resource_fully_qualified_name,
    resource_pool_name,
    unique,
)
from webhook.rules.v1.lifecycle import merge_validations, updated_with_common_fields
from webhook.rules.v1alpha3 import resource_v1alpha3
from webhook.rules.values import mapping, optional_mapping, sequence, text

RELEASE: Final = KUBERNETES_1_37
LIMIT_DEFAULT: Final = 100
LIMIT_MAX: Final = 1000
POOLS_MAX: Final = 1000
CONDITIONS_MAX: Final = 10
PARTITION_SUMMARY_MAX: Final = 32
SHAREABLE_CAPACITY_MAX: Final = 32
VALIDATION_ERROR_MAX_BYTES: Final = 256

_SPEC = ROOT.child("spec")
_STATUS = ROOT.child("status")

# The types compared with Semantic.DeepEqual ("don't revalidate unchanged data", the immutable status).
_INT = equality.INT
_OPTIONAL_INT = equality.Pointer(equality.INT)
SPEC_SHAPE: Final = equality.Struct(
    {
        "driver": equality.STRING,
        "poolName": equality.Pointer(equality.STRING),
        "limit": _OPTIONAL_INT,
        "defaultPartitionTypeAttribute": equality.Pointer(equality.STRING),
    }
)
_PARTITION_TYPE_STATUS = equality.Struct(
    {
        "attribute": equality.STRING,
        "type": equality.STRING,
        "total": _OPTIONAL_INT,
        "allocatable": _OPTIONAL_INT,
    }
)
_SHAREABLE_CAPACITY = equality.Pointer(equality.QUANTITY)
_POOL_STATUS = equality.Struct(
    {
        "driver": equality.STRING,
        "poolName": equality.STRING,
        "generation": _INT,
        "resourceSliceCount": _OPTIONAL_INT,
        "totalDevices": _OPTIONAL_INT,
        "allocatedDevices": _OPTIONAL_INT,
        "availableDevices": _OPTIONAL_INT,
        "unavailableDevices": _OPTIONAL_INT,
        "nodeName": equality.Pointer(equality.STRING),
        "validationError": equality.Pointer(equality.STRING),
        "partitionSummary": equality.Slice(_PARTITION_TYPE_STATUS),
        "shareableSummary": equality.Pointer(
            equality.Struct(
                {
                    "fullyAvailableDevices": _OPTIONAL_INT,
                    "partiallyAvailableDevices": _OPTIONAL_INT,
                    "capacity": equality.Slice(
                        equality.Struct(
                            {
                                "name": equality.STRING,
                                "total": _SHAREABLE_CAPACITY,
                                "consumed": _SHAREABLE_CAPACITY,
                                "available": _SHAREABLE_CAPACITY,
                            }
                        )
                    ),
                }
            )
        ),
    }
)
_CONDITIONS = equality.Slice(
    equality.Struct(
        {
            "type": equality.STRING,
            "status": equality.STRING,
            "observedGeneration": equality.INT,
            "lastTransitionTime": equality.TIME,
            "reason": equality.STRING,
            "message": equality.STRING,
        }
    )
)
_POOLS = equality.Slice(_POOL_STATUS)
STATUS_SHAPE: Final = equality.Pointer(
    equality.Struct({"poolCount": _OPTIONAL_INT, "pools": _POOLS, "conditions": _CONDITIONS})
)

# How encoding/json writes them (the immutable status is shown whole).
_JSON_INT = gojson.Pointer(gojson.INT)
PARTITION_TYPE_STATUS_JSON: Final = gojson.Struct(
    (
        ("attribute", gojson.STRING, True),
        ("type", gojson.STRING, True),
        ("total", _JSON_INT, True),
        ("allocatable", _JSON_INT, True),
    )
)
_QUANTITY_JSON = gojson.Pointer(gojson.QUANTITY)
_POOL_STATUS_JSON = gojson.Struct(
    (
        ("driver", gojson.STRING, True),
        ("poolName", gojson.STRING, True),
        ("generation", gojson.INT, False),
        ("resourceSliceCount", _JSON_INT, True),
        ("totalDevices", _JSON_INT, True),
        ("allocatedDevices", _JSON_INT, True),
        ("availableDevices", _JSON_INT, True),
        ("unavailableDevices", _JSON_INT, True),
        ("nodeName", gojson.Pointer(gojson.STRING), True),
        ("validationError", gojson.Pointer(gojson.STRING), True),
        ("partitionSummary", gojson.Slice(PARTITION_TYPE_STATUS_JSON), True),
        (
            "shareableSummary",
            gojson.Pointer(
                gojson.Struct(
                    (
                        ("fullyAvailableDevices", _JSON_INT, True),
                        ("partiallyAvailableDevices", _JSON_INT, True),
                        (
                            "capacity",
                            gojson.Slice(
                                gojson.Struct(
                                    (
                                        ("name", gojson.STRING, True),
                                        ("total", _QUANTITY_JSON, True),
                                        ("consumed", _QUANTITY_JSON, True),
                                        ("available", _QUANTITY_JSON, True),
                                    )
                                )
                            ),
                            True,
                        ),
                    )
                )
            ),
            True,
        ),
    )
)
STATUS_JSON: Final = gojson.Pointer(
    gojson.Struct(
        (
            ("poolCount", _JSON_INT, True),
            ("pools", gojson.Slice(_POOL_STATUS_JSON), True),
            ("conditions", gojson.Slice(gojson.CONDITION), True),
        )
    )
)


def defaulted_request(request: Obj) -> dict[str, Any]:
    """The request as the v1alpha3 defaulters leave it: `spec.limit` (`+default=100`)."""
    defaulted = dict(request)
    spec = request.get("spec")
    if isinstance(spec, dict) and spec.get("limit") is None:
        defaulted["spec"] = {**spec, "limit": LIMIT_DEFAULT}
    return defaulted


# --- create, update, status ----------------------------------------------------------------------------


def validate_request(request: Obj) -> ErrorList:
    """Create: `ValidateResourcePoolStatusRequest` merged with `Validate_ResourcePoolStatusRequest`
    (the status is cleared before)."""
    request = defaulted_request(request)
    handwritten = meta.validate_object_meta(request.get("metadata"), namespaced=False, release=RELEASE)
    return merge_validations(handwritten, validate_spec(mapping(request.get("spec")), _SPEC))


def validate_request_update(new: Obj, old: Obj) -> ErrorList:
    """Update: `rest.validateCommonFields`, ObjectMetaUpdate, and the spec immutable (declarative; the
    status is the old one)."""
    new, old = defaulted_request(new), defaulted_request(old)
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    declarative: ErrorList = []
    if not semantic_equal(new.get("spec"), old.get("spec"), SPEC_SHAPE):
        declarative = immutable(_SPEC)
    return merge_validations(handwritten, declarative)


def validate_request_status_update(new: Obj, old: Obj) -> ErrorList:
    """Status: `rest.validateCommonFields`, ObjectMetaUpdate, then a status once set may not change,
    else the conditions; declarative validation checks what changed in the status."""
    handwritten = updated_with_common_fields(new.get("metadata"), old.get("metadata"), namespaced=False)
    handwritten += meta.validate_object_meta_update(new.get("metadata"), old.get("metadata"), release=RELEASE)
    status, old_status = new.get("status"), old.get("status")
    if old_status is not None:
        if not semantic_equal(status, old_status, STATUS_SHAPE):
            shown = gojson.go_encoded(status, STATUS_JSON)
            handwritten.append(invalid(_STATUS, shown, meta.FIELD_IMMUTABLE_MSG))
    elif status is not None:
        conditions = sequence(mapping(status).get("conditions"))
        handwritten += validate_conditions(conditions, _STATUS.child("conditions"))
    declarative: ErrorList = []
    fields = optional_mapping(status)
    if fields is not None and not semantic_equal(status, old_status, STATUS_SHAPE):
        declarative = validate_status(fields, optional_mapping(old_status), _STATUS)
    return merge_validations(handwritten, declarative)


# --- declarative validation (standard tags: always enforced) ---------------------------------------------


def validate_spec(spec: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_ResourcePoolStatusRequestSpec` on create."""
    driver, driver_path = text(spec.get("driver")), path.child("driver")
    errs = required_value(bool(driver), driver_path) or long_name_caseless(driver, driver_path)
    pool_name = spec.get("poolName")
    if pool_name is not None:
        errs += resource_pool_name(text(pool_name), path.child("poolName"))
    limit, limit_path = spec.get("limit"), path.child("limit")
    if limit is None:
        errs += required_value(False, limit_path)
    else:
        value = _int(limit)
        errs += maximum(value, LIMIT_MAX, limit_path) + minimum(value, 1, limit_path)
    attribute = spec.get("defaultPartitionTypeAttribute")
    if attribute is not None:
        errs += resource_fully_qualified_name(text(attribute), path.child("defaultPartitionTypeAttribute"))
    return errs


def validate_status(status: Mapping[str, Any], old: Mapping[str, Any] | None, path: FieldPath) -> ErrorList:
    """`Validate_ResourcePoolStatusRequestStatus`: a field equal to the old status's is not validated
    again; the pools have no keys, so each is validated whole."""
    old_fields = mapping(old)
    errs: ErrorList = []
    count, old_count = status.get("poolCount"), old_fields.get("poolCount")
    if not (old is not None and semantic_equal(count, old_count, _OPTIONAL_INT)):
        count_path = path.child("poolCount")
        errs += required_value(count is not None, count_path) or minimum(_int(count), 0, count_path)
    pools = sequence(status.get("pools"))
    if pools and not (
        old is not None and semantic_equal(status.get("pools"), old_fields.get("pools"), _POOLS)
    ):
        pools_path = path.child("pools")
        too_many = max_items(len(pools), POOLS_MAX, pools_path)
        if too_many:
            errs += too_many
        else:
            for i, pool in enumerate(pools):
                errs += _pool_status(mapping(pool), pools_path.index(i))
    conditions = sequence(status.get("conditions"))
    if conditions and not (
        old is not None
        and semantic_equal(status.get("conditions"), old_fields.get("conditions"), _CONDITIONS)
    ):
        errs += max_items(len(conditions), CONDITIONS_MAX, path.child("conditions"))
    return errs


def _pool_status(pool: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_PoolStatus` (no old pool)."""
    driver, driver_path = text(pool.get("driver")), path.child("driver")
    errs = required_value(bool(driver), driver_path) or long_name_caseless(driver, driver_path)
    pool_name, pool_name_path = text(pool.get("poolName")), path.child("poolName")
    errs += required_value(bool(pool_name), pool_name_path) or resource_pool_name(pool_name, pool_name_path)
    generation, generation_path = _int(pool.get("generation")), path.child("generation")
    errs += required_value(generation != 0, generation_path) or minimum(generation, 0, generation_path)
    errs += _optional_minimum(pool.get("resourceSliceCount"), 1, path.child("resourceSliceCount"))
    for name in ("totalDevices", "allocatedDevices", "availableDevices", "unavailableDevices"):
        errs += _optional_minimum(pool.get(name), 0, path.child(name))
    node_name = pool.get("nodeName")
    if node_name is not None:
        errs += long_name(text(node_name), path.child("nodeName"))
    validation_error = pool.get("validationError")
    if validation_error is not None:
        errs += max_bytes(text(validation_error), VALIDATION_ERROR_MAX_BYTES, path.child("validationError"))
    summary = sequence(pool.get("partitionSummary"))
    if summary:
        summary_path = path.child("partitionSummary")
        too_many = max_items(len(summary), PARTITION_SUMMARY_MAX, summary_path)
        if too_many:
            errs += too_many
        else:
            errs += unique(
                summary,
                lambda a, b: _partition_key(a) == _partition_key(b),
                summary_path,
                lambda item: gojson.go_encoded(item, PARTITION_TYPE_STATUS_JSON),
            )
            for i, entry in enumerate(summary):
                errs += _partition_type_status(mapping(entry), summary_path.index(i))
    shareable = optional_mapping(pool.get("shareableSummary"))
    if shareable is not None:
        errs += _shareable_summary(shareable, path.child("shareableSummary"))
    return errs


def _partition_key(entry: Any) -> tuple[str, str]:
    fields = mapping(entry)
    return text(fields.get("attribute")), text(fields.get("type"))


def _partition_type_status(entry: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_PartitionTypeStatus`."""
    errs = required_value(bool(text(entry.get("attribute"))), path.child("attribute"))
    errs += required_value(bool(text(entry.get("type"))), path.child("type"))
    for name in ("total", "allocatable"):
        errs += _required_minimum(entry.get(name), 0, path.child(name))
    return errs


def _shareable_summary(summary: Mapping[str, Any], path: FieldPath) -> ErrorList:
    """`Validate_ShareableSummaryStatus`."""
    errs: ErrorList = []
    for name in ("fullyAvailableDevices", "partiallyAvailableDevices"):
        errs += _required_minimum(summary.get(name), 0, path.child(name))
    capacities = sequence(summary.get("capacity"))
    if capacities:
        capacities_path = path.child("capacity")
        too_many = max_items(len(capacities), SHAREABLE_CAPACITY_MAX, capacities_path)
        if too_many:
            return errs + too_many
        for i, capacity in enumerate(capacities):
            fields, at = mapping(capacity), capacities_path.index(i)
            errs += required_value(bool(text(fields.get("name"))), at.child("name"))
            for name in ("total", "consumed", "available"):
                errs += required_value(fields.get(name) is not None, at.child(name))
    return errs


def _required_minimum(value: Any, limit: int, path: FieldPath) -> ErrorList:
    """`RequiredPointer` (short-circuits), then `Minimum`."""
    return required_value(value is not None, path) or minimum(_int(value), limit, path)


def _optional_minimum(value: Any, limit: int, path: FieldPath) -> ErrorList:
    """`OptionalPointer` (absent: nothing), then `Minimum`."""
    return [] if value is None else minimum(_int(value), limit, path)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


RESOURCE_POOL_STATUS_REQUEST: Final = KindRules(
    gvk=resource_v1alpha3("ResourcePoolStatusRequest"),
    resource="resourcepoolstatusrequests",
    namespaced=False,
    validate_create=validate_request,
    validate_update=validate_request_update,
    validate_status_update=validate_request_status_update,
)
