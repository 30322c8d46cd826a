"""The field paths kube-apiserver 1.37 reports for a v1beta1 object: v1's, but for the declarative
errors.

1.37 validates a v1beta1 object twice over (docs/versions.md, "v1beta1 and v1beta2"):

* the hand-written validation (`pkg/apis/resource/validation/validation.go`) runs on the internal
  object, converted from v1beta1 (`conversion.py`). It has v1's shape, so its errors carry v1's paths
  even for a v1beta1 object: `spec.devices.requests[0].exactly.count`, `spec.devices[0].attributes`.
* the declarative validation (`rest.ValidateDeclarativelyWithMigrationChecks`, apiserver
  `pkg/registry/rest/validate.go` at v0.37.0-beta.0) converts the object back to the version of the
  request and runs that version's generated rules on it, so its errors carry v1beta1's paths:
  `spec.devices.requests[0].selectors`, `spec.devices[0].basic.consumesCounters`. An enforced
  declarative error replaces the hand-written error it covers, matched by type, origin and the path
  after `validation.ResourceNormalizationRules`, which map exactly these v1beta1 paths to v1's; the
  v1 rules match them in v1's shape, to the same effect.

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
from webhook.rules.v1beta1.conversion import BASIC_DEVICE_FIELDS

# A path below a request's `exactly` (group 1 the request, 2 the rest) and below a slice's device
# (group 1 the device, 2 its field, 3 the rest).
_CLAIM_EXACT: Final = re.compile(r"(spec\.devices\.requests\[\d+\])\.exactly\.(.+)")
_TEMPLATE_EXACT: Final = re.compile(r"(spec\.spec\.devices\.requests\[\d+\])\.exactly\.(.+)")
_SLICE_DEVICE: Final = re.compile(r"(spec\.devices\[\d+\])\.(\w+)(.*)")
_BASIC_DEVICE_FIELDS: Final = frozenset(BASIC_DEVICE_FIELDS)


def claim_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaim's errors at the paths 1.37 reports for a v1beta1 claim."""
    return [_flattened(error, _CLAIM_EXACT) for error in errors]


def claim_template_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaimTemplate's errors (its claim spec is at `spec.spec`)."""
    return [_flattened(error, _TEMPLATE_EXACT) for error in errors]


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
