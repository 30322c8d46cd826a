"""NodeSelector, as kube-apiserver 1.30 validates it for resource.k8s.io.

`ResourceClass.suitableNodes` and `ResourceClaim.status.allocation.availableOnNodes` are checked with
`corevalidation.ValidateNodeSelector(selector, fldPath)` (pkg/apis/core/validation, 1.30). It takes
no options: label *keys* in matchExpressions must be qualified names, label *values* are not checked
at all, and matchFields may only select `metadata.name` with node names as values.
"""

from __future__ import annotations

from typing import Any, Final

from webhook.field import ErrorList, FieldPath, forbidden, invalid, required
from webhook.release import KUBERNETES_1_30, Release
from webhook.rules.names import (
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
)
from webhook.rules.values import mapping, sequence, text

__all__ = [
    "validate_node_field_selector_requirement",
    "validate_node_selector",
    "validate_node_selector_requirement",
    "validate_node_selector_term",
]

# metav1.ObjectNameField: the one field a node field selector may use (its values are node names).
NODE_NAME_FIELD: Final = "metadata.name"
_FIELD_OPERATORS: Final = ("In", "NotIn")


def validate_node_selector(
    selector: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """`ValidateNodeSelector`: at least one term, then each term (an empty term is fine)."""
    terms = sequence(mapping(selector).get("nodeSelectorTerms"))
    terms_path = path.child("nodeSelectorTerms")
    if not terms:
        return [required(terms_path, "must have at least one node selector term")]
    errs: ErrorList = []
    for i, term in enumerate(terms):
        errs += validate_node_selector_term(term, terms_path.index(i), release=release)
    return errs


def validate_node_selector_term(
    term: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """`ValidateNodeSelectorTerm`: every matchExpressions entry, then every matchFields entry."""
    fields = mapping(term)
    errs: ErrorList = []
    expressions_path = path.child("matchExpressions")
    for j, requirement in enumerate(sequence(fields.get("matchExpressions"))):
        errs += validate_node_selector_requirement(requirement, expressions_path.index(j), release=release)
    match_fields_path = path.child("matchFields")
    for j, requirement in enumerate(sequence(fields.get("matchFields"))):
        errs += validate_node_field_selector_requirement(requirement, match_fields_path.index(j))
    return errs


def validate_node_selector_requirement(
    requirement: Any, path: FieldPath, *, release: Release = KUBERNETES_1_30
) -> ErrorList:
    """`ValidateNodeSelectorRequirement` (a label requirement); with
    `Release.node_selector_label_values` the values must be label values
    (`allowInvalidLabelValueInRequiredNodeAffinity` false)."""
    fields = mapping(requirement)
    operator, values = text(fields.get("operator")), sequence(fields.get("values"))
    errs: ErrorList = []
    match operator:
        case "In" | "NotIn":
            if not values:
                errs.append(
                    required(path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'")
                )
        case "Exists" | "DoesNotExist":
            if values:
                errs.append(
                    forbidden(
                        path.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    )
                )
        case "Gt" | "Lt":
            if len(values) != 1:
                errs.append(
                    required(
                        path.child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"
                    )
                )
        case _:
            errs.append(invalid(path.child("operator"), operator, "not a valid selector operator"))
    # metav1 ValidateLabelName; the values are not checked in 1.30.
    key = text(fields.get("key"))
    errs += [invalid(path.child("key"), key, msg) for msg in is_qualified_name(key, release=release)]
    if release.node_selector_label_values:
        values_path = path.child("values")
        for k, value in enumerate(values):
            shown = text(value)
            errs += [
                invalid(values_path.index(k), shown, msg)
                for msg in is_valid_label_value(shown, release=release)
            ]
    return errs


def validate_node_field_selector_requirement(requirement: Any, path: FieldPath) -> ErrorList:
    """`ValidateNodeFieldSelectorRequirement` (a field requirement)."""
    fields = mapping(requirement)
    operator, values = text(fields.get("operator")), [text(value) for value in sequence(fields.get("values"))]
    errs: ErrorList = []
    if operator in _FIELD_OPERATORS:
        if len(values) != 1:
            errs.append(
                required(
                    path.child("values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                )
            )
    else:
        errs.append(invalid(path.child("operator"), operator, "not a valid selector operator"))
    key = text(fields.get("key"))
    if key != NODE_NAME_FIELD:
        errs.append(invalid(path.child("key"), key, "not a valid field selector key"))
    else:
        # ValidateNodeName is NameIsDNSSubdomain(value, false).
        values_path = path.child("values")
        for k, value in enumerate(values):
            errs += [invalid(values_path.index(k), value, msg) for msg in is_dns1123_subdomain(value)]
    return errs
