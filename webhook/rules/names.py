"""Name checks of apimachinery 1.30 (`k8s.io/apimachinery/pkg/util/validation`) with their exact texts.

The `is_*` functions return the list of messages Go returns (empty when valid); the `validate_*`
functions turn them into field errors at a path, as the API server's validators do.
"""

from __future__ import annotations

import re
from typing import Final

from webhook.field import ErrorList, FieldError, FieldPath, invalid, required, too_long, too_long_bytes
from webhook.release import KUBERNETES_1_30, Release

DNS1123_LABEL_MAX_LENGTH: Final = 63
DNS1123_SUBDOMAIN_MAX_LENGTH: Final = 253
QUALIFIED_NAME_MAX_LENGTH: Final = 63
LABEL_VALUE_MAX_LENGTH: Final = 63
# ValidateCSIDriverName: a driver name is at most 63 bytes, checked before the DNS rules.
CSI_DRIVER_NAME_MAX_LENGTH: Final = 63

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + r"(\." + _DNS1123_LABEL_FMT + ")*"
_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE_FMT = "(" + _QUALIFIED_NAME_FMT + ")?"

_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_QUALIFIED_NAME_RE = re.compile(_QUALIFIED_NAME_FMT)
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)

DNS1123_LABEL_MSG: Final = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
    "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
    "validation is '" + _DNS1123_LABEL_FMT + "')"
)
DNS1123_SUBDOMAIN_MSG: Final = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '" + _DNS1123_SUBDOMAIN_FMT + "')"
)
QUALIFIED_NAME_MSG: Final = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation "
    "is '" + _QUALIFIED_NAME_FMT + "')"
)
LABEL_VALUE_MSG: Final = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
    "'12345', regex used for validation is '" + _LABEL_VALUE_FMT + "')"
)
EMPTY_MSG: Final = "must be non-empty"


def max_len_msg(length: int, *, unit: str = "characters") -> str:
    """`MaxLenError`: `util/validation` counts "characters"; apimachinery's `validate/content`
    (the label checks from 1.35 on, declarative validation) counts "bytes"."""
    return f"must be no more than {length} {unit}"


def _content_unit(release: Release) -> str:
    return "bytes" if release.content_label_checks else "characters"


def go_to_lower(value: str) -> str:
    """`strings.ToLower`: Unicode *simple* case mapping, one rune for one rune.

    Python's `str.lower` uses the full mapping, which differs for one letter only: U+0130 (capital I
    with dot above) becomes "i" in Go but "i" plus a combining dot in Python. Lower-casing rune by
    rune also keeps Python's final-sigma rule out, which Go does not have.
    """
    if value.isascii():
        return value.lower()
    return "".join("i" if char == "\u0130" else char.lower() for char in value)


def byte_length(value: str) -> int:
    """Length of the Go string, which counts UTF-8 bytes, not characters."""
    if value.isascii():  # one byte per character: no need to encode
        return len(value)
    return len(value.encode("utf-8", "surrogatepass"))


# Fast paths. Every name regex above spells its character classes as ASCII ranges, so a string that
# matches one is ASCII and its length in characters is its length in bytes: a match within the
# length limit is a valid value, decided without building any list. Only invalid values take the
# slow path that collects Go's messages. The fast tests below do not call the regexes: they scan the
# text code point by code point (`ord(value[i])` compiles to a direct read of the string's buffer),
# which costs a fraction of a regex call; each scanner says which regex it is equivalent to.

_DASH: Final = 45  # '-'
_DOT: Final = 46  # '.'
_UNDERSCORE: Final = 95  # '_'


def _is_alnum(code: int) -> bool:
    """[A-Za-z0-9]"""
    return 97 <= code <= 122 or 48 <= code <= 57 or 65 <= code <= 90


def _is_subdomain_text(value: str, start: int, end: int, upper_case: bool) -> bool:
    """Whether `value[start:end]` fully matches `_DNS1123_SUBDOMAIN_FMT` (with A-Z among the
    letters when `upper_case`); lengths are the caller's. Labels of [-a-z0-9] joined by '.', each
    starting and ending with [a-z0-9]: a '-' never starts a label, a '.' only follows [a-z0-9], and
    the text ends with [a-z0-9]."""
    if start >= end:
        return False
    after_alnum = False  # the previous character is [a-z0-9]
    label_start = True  # at the start of the text or just after a '.'
    for i in range(start, end):
        code = ord(value[i])
        if 97 <= code <= 122 or 48 <= code <= 57 or (upper_case and 65 <= code <= 90):  # [a-z0-9]
            after_alnum = True
            label_start = False
        elif code == _DASH:
            if label_start:
                return False
            after_alnum = False
        elif code == _DOT:
            if not after_alnum:
                return False
            after_alnum = False
            label_start = True
        else:
            return False
    return after_alnum


def _is_name_part(value: str, start: int, end: int) -> bool:
    """Whether `value[start:end]` fully matches `_QUALIFIED_NAME_FMT`
    (`([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`); lengths are the caller's."""
    if start >= end or not _is_alnum(ord(value[start])) or not _is_alnum(ord(value[end - 1])):
        return False
    for i in range(start + 1, end - 1):
        code = ord(value[i])
        is_alnum = 97 <= code <= 122 or 48 <= code <= 57 or 65 <= code <= 90  # [A-Za-z0-9]
        if not (is_alnum or code in (_DASH, _DOT, _UNDERSCORE)):
            return False
    return True


def _is_qualified_name_text(value: str, upper_case_prefix: bool) -> bool:
    """Whether `IsQualifiedName(value)` returns no message (an optional subdomain prefix of at most
    253 characters and '/', then a name part of at most 63), with A-Z allowed in the prefix when
    `upper_case_prefix` (the check of a lower-cased ASCII key)."""
    length = len(value)
    slash = value.find("/")
    if slash < 0:
        return length <= QUALIFIED_NAME_MAX_LENGTH and _is_name_part(value, 0, length)
    return (
        slash <= DNS1123_SUBDOMAIN_MAX_LENGTH
        and length - slash - 1 <= QUALIFIED_NAME_MAX_LENGTH
        and _is_subdomain_text(value, 0, slash, upper_case_prefix)
        and _is_name_part(value, slash + 1, length)  # a second '/' fails here
    )


def is_valid_dns1123_subdomain(value: str) -> bool:
    """Whether `IsDNS1123Subdomain(value)` returns no message."""
    length = len(value)
    return length <= DNS1123_SUBDOMAIN_MAX_LENGTH and _is_subdomain_text(value, 0, length, False)


def csi_driver_name_as_subdomain(name: str) -> str | None:
    """The text that must be a DNS subdomain for `validate_csi_driver_name(name)` to find nothing when
    the name is ASCII of at most 63 characters: the name lower-cased (Go's `strings.ToLower` changes
    only A-Z in ASCII text). None for any other name, which the exact check judges (a non-ASCII name
    may still pass: Go lower-cases U+0130 to "i")."""
    if not name.isascii() or len(name) > CSI_DRIVER_NAME_MAX_LENGTH:
        return None
    return name.lower()


def is_valid_qualified_name(value: str) -> bool:
    """Whether `IsQualifiedName(value)` returns no message."""
    return _is_qualified_name_text(value, False)


def is_valid_annotation_key(key: str) -> bool:
    """Whether `IsQualifiedName(strings.ToLower(key))` returns no message (`ValidateAnnotations`).
    Lower-casing ASCII text changes only A-Z, which the name part allows anyway: an ASCII key
    passes exactly when it is a qualified name with upper case allowed in its prefix."""
    if _is_qualified_name_text(key, True):
        return True
    return not key.isascii() and not is_qualified_name(go_to_lower(key))  # U+212A KELVIN SIGN is "k"


def _is_label_value_text(value: str) -> bool:
    """Whether `IsValidLabelValue(value)` returns no message: empty, or a name part of at most 63."""
    length = len(value)
    return length == 0 or (length <= LABEL_VALUE_MAX_LENGTH and _is_name_part(value, 0, length))


def is_valid_label(key: str, value: str) -> bool:
    """Whether `ValidateLabels` finds nothing wrong with the entry `key: value`."""
    return _is_label_value_text(value) and _is_qualified_name_text(key, False)


def is_dns1123_label(value: str) -> list[str]:
    """`util/validation.IsDNS1123Label` (the length in characters)."""
    return _is_dns1123_label(value, "characters")


def is_dns1123_label_content(value: str) -> list[str]:
    """`validate/content.IsDNS1123Label` (apimachinery 0.34+, `validate.ShortName`): the length in
    bytes."""
    return _is_dns1123_label(value, "bytes")


def _is_dns1123_label(value: str, unit: str) -> list[str]:
    length = len(value)
    # A label is a subdomain without a dot.
    if (
        length <= DNS1123_LABEL_MAX_LENGTH
        and "." not in value
        and _is_subdomain_text(value, 0, length, False)
    ):
        return []
    errs = []
    if byte_length(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_msg(DNS1123_LABEL_MAX_LENGTH, unit=unit))
    if not _DNS1123_LABEL_RE.fullmatch(value):
        # From 1.27 on, a value that is a valid subdomain fails only because of its dots.
        if _DNS1123_SUBDOMAIN_RE.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(DNS1123_LABEL_MSG)
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """`util/validation.IsDNS1123Subdomain` (lengths in characters in every release)."""
    return _is_dns1123_subdomain(value, "characters")


def is_dns1123_subdomain_content(value: str) -> list[str]:
    """`validate/content.IsDNS1123Subdomain` (apimachinery 0.34+): the length in bytes."""
    return _is_dns1123_subdomain(value, "bytes")


def _is_dns1123_subdomain(value: str, unit: str) -> list[str]:
    if is_valid_dns1123_subdomain(value):
        return []
    errs = []
    if byte_length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_msg(DNS1123_SUBDOMAIN_MAX_LENGTH, unit=unit))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(DNS1123_SUBDOMAIN_MSG)
    return errs


def is_qualified_name(value: str, *, release: Release = KUBERNETES_1_30) -> list[str]:
    """`IsQualifiedName`; from 1.35 on `content.IsLabelKey`, which words two of its messages
    differently (see `Release.content_label_checks`) and accepts the same names."""
    if _is_qualified_name_text(value, False):
        return []
    unit = _content_unit(release)
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
        errs: list[str] = []
    elif len(parts) == 2:
        prefix, name = parts
        errs = []
        if not prefix:
            errs.append("prefix part " + EMPTY_MSG)
        else:
            errs.extend("prefix part " + msg for msg in _is_dns1123_subdomain(prefix, unit))
    else:
        intro = "a valid label key " if release.content_label_checks else "a qualified name "
        return [
            intro
            + QUALIFIED_NAME_MSG
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if len(name) <= QUALIFIED_NAME_MAX_LENGTH and _is_name_part(name, 0, len(name)):
        return errs  # the name part is valid (see the fast paths above); errs holds the prefix's
    if not name:
        errs.append("name part " + EMPTY_MSG)
    elif byte_length(name) > QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_msg(QUALIFIED_NAME_MAX_LENGTH, unit=unit))
    if not _QUALIFIED_NAME_RE.fullmatch(name):
        errs.append("name part " + QUALIFIED_NAME_MSG)
    return errs


def is_valid_label_value(value: str, *, release: Release = KUBERNETES_1_30) -> list[str]:
    """`IsValidLabelValue`; from 1.35 on `content.IsLabelValue` (the length in bytes)."""
    if _is_label_value_text(value):
        return []
    errs = []
    if byte_length(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_msg(LABEL_VALUE_MAX_LENGTH, unit=_content_unit(release)))
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(LABEL_VALUE_MSG)
    return errs


def path_segment_name(name: str, prefix: bool) -> list[str]:
    """`content.IsPathSegmentName` (`IsPathSegmentPrefix` for a generateName): the name function the
    REST layer checks every name with on update (`rest.validatePathSegment`, apiserver 0.37)."""
    if not prefix and name in (".", ".."):
        return [f"may not be '{name}'"]
    return [f"may not contain '{part}'" for part in ("/", "%") if part in name]


def mask_trailing_dash(name: str) -> str:
    """apimachinery's `maskTrailingDash`: generateName may end in '-'; Go replaces the last two
    *bytes* by one 'a' (so one byte is dropped), and so do we.

    When the dropped byte belongs to a multi-byte character, Go is left with a stray byte that fails
    every name regex; it is kept here as a surrogate escape, which fails them too.
    """
    encoded = name.encode("utf-8", "surrogatepass")
    if len(encoded) > 1 and encoded.endswith(b"-"):
        return (encoded[:-2] + b"a").decode("utf-8", "surrogateescape")
    return name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """`NameIsDNSSubdomain`, the name check of every kind in resource.k8s.io."""
    if prefix:
        name = mask_trailing_dash(name)
    return is_dns1123_subdomain(name)


def validate_dns_subdomain(value: str, path: FieldPath) -> ErrorList:
    """Each subdomain message as its own Invalid error (node names, class names, ...)."""
    if is_valid_dns1123_subdomain(value):
        return []
    return [invalid(path, value, msg) for msg in is_dns1123_subdomain(value)]


def validate_dns_label(value: str, path: FieldPath) -> ErrorList:
    return [invalid(path, value, msg) for msg in is_dns1123_label(value)]


def validate_node_name(value: str, path: FieldPath) -> ErrorList:
    """`validateNodeName`: a node name is a DNS subdomain."""
    return validate_dns_subdomain(value, path)


def validate_csi_driver_name(value: str, path: FieldPath, *, release: Release = KUBERNETES_1_30) -> ErrorList:
    """`ValidateCSIDriverName`, used for every driver name in resource.k8s.io.

    Empty gives Required *and* Invalid (the empty string also fails the regex); Go lower-cases the
    driver name before the DNS check, so upper-case letters pass.
    """
    subdomain = csi_driver_name_as_subdomain(value)
    if subdomain is not None and is_valid_dns1123_subdomain(subdomain):
        return []
    errs: ErrorList = []
    if not value:
        errs.append(required(path, ""))
    if byte_length(value) > CSI_DRIVER_NAME_MAX_LENGTH:
        errs.append(release_too_long(path, value, CSI_DRIVER_NAME_MAX_LENGTH, release=release))
    errs.extend(invalid(path, value, msg) for msg in is_dns1123_subdomain(go_to_lower(value)))
    return errs


def release_too_long(path: FieldPath, value: str, max_length: int, *, release: Release) -> FieldError:
    """`field.TooLong` as the release words it (`Release.too_long_may_not_be_more`)."""
    if release.too_long_may_not_be_more:
        return too_long_bytes(path, max_length)
    return too_long(path, value, max_length)
