"""Lists of DNS subdomains (node names, allocated instance names, driver names) judged in one pass.

The kinds' fast paths gather every name of an object that must be a subdomain and ask once, with a
few C scans of the names joined by '.', instead of one regex match per name. A "valid" here always
agrees with `webhook.rules.names` (`is_valid_dns1123_subdomain`, `validate_csi_driver_name`); any
other answer sends the caller to those exact checks, which say why.
"""

from __future__ import annotations

from typing import Final

from webhook.rules.names import CSI_DRIVER_NAME_MAX_LENGTH

__all__ = ["are_dns1123_subdomains", "csi_driver_name_as_subdomain", "is_valid_csi_driver_name"]

# Each byte as its class in a subdomain: a letter or a digit reads "a", a separator ('-' or '.') ".",
# anything else NUL. One C pass of `bytes.translate` then leaves two byte scans: a NUL (memchr) and
# two separators in a row, the one case of two-byte search left.
_NAME_CHAR: Final = ord("a")
_SEPARATOR: Final = ord(".")


def _byte_class(byte: int) -> int:
    char = chr(byte)
    if char in "0123456789abcdefghijklmnopqrstuvwxyz":
        return _NAME_CHAR
    return _SEPARATOR if char in "-." else 0


_BYTE_CLASSES: Final = bytes(_byte_class(byte) for byte in range(256))


def are_dns1123_subdomains(values: list[str]) -> bool:
    """Whether every value is a DNS subdomain (`is_valid_dns1123_subdomain`), given strings of at most
    253 characters (the caller checks both: the length limit is per value).

    The values joined by '.' form a subdomain (ASCII lower-case letters, digits, '-' and '.'; no
    label empty or starting or ending with '-') exactly when every value is one: each value starts
    at the start or just after a '.' and ends at the end or just before one, so it is not empty,
    starts and ends with a letter or a digit, and holds no '.' next to a '.' or a '-'."""
    if not values:
        return True
    joined = ".".join(values)
    if not joined or not joined.isascii():
        return False
    classes = joined.encode("ascii").translate(_BYTE_CLASSES)
    if b"\0" in classes or classes[0] == _SEPARATOR or classes[-1] == _SEPARATOR:
        return False
    if b".." not in classes:  # no two separators in a row: no "..", ".-" or "-."
        return True
    # Two separators in a row; all is well only if each pair is "--" (as in "xn--" names).
    return not (".." in joined or ".-" in joined or "-." in joined)


def csi_driver_name_as_subdomain(name: str) -> str | None:
    """The text that must be a DNS subdomain for `validate_csi_driver_name(name)` to find nothing when
    the name is ASCII of at most 63 characters: the name lower-cased (Go's `strings.ToLower` changes
    only A-Z in ASCII text). None for any other name, which the exact check judges (a non-ASCII name
    may still pass: Go lower-cases U+0130 to "i")."""
    if not name.isascii() or len(name) > CSI_DRIVER_NAME_MAX_LENGTH:
        return None
    return name.lower()


def is_valid_csi_driver_name(name: str) -> bool:
    """True only when `validate_csi_driver_name(name)` finds nothing; exactly that for ASCII names,
    False for every other name (the exact check decides those)."""
    subdomain = csi_driver_name_as_subdomain(name)
    return subdomain is not None and are_dns1123_subdomains([subdomain])
