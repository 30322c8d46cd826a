"""The order of declarative errors where a beta version's `+k8s:` tags run unlike v1's (Kubernetes 1.37).

1.37 runs the declarative validation on the object converted back to the request's version
(docs/versions.md, "v1beta1 and v1beta2"), so its errors come in the order of that version's
generated code: a struct's fields in declaration order, and a field's validators short-circuits first
(`required`, `maxItems`, `optional`), then the others in the order their tags are written
(code-generator v0.37.0-beta.0, `cmd/validation-gen/validation.go`, `sortIntoCohorts`, lines
1632-1675). The v1 rules emit v1's order; an adapted kind reorders the declarative errors (those the
merge marks, `webhook.rules.v1.lifecycle`) where its version's `types.go` says otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from webhook.field import ErrorList, FieldError
from webhook.rules.v1.names import LONG_NAME_CASELESS

# `driver` of a configuration's `opaque` part: a DeviceClass's `spec.config[i]`, a claim's
# `spec.devices.config[i]` (a template's below `spec.spec`) and an allocation's
# `status.allocation.devices.config[i]`.
OPAQUE_DRIVER: Final = re.compile(r"(?:.+\.)?config\[\d+\]\.opaque\.driver", re.DOTALL)

# kubernetes/api v0.37.0-beta.0: v1beta1 and v1beta2 tag `OpaqueDeviceConfiguration.Driver` `required`,
# `maxLength=63`, `format=k8s-long-name-caseless` (resource/v1beta1/types.go lines 1540-1542,
# resource/v1beta2/types.go lines 1686-1688), v1 `required`, format, maxLength (resource/v1/types.go
# lines 1697-1699). `required` short-circuits and goes first, the others keep their written order: v1
# says Invalid then TooLong, the betas TooLong then Invalid. (`DeviceRequestAllocationResult.Driver`
# is tagged format, required, maxLength in v1 and v1beta1 and format, maxLength, required in v1beta2:
# with `required` first, format before maxLength in all three, as v1's generated code runs it.)
_BETA_DRIVER_TAG_ORDER: Final = ("maxLength", LONG_NAME_CASELESS)


def driver_checks_in_beta_tag_order(errors: ErrorList, drivers: re.Pattern[str]) -> ErrorList:
    """`errors` with the declarative errors of each driver that `drivers` matches in the beta
    versions' tag order: its TooLong before its Invalid ones."""
    if not errors:
        return errors
    return sorted_runs(
        errors,
        lambda error: error.field if error.declarative and drivers.fullmatch(error.field) else "",
        lambda error: rank_in(error.origin, _BETA_DRIVER_TAG_ORDER),
    )


def sorted_runs(
    errors: ErrorList, run_of: Callable[[FieldError], str], rank: Callable[[FieldError], int]
) -> ErrorList:
    """`errors` with each run of consecutive errors of the same non-empty `run_of` sorted by `rank`,
    equal ranks in their order; every other error stays where it is."""
    ordered: ErrorList = []
    run: ErrorList = []
    run_key = ""
    for error in errors:
        key = run_of(error)
        if run and key != run_key:
            ordered += sorted(run, key=rank)
            run = []
        if key:
            run.append(error)
            run_key = key
        else:
            ordered.append(error)
    ordered += sorted(run, key=rank)
    return ordered


def rank_in(name: str, order: Sequence[str]) -> int:
    """Where `name` stands in `order`; a name it does not list comes after those it does."""
    return order.index(name) if name in order else len(order)
