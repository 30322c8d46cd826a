"""The field paths and the order kube-apiserver 1.37 reports a v1beta1 object's errors in: v1's, but
for the declarative errors.

1.37 validates a v1beta1 object twice over (docs/versions.md, "v1beta1 and v1beta2"):

* the hand-written validation (`pkg/apis/resource/validation/validation.go`) runs on the internal
  object, converted from v1beta1 (`conversion.py`). It has v1's shape, so its errors carry v1's paths
  even for a v1beta1 object: `spec.devices.requests[0].exactly.count`, `spec.devices[0].attributes`.
* the declarative validation (`rest.ValidateDeclarativelyWithMigrationChecks`, apiserver
  `pkg/registry/rest/validate.go` at v0.37.0-beta.0) converts the object back to the version of the
  request and runs that version's generated rules on it, so its errors carry v1beta1's paths:
  `spec.devices.requests[0].selectors`, `spec.devices[0].basic.consumesCounters`, and come in the order
  of v1beta1's fields and tags. An enforced declarative error replaces the hand-written error it
  covers, matched by type, origin and the path after `validation.ResourceNormalizationRules`, which
  map exactly these v1beta1 paths to v1's; the v1 rules match them in v1's shape, to the same effect.

The v1 rules mark the declarative errors of their answer (`webhook.rules.v1.lifecycle`), so here a
hand-written error keeps v1's path, whatever it says and wherever it is, and a declarative one below
a field v1beta1 holds elsewhere moves: `requests[i].exactly.<field>` to `requests[i].<field>`,
`devices[i].<field>` to `devices[i].basic.<field>`. A declarative error is reported at the path its
check gives, which is not always the bad part: `+k8s:eachKey` reports at the map, not the key
(apimachinery v0.37.0-beta.0, `pkg/api/validate/each.go` `EachMapKey`, lines 181-182).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from webhook.field import ErrorList, FieldError
from webhook.rules.declaredorder import OPAQUE_DRIVER, driver_checks_in_beta_tag_order, rank_in, sorted_runs
from webhook.rules.v1beta1.conversion import BASIC_DEVICE_FIELDS

# A path below a request's `exactly` (group 1 the request, 2 the rest) and below a slice's device
# (group 1 the device, 2 its field, 3 the rest); a map key in a path may hold any character.
_CLAIM_EXACT: Final = re.compile(r"(spec\.devices\.requests\[\d+\])\.exactly\.(.+)", re.DOTALL)
_TEMPLATE_EXACT: Final = re.compile(r"(spec\.spec\.devices\.requests\[\d+\])\.exactly\.(.+)", re.DOTALL)
_SLICE_DEVICE: Final = re.compile(r"(spec\.devices\[\d+\])\.(\w+)(.*)", re.DOTALL)
# A v1beta1 path below a request (group 1 the request, 2 its field).
_CLAIM_REQUEST_FIELD: Final = re.compile(r"(spec\.devices\.requests\[\d+\])\.(\w+).*", re.DOTALL)
_TEMPLATE_REQUEST_FIELD: Final = re.compile(r"(spec\.spec\.devices\.requests\[\d+\])\.(\w+).*", re.DOTALL)
_BASIC_DEVICE_FIELDS: Final = frozenset(BASIC_DEVICE_FIELDS)

# v1beta1's DeviceRequest in declaration order (kubernetes/api v0.37.0-beta.0, resource/v1beta1/
# types.go lines 975-1141): `firstAvailable` (line 1096) comes before `tolerations` (line 1123),
# where v1 checks all of `exactly` before `firstAvailable`.
V1BETA1_REQUEST_FIELDS: Final = (
    "name",
    "deviceClassName",
    "selectors",
    "allocationMode",
    "count",
    "adminAccess",
    "firstAvailable",
    "tolerations",
    "capacity",
)


def claim_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaim's errors at the paths and in the order 1.37 reports for a v1beta1 claim."""
    if not errors:
        return errors
    moved = [_flattened(error, _CLAIM_EXACT) for error in errors]
    return driver_checks_in_beta_tag_order(_in_request_order(moved, _CLAIM_REQUEST_FIELD), OPAQUE_DRIVER)


def claim_template_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaimTemplate's errors (its claim spec is at `spec.spec`)."""
    if not errors:
        return errors
    moved = [_flattened(error, _TEMPLATE_EXACT) for error in errors]
    return driver_checks_in_beta_tag_order(_in_request_order(moved, _TEMPLATE_REQUEST_FIELD), OPAQUE_DRIVER)


def device_class_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A DeviceClass's errors: v1's paths, its configurations' drivers in v1beta1's tag order."""
    return driver_checks_in_beta_tag_order(errors, OPAQUE_DRIVER)


def resource_slice_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceSlice's errors: the declarative ones of a device's fields under its `basic`."""
    return [_in_basic(error) for error in errors]


def _flattened(error: FieldError, exact: re.Pattern[str]) -> FieldError:
    """A declarative error below a request's `exactly` at v1beta1's path, without it."""
    if not error.declarative:
        return error
    found = exact.fullmatch(error.field)
    if found is None:
        return error
    return replace(error, field=f"{found.group(1)}.{found.group(2)}")


def _in_basic(error: FieldError) -> FieldError:
    """A declarative error below a device's field that v1beta1 holds in `basic`, under it."""
    if not error.declarative:
        return error
    found = _SLICE_DEVICE.fullmatch(error.field)
    if found is None or found.group(2) not in _BASIC_DEVICE_FIELDS:
        return error
    return replace(error, field=f"{found.group(1)}.basic.{found.group(2)}{found.group(3)}")


def _in_request_order(errors: ErrorList, request_field: re.Pattern[str]) -> ErrorList:
    """The declarative errors of each request in the order of v1beta1's fields."""

    def request_of(error: FieldError) -> str:
        found = request_field.fullmatch(error.field) if error.declarative else None
        return "" if found is None else found.group(1)

    def field_rank(error: FieldError) -> int:
        found = request_field.fullmatch(error.field)
        return rank_in("" if found is None else found.group(2), V1BETA1_REQUEST_FIELDS)

    return sorted_runs(errors, request_of, field_rank)
