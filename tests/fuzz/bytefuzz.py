"""A byte-level mutator of request bodies, in the manner of AFL's havoc stage, with JSON-aware moves.

Structured fuzzing (hypothesis, `hostile.py`) only ever produces valid JSON. Real bodies can be
anything: truncated, spliced, with invalid UTF-8, stray quotes or a second document behind the
first. `mutate` takes a body from the corpus and applies a few random edits, some blind (flip a bit,
delete a range, duplicate a range), some aimed at JSON (put a hostile token where a value starts,
splice a value from another body) so that a good share of the results still parse and reach the
rules. Everything is driven by a seeded `random.Random`: a failure is replayed from its seed.
"""

from __future__ import annotations

import random

import orjson

from tests.fuzz.hostile import DEEP_NESTING, LONG_STRING_CHARS
from tests.fuzz.seeds import admission_review, seed, seed_reviews

# Tokens that start a JSON value (or pretend to): the edges of every JSON decoder.
HOSTILE_TOKENS: tuple[bytes, ...] = (
    b"null",
    b"true",
    b"false",
    b"0",
    b"-0",
    b"-0.0",
    b"1e400",
    b"-1e400",
    b"1e-400",
    b"9223372036854775807",
    b"9223372036854775808",
    b"-9223372036854775809",
    b"18446744073709551615",
    b"18446744073709551616",
    b"123456789012345678901234567890123456789",
    b"1.7976931348623157e309",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"01",
    b".5",
    b"1.",
    b"0x10",
    b'""',
    b'"\\u0000"',
    b'"\\ud800"',
    b'"\\udc00\\ud800"',
    b'"\\ud83d\\ude00"',
    b'"\xff\xfe"',
    b'"\xc3\x28"',
    b'"\xed\xa0\x80"',  # a surrogate encoded as UTF-8: invalid
    b'"\xf4\x90\x80\x80"',  # past U+10FFFF
    b'"\xc0\xaf"',  # overlong '/'
    b'"' + b"a" * LONG_STRING_CHARS + b'"',
    b'"' + "é".encode() * LONG_STRING_CHARS + b'"',
    b"[]",
    b"{}",
    b"[null]",
    b'{"":null}',
    b"[" * 64 + b"]" * 64,
    b"[" * DEEP_NESTING + b"]" * DEEP_NESTING,
    b"[" * 1100 + b"]" * 1100,  # past orjson's depth limit
    b'{"a":' * 1100 + b"1" + b"}" * 1100,
    b"[" + b"0," * 50_000 + b"0]",
    b"\xef\xbb\xbf",  # a byte-order mark
    b"/* comment */",
    b"\x00",
    b" \t\r\n",
)
STRUCTURE_BYTES = b'{}[]:,"\\ \x00\xff'


def corpus() -> list[bytes]:
    """Bodies to mutate: every seed review, and hand-made hostile ones that are valid JSON."""
    bodies = [orjson.dumps(review) for review in seed_reviews()]
    claim = seed("ResourceClaim")
    claim["status"]["reservedFor"] = [
        {"resource": "pods", "name": f"pod-{i}", "uid": f"uid-{i}"} for i in range(20_000)
    ]
    bodies.append(orjson.dumps(admission_review(claim, kind="ResourceClaim", uid="huge-array")))
    long_everything = seed("ResourceSlice")
    long_everything["metadata"]["labels"] = {"k" * 300: "v" * LONG_STRING_CHARS}
    long_everything["metadata"]["annotations"] = {f"a{i}": "x" * LONG_STRING_CHARS for i in range(20)}
    long_everything["nodeName"] = "n" * LONG_STRING_CHARS
    bodies.append(orjson.dumps(admission_review(long_everything, kind="ResourceSlice", uid="long-strings")))
    # Duplicate keys: JSON decoders keep the last; Go's too.
    bodies.append(
        orjson.dumps(admission_review(seed("ResourceClass"), kind="ResourceClass", uid="first")).replace(
            b'"uid":"first"', b'"uid":"first","uid":"second"'
        )
    )
    return bodies


def _blind_edit(data: bytearray, rng: random.Random) -> None:
    size = len(data)
    choice = rng.randrange(6)
    if choice == 0 and size:  # flip one bit
        position = rng.randrange(size)
        data[position] ^= 1 << rng.randrange(8)
    elif choice == 1 and size:  # one structural byte
        data[rng.randrange(size)] = rng.choice(STRUCTURE_BYTES)
    elif choice == 2 and size:  # delete a range
        start = rng.randrange(size)
        del data[start : start + rng.randrange(1, 64)]
    elif choice == 3 and size:  # duplicate a range
        start = rng.randrange(size)
        chunk = data[start : start + rng.randrange(1, 256)]
        position = rng.randrange(size)
        data[position:position] = chunk
    elif choice == 4 and size:  # truncate
        del data[rng.randrange(size) :]
    else:  # random bytes
        position = rng.randrange(size + 1)
        data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))


# Large bodies are edited within a window of this many bytes (scanning megabytes per edit is slow).
EDIT_WINDOW_BYTES = 64 * 1024


def _value_starts(data: bytearray, window: int) -> list[int]:
    """Offsets right after a ':' '[' or ',' outside strings, from `window` on for EDIT_WINDOW_BYTES
    (roughly: escapes are honoured; a window may start inside a string)."""
    starts, in_string, escaped = [], False, False
    for offset in range(window, min(len(data), window + EDIT_WINDOW_BYTES)):
        byte = data[offset]
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in b":[,":
            starts.append(offset + 1)
    return starts


def _value_end(data: bytearray, start: int) -> int:
    """The end of the JSON value starting at `start` (best effort: balanced brackets, strings)."""
    depth, in_string, escaped = 0, False, False
    for offset in range(start, min(len(data), start + EDIT_WINDOW_BYTES)):
        byte = data[offset]
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
                if depth == 0:
                    return offset + 1
        elif byte == 0x22:
            in_string = True
        elif byte in b"[{":
            depth += 1
        elif byte in b"]}":
            if depth == 0:
                return offset
            depth -= 1
            if depth == 0:
                return offset + 1
        elif byte == 0x2C and depth == 0:
            return offset
    return min(len(data), start + EDIT_WINDOW_BYTES)


def _json_edit(data: bytearray, rng: random.Random, bodies: list[bytes]) -> None:
    starts = _value_starts(data, rng.randrange(max(1, len(data) - EDIT_WINDOW_BYTES)))
    if not starts:
        _blind_edit(data, rng)
        return
    start = rng.choice(starts)
    end = _value_end(data, start)
    if rng.random() < 0.7:
        replacement = rng.choice(HOSTILE_TOKENS)
    else:  # a value spliced from another body
        other = bytearray(rng.choice(bodies))
        other_starts = _value_starts(other, rng.randrange(max(1, len(other) - EDIT_WINDOW_BYTES)))
        if not other_starts:
            return
        other_start = rng.choice(other_starts)
        replacement = bytes(other[other_start : _value_end(other, other_start)])
    data[start:end] = replacement


def mutate(body: bytes, rng: random.Random, bodies: list[bytes]) -> bytes:
    """`body` after a few edits: mostly one or two aimed at JSON values (so that many results still
    parse and reach the rules), sometimes a burst of blind ones."""
    data = bytearray(body)
    edits = rng.choice((1, 1, 1, 2, 2, 3, 8))
    blind_share = 0.5 if edits > 3 else 0.1
    for _ in range(edits):
        if rng.random() < blind_share:
            _blind_edit(data, rng)
        else:
            _json_edit(data, rng, bodies)
    return bytes(data)


def mutated_bodies(count: int, seed_value: int) -> list[bytes]:
    """`count` mutated bodies, the same for the same seed."""
    rng = random.Random(seed_value)
    bodies = corpus()
    return [mutate(rng.choice(bodies), rng, bodies) for _ in range(count)]
