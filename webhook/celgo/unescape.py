"""CEL string and bytes literals unescaped as cel-go's `parser/unescape.go` does, with its error
message."""

from __future__ import annotations

_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_ESCAPES.update({c: c for c in "\\'\"`?"})


def unescape(value: str, *, is_bytes: bool, valid_runes_only: bool = False) -> str | bytes:
    """cel-go's `unescape` (parser/unescape.go); raises ValueError with cel-go's message.

    `valid_runes_only`: cel-go v0.27 (Kubernetes 1.37) rejects a ``\\u`` or ``\\U`` escape of a
    surrogate half or of a number past U+10FFFF in a string with ``invalid unicode code point``
    (`!utf8.ValidRune(v)`, parser/unescape.go line 184); cel-go v0.17-v0.20 writes U+FFFD for a
    surrogate half and rejects only the latter, with ``unable to unescape string``.
    """
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    if len(value) < 2:
        raise ValueError("unable to unescape string")
    raw = value[0] in "rR"
    if raw:
        value = value[1:]
    n = len(value)
    if value[0] != value[n - 1] or value[0] not in "\"'":
        raise ValueError("unable to unescape string")
    if n >= 6 and (value.startswith("'''") or value.startswith('"""')):
        if not value.endswith(value[:3]):
            raise ValueError("unable to unescape string")
        value = '"' + value[3 : n - 3] + '"'
        n = len(value)
    value = value[1 : n - 1]
    if raw or "\\" not in value:
        return value.encode() if is_bytes else value
    out = bytearray()
    i = 0
    while i < len(value):
        char = value[i]
        if char != "\\":
            out += char.encode()
            i += 1
            continue
        if i + 1 >= len(value):
            raise ValueError("unable to unescape string")
        code = value[i + 1]
        i += 2
        if code in _ESCAPES:
            out += _ESCAPES[code].encode()
        elif code in "xX":
            digits = value[i : i + 2]
            i += 2
            number = int(digits, 16)
            out += bytes([number]) if is_bytes else chr(number).encode()
        elif code in "uU":
            if is_bytes:
                raise ValueError("unable to unescape string")
            width = 4 if code == "u" else 8
            number = int(value[i : i + width], 16)
            i += width
            if valid_runes_only and (number > 0x10FFFF or 0xD800 <= number <= 0xDFFF):
                raise ValueError("invalid unicode code point")
            if number > 0x10FFFF:
                raise ValueError("unable to unescape string")
            # Go's utf8.EncodeRune writes U+FFFD for a surrogate half.
            out += ("\ufffd" if 0xD800 <= number <= 0xDFFF else chr(number)).encode()
        elif code in "0123":
            number = int(value[i - 1 : i + 2], 8)
            i += 2
            out += bytes([number]) if is_bytes else chr(number).encode()
        else:
            raise ValueError("unable to unescape string")
    return bytes(out) if is_bytes else out.decode("utf-8", errors="replace")
