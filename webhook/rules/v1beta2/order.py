"""The order kube-apiserver 1.37 reports a v1beta2 object's errors in: v1's paths (v1beta2 has v1's
shape), but the declarative errors of a configuration's `opaque.driver` in v1beta2's tag order
(`webhook.rules.declaredorder`)."""

from __future__ import annotations

from webhook.field import ErrorList
from webhook.rules.declaredorder import OPAQUE_DRIVER, driver_checks_in_beta_tag_order


def errors_in_v1beta2_order(errors: ErrorList) -> ErrorList:
    """A DeviceClass's, ResourceClaim's or ResourceClaimTemplate's errors as 1.37 orders them for
    v1beta2."""
    return driver_checks_in_beta_tag_order(errors, OPAQUE_DRIVER)
