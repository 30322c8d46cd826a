"""What the rule tests expect: errors as `(type, field, str(err))` rows (or `(wire reason, str(err))`
reason rows), and apimachinery's validation messages verbatim, as the API server prints them.

The messages are written out here rather than imported from `webhook.rules`, so that a changed
message in the rules fails the tests instead of changing what they expect.
"""

from __future__ import annotations

from typing import Final

from webhook.field import ErrorType, FieldError

Row = tuple[ErrorType, str, str]


def rendered(errs: list[FieldError]) -> list[Row]:
    return [(err.type, err.field, str(err)) for err in errs]


ReasonRow = tuple[str, str]  # (cause reason on the wire, str(err) = "<field>: <body>")


def rendered_reasons(errs: list[FieldError]) -> list[ReasonRow]:
    return [(err.type.value, str(err)) for err in errs]


# A value every name check refuses, and a label value with spaces (the Go tests' badName/badValue).
BAD: Final = "!@#$%^"
BAD_VALUE: Final = "spaces not allowed"

SUBDOMAIN_MSG: Final = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_MSG: Final = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
LABEL_VALUE_MSG: Final = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
    "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
NAME_PART_MSG: Final = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
QUALIFIED_WITH_PREFIX_MSG: Final = (
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix "
    "and '/' (e.g. 'example.com/MyName')"
)
MODEL_REQUIRED_MSG: Final = "exactly one structured model field must be set"
ALLOCATION_MODES_MSG: Final = 'supported values: "Immediate", "WaitForFirstConsumer"'
