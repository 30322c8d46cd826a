"""Every kind of resource.k8s.io/v1beta1: the v1 kinds of Kubernetes 1.37, judged after 1.37's
conversion of each v1beta1 object to v1 (`conversion.py`), their errors at the paths and in the order
1.37 reports for a v1beta1 object (`paths.py`). `webhook.registry` binds them to Kubernetes 1.37.

v1beta1 has no DeviceTaintRule (staging/src/k8s.io/api/resource/v1beta1/register.go, 1.37).

A claim and a template are defaulted by v1beta1's defaulters before the conversion (`defaults.py`),
as the API server defaults an object in the version it decodes, and judged by the v1 rules that
default nothing more; a duplicate request is shown as v1beta1's type (`gojson.py`).

"""

from __future__ import annotations

from typing import Final

from webhook.field import ErrorList
from webhook.rules.adapters import converted_kind
from webhook.rules.kinds import KindRules, Obj
from webhook.rules.v1.deviceclass import DEVICE_CLASS as V1_DEVICE_CLASS
from webhook.rules.v1.resourceclaim import DEFAULTED_RESOURCE_CLAIM as V1_DEFAULTED_RESOURCE_CLAIM
from webhook.rules.v1.resourceclaimtemplate import (
    DEFAULTED_RESOURCE_CLAIM_TEMPLATE as V1_DEFAULTED_RESOURCE_CLAIM_TEMPLATE,
)
from webhook.rules.v1.resourceslice import RESOURCE_SLICE as V1_RESOURCE_SLICE
from webhook.rules.v1beta1 import resource_v1beta1
from webhook.rules.v1beta1.conversion import (
    claim_template_to_v1,
    claim_to_v1,
    device_class_to_v1,
    resource_slice_to_v1,
)
from webhook.rules.v1beta1.defaults import defaulted_claim, defaulted_claim_template
from webhook.rules.v1beta1.gojson import claim_template_values_to_v1beta1, claim_values_to_v1beta1
from webhook.rules.v1beta1.paths import (
    claim_errors_to_v1beta1,
    claim_template_errors_to_v1beta1,
    device_class_errors_to_v1beta1,
    resource_slice_errors_to_v1beta1,
)


def defaulted_claim_to_v1(claim: Obj) -> Obj:
    """The claim 1.37 validates: defaulted by v1beta1's defaulters, then converted."""
    return claim_to_v1(defaulted_claim(claim))


def defaulted_claim_template_to_v1(template: Obj) -> Obj:
    """The template 1.37 validates: defaulted by v1beta1's defaulters, then converted."""
    return claim_template_to_v1(defaulted_claim_template(template))


def claim_errors_reported_for_v1beta1(errors: ErrorList) -> ErrorList:
    """A claim's errors as 1.37 reports them for a v1beta1 claim: their paths and shown values."""
    return claim_values_to_v1beta1(claim_errors_to_v1beta1(errors))


def claim_template_errors_reported_for_v1beta1(errors: ErrorList) -> ErrorList:
    """A template's errors as 1.37 reports them for a v1beta1 template."""
    return claim_template_values_to_v1beta1(claim_template_errors_to_v1beta1(errors))


DEVICE_CLASS: Final = converted_kind(
    V1_DEVICE_CLASS,
    resource_v1beta1("DeviceClass"),
    convert=device_class_to_v1,
    map_errors=device_class_errors_to_v1beta1,
)
RESOURCE_CLAIM: Final = converted_kind(
    V1_DEFAULTED_RESOURCE_CLAIM,
    resource_v1beta1("ResourceClaim"),
    convert=defaulted_claim_to_v1,
    map_errors=claim_errors_reported_for_v1beta1,
)
RESOURCE_CLAIM_TEMPLATE: Final = converted_kind(
    V1_DEFAULTED_RESOURCE_CLAIM_TEMPLATE,
    resource_v1beta1("ResourceClaimTemplate"),
    convert=defaulted_claim_template_to_v1,
    map_errors=claim_template_errors_reported_for_v1beta1,
)
RESOURCE_SLICE: Final = converted_kind(
    V1_RESOURCE_SLICE,
    resource_v1beta1("ResourceSlice"),
    convert=resource_slice_to_v1,
    map_errors=resource_slice_errors_to_v1beta1,
)

KINDS: Final[tuple[KindRules, ...]] = (
    DEVICE_CLASS,
    RESOURCE_CLAIM,
    RESOURCE_CLAIM_TEMPLATE,
    RESOURCE_SLICE,
)
