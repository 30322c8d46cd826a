"""`validation.IsValidInterfaceAddress` (apimachinery `pkg/util/validation/ip.go`, 1.37): an IP
address with a prefix length ("10.9.8.7/24"), parsed as `netutils.ParseCIDRSloppy` parses it (IPv4
octets may have leading zeros), and written in its canonical form.
"""

from __future__ import annotations

import ipaddress
from typing import Final

from webhook.field import ErrorList, FieldPath, invalid

NOT_CIDR_MSG: Final = "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)"
_BIG: Final = 0xFFFFFF


def validate_interface_address(value: str, path: FieldPath) -> ErrorList:
    """`IsValidInterfaceAddress`."""
    parsed = parse_cidr_sloppy(value)
    if parsed is None:
        return [invalid(path, value, NOT_CIDR_MSG)]
    canonical = canonical_interface_address(*parsed)
    if value != canonical:
        return [invalid(path, value, f'must be in canonical form ("{canonical}")')]
    return []


def parse_cidr_sloppy(value: str) -> tuple[bytes, int] | None:
    """`ParseCIDRSloppy`: the 16-byte address (IPv4 as IPv4-mapped) and the prefix length in bits of
    the address as written (32 for a dotted IPv4 address, 128 for IPv6), or None."""
    address, slash, mask = value.partition("/")
    if not slash:
        return None
    ipv4 = _parse_ipv4(address)
    if ipv4 is not None:
        ip, bits = b"\x00" * 10 + b"\xff\xff" + ipv4, 32
    else:
        ipv6 = _parse_ipv6(address)
        if ipv6 is None:
            return None
        ip, bits = ipv6, 128
    size = _decimal(mask)
    if size is None or size > bits:
        return None
    if bits == 32:
        size += 96  # the mask of an IPv4 address is kept in 16-byte form
    return ip, size


def canonical_interface_address(ip: bytes, mask_bits: int) -> str:
    """`fmt.Sprintf("%s/%d", ip.String(), maskSize)`, with an IPv4 address (IPv4-mapped ones too)
    printed dotted and its 16-byte mask size brought back to 32 bits."""
    if ip[:12] == b"\x00" * 10 + b"\xff\xff":
        size = mask_bits - 96 if mask_bits > 32 else mask_bits
        return f"{ipaddress.IPv4Address(ip[12:])}/{size}"
    return f"{ipaddress.IPv6Address(ip).compressed}/{mask_bits}"


def _decimal(text: str) -> int | None:
    """Go's `dtoi`: decimal digits, leading zeros allowed, all of the text."""
    if not text or not all("0" <= char <= "9" for char in text):
        return None
    number = 0
    for char in text:
        number = number * 10 + ord(char) - 48
        if number >= _BIG:
            return None
    return number


def _parse_ipv4(text: str) -> bytes | None:
    """The sloppy IPv4 parser: four decimal fields of at most 255, leading zeros allowed."""
    fields = text.split(".")
    if len(fields) != 4:
        return None
    octets = []
    for field in fields:
        number = _decimal(field)
        if number is None or number > 0xFF:
            return None
        octets.append(number)
    return bytes(octets)


def _parse_ipv6(text: str) -> bytes | None:
    """Go's `parseIPv6`: hex groups of at most 0xFFFF, one "::", an embedded (sloppy) IPv4 address
    as the last 32 bits."""
    if not text:
        return None
    head, double, tail = text.partition("::")
    if "::" in tail:
        return None
    left = _parse_groups(head, allow_ipv4=not double)
    right = _parse_groups(tail, allow_ipv4=True) if double else []
    if left is None or right is None:
        return None
    groups = len(left) + len(right)
    if double:
        if groups > 7:
            return None
        left = left + [0] * (8 - groups)
    elif groups != 8:
        return None
    return b"".join(group.to_bytes(2, "big") for group in left + right)


def _parse_groups(text: str, *, allow_ipv4: bool) -> list[int] | None:
    if not text:
        return []
    parts = text.split(":")
    groups: list[int] = []
    for i, part in enumerate(parts):
        if "." in part:
            ipv4 = _parse_ipv4(part) if allow_ipv4 and i == len(parts) - 1 else None
            if ipv4 is None:
                return None
            groups += [ipv4[0] << 8 | ipv4[1], ipv4[2] << 8 | ipv4[3]]
            continue
        if not part or any(char not in "0123456789abcdefABCDEF" for char in part):
            return None
        number = int(part, 16)
        if number > 0xFFFF:
            return None
        groups.append(number)
    return groups
