"""Hostile values and mutations of JSON documents, as hypothesis strategies and as plain functions.

The values are the ones that break parsers and validators in practice: 16 KiB strings (the longest
single values kube-apiserver lets through are annotations, up to 256 KiB in total), multi-byte and
invalid Unicode, control characters, integers past int64 and uint64, floats past float64, `null`
where anything else belongs, huge arrays, deep nesting, and types swapped for one another.

A mutation picks a place in a document (any object member or array element, however deep) and
replaces it, deletes it, adds a sibling, or buries it under levels of nesting. Drawing the place
with hypothesis keeps failing examples small: the shrinker walks back to the first mutation that
matters and to the simplest hostile value that still fails.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

# Sizes of the "huge" values: large enough to pass every length limit of the rules (the longest is
# 253 bytes for a DNS subdomain, 63 for a label, 10 KiB for a CEL selector of a stored object), small
# enough that hundreds of examples run in seconds.
LONG_STRING_CHARS = 16 * 1024
HUGE_ARRAY_ITEMS = 10_000
# Deeper than the recursion any rule could follow, shallower than orjson's own depth limit (1024).
DEEP_NESTING = 900

INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

Path = tuple[str | int, ...]

HOSTILE_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "a" * LONG_STRING_CHARS,
    "é" * LONG_STRING_CHARS,  # 2 bytes each: 32 KiB of UTF-8
    "😀" * (LONG_STRING_CHARS // 4),  # outside the BMP: a surrogate pair in UTF-16
    "a." * (LONG_STRING_CHARS // 2),
    "x" * 64,  # one past a DNS label
    "x" * 254,  # one past a DNS subdomain
    "\x00",
    "nul\x00inside",
    "\t\r\n\x1b[31mred\x7f",
    "\u202eevil\u202c",  # right-to-left override
    "\ufeffbom",
    "\ufffd",
    "İ",  # upper case whose lower case is longer
    "K",  # Kelvin sign: lower-cases to ASCII k
    "ǅ",  # title case
    "\uff21\uff22\uff23",  # full-width ABC
    "-",
    "a-",
    ".",
    "..",
    "/",
    "a/b/c",
    "example.com/",
    "/name",
    "UPPER",
    "null",
    "true",
    "0",
    "1e400",
    "-9223372036854775809",
    "NaN",
    "%s%n%x",
    "{{.}}",
    "${jndi:ldap://127.0.0.1/x}",
    "'; DROP TABLE claims; --",
    "<script>alert(1)</script>",
    '"quoted"',
    "\\",
    "\\u0000",
    "ResourceClaim",
    "status",
    "(" * 300 + "true" + ")" * 300,  # CEL nesting past cel-go's recursion limit
    "[" * 300,
    "a" + " || a" * 3000,  # a long CEL expression
    'attributes.string["x"].matches("(a+)+$")',
    "1/0 == 1",
    "attributes.int['x'] + 9223372036854775807 > 0",
)

HOSTILE_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    INT64_MAX,
    INT64_MAX + 1,
    -(2**63),
    -(2**63) - 1,
    UINT64_MAX,
    UINT64_MAX + 1,
    10**30,
    -(10**30),
    10**400,
    0.5,
    -0.0,
    1e308,
    5e-324,
    float("inf"),
    float("-inf"),
    float("nan"),
)

HOSTILE_OTHERS: tuple[Any, ...] = (None, True, False, [], {}, [None], {"": None}, [[[]]], {"a": {"b": {}}})


def lone_surrogate_strings() -> tuple[str, ...]:
    """Strings a Python caller can build but no JSON encoder may write: only for the dict-level API."""
    return ("\ud800", "a\udfffb", "\udc80" * 8)


scalars = st.one_of(
    st.sampled_from(HOSTILE_STRINGS),
    st.sampled_from(HOSTILE_NUMBERS),
    st.sampled_from(HOSTILE_OTHERS),
    st.text(max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
)

# Arbitrary JSON-like values, small but of every shape.
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)

hostile_values = st.one_of(scalars, json_values)


# --- places in a document ----------------------------------------------------------------------------


def paths(document: Any) -> Iterator[Path]:
    """Every place in `document`: the root, each member of each object and each element of each array
    (walked without recursion: documents here may be nested deeper than Python's recursion limit)."""
    stack: list[tuple[Path, Any]] = [((), document)]
    while stack:
        path, node = stack.pop()
        yield path
        if isinstance(node, dict):
            stack.extend(((*path, key), child) for key, child in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend(((*path, index), child) for index, child in reversed(list(enumerate(node))))


def depth(document: Any) -> int:
    """How deeply containers nest in `document` (a scalar is 0)."""
    return max((len(path) for path in paths(document)), default=0)


def get(document: Any, path: Path) -> Any:
    for step in path:
        document = document[step]
    return document


def replace(document: Any, path: Path, value: Any) -> Any:
    """`document` with the value at `path` replaced (in place below the root; returns the root)."""
    if not path:
        return value
    get(document, path[:-1])[path[-1]] = value
    return document


def delete(document: Any, path: Path) -> Any:
    if not path:
        return None
    del get(document, path[:-1])[path[-1]]
    return document


def nest(value: Any, depth: int, *, in_lists: bool) -> Any:
    """`value` buried `depth` levels deep in single-element arrays or single-member objects."""
    for _ in range(depth):
        value = [value] if in_lists else {"a": value}
    return value


# --- mutations as a hypothesis strategy ----------------------------------------------------------------


@st.composite
def mutated(draw: st.DrawFn, document: Any, *, max_mutations: int = 4, values: Any = hostile_values) -> Any:
    """`document` (copied) after one to `max_mutations` hostile mutations at drawn places."""
    document = copy.deepcopy(document)

    def fresh() -> Any:
        # A copy: sampled values are shared objects, and a later "add" must not change the pool.
        return copy.deepcopy(draw(values))

    for _ in range(draw(st.integers(1, max_mutations))):
        places = list(paths(document))
        place = draw(st.sampled_from(places))
        action = draw(
            st.sampled_from(("replace", "replace", "replace", "delete", "add", "nest", "grow", "retype"))
        )
        target = get(document, place)
        if action == "replace":
            document = replace(document, place, fresh())
        elif action == "delete" and place:
            document = delete(document, place)
        elif action == "add" and isinstance(target, dict):
            key = draw(
                st.sampled_from(("", "spec", "status", "metadata", "x" * 300, "é")) | st.text(max_size=8)
            )
            target[key] = fresh()
        elif action == "add" and isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))), fresh())
        elif action == "nest":
            # At most DEEP_NESTING levels in all: what a JSON body can carry past orjson's limit.
            levels = min(draw(st.sampled_from((2, 50, DEEP_NESTING))), DEEP_NESTING - depth(document))
            document = replace(document, place, nest(target, max(levels, 0), in_lists=draw(st.booleans())))
        elif action == "grow":
            # A huge array of copies of what is there (or of a hostile value).
            item = target if not isinstance(target, dict | list) else fresh()
            count = draw(st.sampled_from((2, 300, HUGE_ARRAY_ITEMS)))
            document = replace(document, place, [copy.deepcopy(item) for _ in range(count)])
        else:  # retype: the same content under another JSON type
            document = replace(document, place, _retyped(target, draw(st.integers(0, 3))))
    return document


def _retyped(value: Any, choice: int) -> Any:
    if choice == 0:
        return [value]
    if choice == 1:
        return {"value": value}
    if choice == 2:
        return str(value)[:100]
    return None


# --- the same mutations for byte-level and long runs, with a seeded random.Random --------------------


def random_mutation(document: Any, rng: random.Random) -> Any:
    """One hostile mutation with `rng`: for loops that run outside hypothesis (bodies, load)."""
    document = copy.deepcopy(document)
    place = rng.choice(list(paths(document)))
    pool = (*HOSTILE_STRINGS, *HOSTILE_NUMBERS[:-3], *HOSTILE_OTHERS)  # JSON-writable values only
    choice = rng.randrange(4)
    if choice == 0 or not place:
        return replace(document, place, copy.deepcopy(rng.choice(pool)))
    if choice == 1:
        return delete(document, place)
    if choice == 2:
        levels = min(rng.choice((2, 50, 500)), DEEP_NESTING - depth(document))
        return replace(
            document, place, nest(get(document, place), max(levels, 0), in_lists=rng.random() < 0.5)
        )
    return replace(document, place, _retyped(get(document, place), rng.randrange(4)))
