"""The whole v1beta1 items kube-apiserver 1.37 prints in errors about a v1beta1 object.

The declarative validation runs on the object converted back to v1beta1 (`paths.py`), and
`validate.ValSliceUnique` (apimachinery v0.37.0-beta.0 `pkg/api/validate/each.go`, line 216:
`field.Duplicate(fldPath.Index(i), val)`) reports a duplicate list item with the item itself, which
`ErrorBody` prints with `json.Marshal` (`webhook.rules.v1.gojson`): in the item's v1beta1 type. The
v1 rules print it in v1's.

Of the list items a declarative uniqueness tag of 1.37 prints whole (`+k8s:unique=map` on a claim's
requests and subrequests, a slice's shared counters and a device's counter consumption; the
`+k8s:listType=map` of a claim's reservedFor and device statuses), only the request has another type
in v1beta1: `DeviceSubRequest`, `CounterSet`, `DeviceCounterConsumption`,
`ResourceClaimConsumerReference` and `AllocatedDeviceStatus` have v1's fields, json names and
`omitempty` marks in v1beta1, in the same order (kubernetes/api v0.37.0-beta.0,
`resource/v1beta1/types.go` and `resource/v1/types.go`), and the other uniqueness tags are on lists
of strings.

v1beta1's `DeviceRequest` holds the fields of v1's `exactly` itself, `deviceClassName` without
`omitempty` (types.go line 1002): a duplicate request shows `"deviceClassName":""` when it has no
class, as a request with subrequests has none. So a duplicate request is shown as v1beta1's type: the
item the v1 rules printed is read back, converted as the API server converts the internal object to
v1beta1 (`conversion.request_from_v1`) and printed again. Reading it back loses nothing v1beta1's
type prints: both types leave out the same empty fields (`omitempty`) and write the same values.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Final

from webhook.field import ErrorList, ErrorType, FieldError, GoText
from webhook.rules.v1.gojson import (
    BOOL,
    DEVICE_SUB_REQUEST,
    EXACT_DEVICE_REQUEST,
    STRING,
    Pointer,
    Shape,
    Slice,
    Struct,
    go_encoded,
)
from webhook.rules.v1beta1.conversion import request_from_v1


def _exact_request_field(name: str) -> tuple[str, Shape, bool]:
    """A field of v1's ExactDeviceRequest, which v1beta1's DeviceRequest has with the same type and
    json tag."""
    return next(field for field in EXACT_DEVICE_REQUEST.fields if field[0] == name)


# resource/v1beta1/types.go at v0.37.0-beta.0, `type DeviceRequest struct` (lines 975-1141), in
# declaration order; all but `name` and `deviceClassName` are `omitempty`.
DEVICE_REQUEST: Final = Struct(
    (
        ("name", STRING, False),
        ("deviceClassName", STRING, False),
        _exact_request_field("selectors"),
        _exact_request_field("allocationMode"),
        _exact_request_field("count"),
        ("adminAccess", Pointer(BOOL), True),
        ("firstAvailable", Slice(DEVICE_SUB_REQUEST), True),
        _exact_request_field("tolerations"),
        _exact_request_field("capacity"),
    )
)

_CLAIM_REQUEST: Final = re.compile(r"spec\.devices\.requests\[\d+\]")
_TEMPLATE_REQUEST: Final = re.compile(r"spec\.spec\.devices\.requests\[\d+\]")


def claim_values_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaim's errors, a duplicate request shown as v1beta1's DeviceRequest."""
    return [_request_shown_as_v1beta1(error, _CLAIM_REQUEST) for error in errors]


def claim_template_values_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaimTemplate's errors (its claim spec is at `spec.spec`)."""
    return [_request_shown_as_v1beta1(error, _TEMPLATE_REQUEST) for error in errors]


def _request_shown_as_v1beta1(error: FieldError, request_path: re.Pattern[str]) -> FieldError:
    """The declarative Duplicate of a request (the whole item, in v1's shape: a hand-written one
    shows the name, a string) in v1beta1's shape; every other error as it is."""
    if (
        error.type is not ErrorType.DUPLICATE
        or not error.declarative
        or not isinstance(error.bad_value, GoText)
        or not request_path.fullmatch(error.field)
    ):
        return error
    v1_request = json.loads(error.bad_value.text)
    return replace(error, bad_value=go_encoded(request_from_v1(v1_request), DEVICE_REQUEST))
