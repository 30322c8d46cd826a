"""How the 1.31 registry strategies (`pkg/registry/resource/<kind>/strategy.go`) combine the validators
on update, and what the webhook reports for it.

For ResourceClaim, ResourceClaimTemplate and DeviceClass, `ValidateUpdate` runs the create validation
of the new object and then `Validate<Kind>Update(new, old)`. In 1.31 the update validators no longer
re-run the create validation whole: they run ObjectMetaUpdate and the spec checks, not ObjectMeta's
create checks (the finalizer names, generateName, a negative generation...). So the create pass adds
errors of its own, and repeats the rest, which `details.causes` then lists twice (the aggregated
message drops the repeat).

The webhook reports each error once: the update validator's errors in its order -- what 1.31's
validation tests assert -- preceded by the errors of the create pass that the update pass does not
also report. The spec checks of the two passes differ only in the CEL environment of the selectors:
the create pass compiles them as new expressions, the update pass as stored ones (for a class, only
when its selectors are unchanged), so a selector only the stored environment accepts is reported by
the create pass alone.
"""

from __future__ import annotations

from collections import Counter

from webhook.field import ErrorList, FieldError

__all__ = ["create_then_update"]


def create_then_update(create_errors: ErrorList, update_errors: ErrorList) -> ErrorList:
    """The errors of a create pass followed by an update pass, each error once: those of `create_errors`
    that `update_errors` does not repeat (as many times as it does not), then `update_errors`."""
    if not create_errors:
        return update_errors
    repeated = Counter(_identity(error) for error in update_errors)
    first_pass_only: ErrorList = []
    for error in create_errors:
        identity = _identity(error)
        if repeated[identity] > 0:
            repeated[identity] -= 1
        else:
            first_pass_only.append(error)
    return first_pass_only + update_errors


def _identity(error: FieldError) -> tuple[str, str, str]:
    """What tells two errors apart on the wire: reason, field and message."""
    return error.type.value, error.field, error.body()
