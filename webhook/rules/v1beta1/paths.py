"""The field paths kube-apiserver 1.37 reports for a v1beta1 object: v1's, but for declarative errors.

1.37 validates a v1beta1 object twice over (docs/versions.md, "v1beta1 and v1beta2"):

* the hand-written validation (`pkg/apis/resource/validation/validation.go`) runs on the internal
  object, converted from v1beta1 (`conversion.py`). It has v1's shape, so its errors carry v1's paths
  even for a v1beta1 object: `spec.devices.requests[0].exactly.count`, `spec.devices[0].attributes`.
* the declarative validation (`rest.ValidateDeclarativelyWithMigrationChecks`, apiserver
  `pkg/registry/rest/validate.go` at v0.37.0-beta.0) converts the object back to the version of the
  request and runs that version's generated rules on it, so its errors carry v1beta1's paths:
  `spec.devices.requests[0].selectors`, `spec.devices[0].basic.consumesCounters`. The rules without a
  lifecycle prefix and those marked beta are enforced in 1.37 (DeclarativeValidationBeta is on by
  default); an enforced declarative error replaces the hand-written error it covers, matched by type,
  origin and the path after `validation.ResourceNormalizationRules`, which map exactly these v1beta1
  paths to v1's (`spec.devices.requests[i].<field>` -> `...requests[i].exactly.<field>` for the
  fields `exactly` took over; `spec.devices[i].basic.` -> `spec.devices[i].`).

So an error keeps v1's path unless it is one of the enforced declarative errors below the moved
fields: those listed here (from `staging/src/k8s.io/api/resource/v1/zz_generated.validations.go` of
1.37: the `+k8s:` rules of `ExactDeviceRequest`, `DeviceToleration`, `Device`, `DeviceAttribute`,
`DeviceCounterConsumption` and `DeviceTaint` without the alpha mark; v1beta1's generated rules tag the
same fields alike, which the declarative tests of `pkg/registry/resource/*` assert by running one
table for v1beta1, v1beta2 and v1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from webhook.field import ErrorList, ErrorType, FieldError, go_value


@dataclass(frozen=True, slots=True)
class DeclarativeRule:
    """Errors one enforced declarative rule reports: the path below the moved node, the error types,
    and (where a hand-written error of the same type sits at the same path) words of its detail, or
    that the rule reports only a value that is set."""

    path: re.Pattern[str]
    types: frozenset[ErrorType]
    detail_words: tuple[str, ...] = ()
    set_values_only: bool = False

    def reports(self, below: str, error: FieldError) -> bool:
        if error.type not in self.types or not self.path.fullmatch(below):
            return False
        if self.set_values_only and go_value(error.bad_value) == '""':
            return False  # the empty string, however the error holds it
        return not self.detail_words or any(word in error.detail for word in self.detail_words)


def _rule(
    path: str, *types: ErrorType, detail_words: tuple[str, ...] = (), set_values_only: bool = False
) -> DeclarativeRule:
    return DeclarativeRule(re.compile(path), frozenset(types), detail_words, set_values_only)


_KEY = r"\[[^\]]*\]"
_INDEX = r"\[\d+\]"

# Below `exactly` (ExactDeviceRequest and its DeviceToleration items).
EXACT_REQUEST_DECLARATIVE: Final = (
    _rule("selectors", ErrorType.TOO_MANY),  # +k8s:maxItems=32
    # The DeviceAllocationMode enum, after `+k8s:optional`: an empty mode (a request without a class,
    # which v1beta1's defaulter leaves alone) is the hand-written error's, at v1's path.
    _rule("allocationMode", ErrorType.NOT_SUPPORTED, set_values_only=True),
    _rule(f"tolerations{_INDEX}\\.key", ErrorType.INVALID),  # +k8s:format=k8s-label-key
    _rule(f"tolerations{_INDEX}\\.operator", ErrorType.REQUIRED, ErrorType.NOT_SUPPORTED),
    _rule(f"tolerations{_INDEX}\\.effect", ErrorType.NOT_SUPPORTED),
)
# Below a device (Device, the fields v1beta1 holds in `basic`).
DEVICE_DECLARATIVE: Final = (
    # +k8s:unionMember on DeviceAttribute's values; the hand-written twin says "exactly one value".
    _rule(f"attributes{_KEY}", ErrorType.INVALID, detail_words=("one of", "exactly one value")),
    _rule("consumesCounters", ErrorType.TOO_MANY),  # +k8s:maxItems=2
    _rule(f"consumesCounters{_INDEX}", ErrorType.DUPLICATE),  # listMapKey=counterSet
    _rule(f"consumesCounters{_INDEX}\\.counterSet", ErrorType.REQUIRED, ErrorType.INVALID),
    _rule(f"consumesCounters{_INDEX}\\.counters", ErrorType.REQUIRED),
    _rule(f"consumesCounters{_INDEX}\\.counters{_KEY}", ErrorType.INVALID),  # eachKey short name
    _rule(f"taints{_INDEX}\\.effect", ErrorType.REQUIRED, ErrorType.NOT_SUPPORTED),
    _rule("bindingConditions", ErrorType.TOO_MANY),  # +k8s:maxItems=4
    _rule("bindingFailureConditions", ErrorType.TOO_MANY),  # +k8s:maxItems=4
)

_CLAIM_REQUEST: Final = re.compile(r"(spec\.devices\.requests\[\d+\])\.exactly\.(.+)")
_TEMPLATE_REQUEST: Final = re.compile(r"(spec\.spec\.devices\.requests\[\d+\])\.exactly\.(.+)")
_SLICE_DEVICE: Final = re.compile(r"(spec\.devices\[\d+\])\.(.+)")


def claim_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaim's errors at the paths 1.37 reports for a v1beta1 claim."""
    return [_moved(error, _CLAIM_REQUEST, EXACT_REQUEST_DECLARATIVE, "") for error in errors]


def claim_template_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceClaimTemplate's errors (its claim spec is at `spec.spec`)."""
    return [_moved(error, _TEMPLATE_REQUEST, EXACT_REQUEST_DECLARATIVE, "") for error in errors]


def resource_slice_errors_to_v1beta1(errors: ErrorList) -> ErrorList:
    """A ResourceSlice's errors: the enforced declarative ones of a device under its `basic`."""
    return [_moved(error, _SLICE_DEVICE, DEVICE_DECLARATIVE, "basic.") for error in errors]


def _moved(
    error: FieldError, node: re.Pattern[str], rules: tuple[DeclarativeRule, ...], inserted: str
) -> FieldError:
    """`error` at its v1beta1 path when an enforced declarative rule reported it, else unchanged.
    `node` splits a path into the node that moved and the path below it."""
    found = node.fullmatch(error.field)
    if found is None:
        return error
    below = found.group(2)
    if not any(rule.reports(below, error) for rule in rules):
        return error
    return FieldError(error.type, f"{found.group(1)}.{inserted}{below}", error.bad_value, error.detail)
