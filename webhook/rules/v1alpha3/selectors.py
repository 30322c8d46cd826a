"""Device selectors of resource.k8s.io/v1alpha3 as 1.31 checks them, in a claim's requests and in a
class (`validateSelector` of `validation.go`): the one selector type of 1.31, `cel`, is required, and
its expression is judged by the CEL environment of 1.31 (`webhook.cel.validate_device_selector`,
reporting at `...cel.expression`).
"""

from __future__ import annotations

from typing import Any, Final

from webhook.cel import validate_device_selector
from webhook.field import ErrorList, FieldPath, required
from webhook.rules.v1alpha3 import RELEASE
from webhook.rules.values import mapping, optional_mapping, text

__all__ = ["DEVICE_SELECTORS_MAX_SIZE", "validate_selector"]

# resource.DeviceSelectorsMaxSize: selectors per request and per class.
DEVICE_SELECTORS_MAX_SIZE: Final = 32


def validate_selector(selector: Any, path: FieldPath, *, stored: bool = False) -> ErrorList:
    """`validateSelector`: `cel` is required; its expression is compiled for 1.31, in the
    StoredExpressions environment when `stored` (an expression the API server already holds)."""
    cel = optional_mapping(mapping(selector).get("cel"))
    if cel is None:
        return [required(path.child("cel"), "")]
    return validate_device_selector(
        text(cel.get("expression")), path.child("cel", "expression"), release=RELEASE, stored=stored
    )
