"""YAML as kubectl reads it: sigs.k8s.io/yaml, which is go-yaml v2 (YAML 1.1) followed by a JSON
round trip, over a multi-document stream read with PyYAML's C loader when it is there.

The loader resolves plain scalars as go-yaml v2's `resolve()` does (goyaml.v2/resolve.go), not as
PyYAML does: `y`/`n`/`yes`/`on`/`off` are booleans, `1e3` and `1.0e3` are numbers, `010` is octal,
`1:30` is a string (PyYAML reads base 60), timestamps stay strings (decode.go keeps them as strings
in an `interface{}`), and non-string keys become strings (`convertToJSONableObject`). The JSON round
trip (`json.Marshal`, then the UseNumber decoding of unstructured objects) turns integral floats into
integers (`1.0` and `1e3` arrive as `1` and `1000`) and rejects `.nan`/`.inf`.
"""

from __future__ import annotations

import base64
import math
import re
import struct
from collections.abc import Callable, Mapping
from typing import Any, Final

import yaml

from webhook.offline.documents import (
    INT64_MAX,
    INT64_MIN,
    Document,
    ReadResult,
    UnreadableInput,
    field_path,
    sent_number,
)

_YAML_PLAIN_TAG: Final = "tag:dra-webhook,2024:plain"
_YAML_MERGE_TAG: Final = "tag:yaml.org,2002:merge"

# goyaml.v2/resolve.go resolveMapList: the words and constants a plain scalar may be.
_GO_YAML_CONSTANTS: Final[Mapping[str, Any]] = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), None),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
}
# strconv.ParseInt(plain, 0, 64): sign, then 0x / 0o / 0b / a leading 0 (octal) / decimal.
_GO_INT: Final = re.compile(r"([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\Z")
_GO_INT_BASES: Final = {"x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2}
# resolve.go yamlStyleFloat; a scalar starting with "." is tried with ParseFloat as it is.
_GO_FLOAT: Final = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_GO_DOT_FLOAT: Final = re.compile(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?\Z")


def go_yaml_plain_scalar(text: str) -> Any:
    """The value go-yaml v2 resolves an untagged plain scalar to (before the JSON round trip)."""
    if text in _GO_YAML_CONSTANTS:
        return _GO_YAML_CONSTANTS[text]
    first = text[0]
    if first in "+-0123456789":
        plain = text.replace("_", "")
        number = _GO_INT.match(plain)
        if number:
            return _go_int(number.group(1), number.group(2))
        if _GO_FLOAT.match(plain):
            value = float(plain)
            if not math.isinf(value):  # ParseFloat reports a range error: the scalar stays a string
                return value
    elif first == "." and _GO_DOT_FLOAT.match(text):
        value = float(text)
        if not math.isinf(value):
            return value
    return text


def _go_int(sign: str, digits: str) -> int:
    if len(digits) > 1 and digits[0] == "0":
        base = _GO_INT_BASES.get(digits[1])
        magnitude = int(digits[2:], base) if base else int(digits[1:], 8)
    else:
        magnitude = int(digits)
    return -magnitude if sign == "-" else magnitude


def _sent_scalar(value: Any, node: yaml.Node) -> Any:
    """A go-yaml value after sigs.k8s.io/yaml's `json.Marshal` and unstructured decoding."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        # uint64 and big integers do not fit an int64: unstructured decoding makes them float64.
        return value if INT64_MIN <= value <= INT64_MAX else float(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            go_text = "NaN" if math.isnan(value) else "+Inf" if value > 0 else "-Inf"
            raise yaml.constructor.ConstructorError(
                None, None, f"json: unsupported value: {go_text}", node.start_mark
            )
        return sent_number(value)
    return value


def go_yaml_float_key(value: float) -> str:
    """`strconv.FormatFloat(key, 'g', -1, 32)` with go-yaml's names for the specials: how
    sigs.k8s.io/yaml turns a float map key into a string."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    try:
        single = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return ".inf" if value > 0 else "-.inf"
    if single == 0:
        return "-0" if math.copysign(1, single) < 0 else "0"
    for digits in range(1, 10):
        shortest = f"{single:.{digits - 1}e}"
        if struct.unpack("f", struct.pack("f", float(shortest)))[0] == single:
            break
    exponent = int(shortest.partition("e")[2])
    if exponent < -4 or exponent >= 6:  # Go uses %e past these for the shortest form
        return shortest
    return f"{single:.{max(digits - 1 - exponent, 0)}f}"


def _go_map_key(value: Any, node: yaml.Node) -> str:
    """sigs.k8s.io/yaml convertToJSONableObject: keys become strings, or the document is refused."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_yaml_float_key(value)
    kind = "<nil>" if value is None else type(value).__name__
    raise yaml.constructor.ConstructorError(
        None, None, f"unsupported map key of type: {kind}", node.start_mark
    )


_YamlBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class KubeYamlLoader(_YamlBase):  # type: ignore[misc]
    """PyYAML's (C) safe loader, resolving plain scalars as go-yaml v2. `_construct_fast` builds the
    documents; the constructors registered here serve only explicitly tagged scalars.

    `duplicated` collects, while a document is built, the mappings that give a key twice, with the
    key and where it is given again: `_duplicate_paths` turns them into field paths."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.duplicated: list[tuple[yaml.MappingNode, str, int]] = []
        # id(mapping node) -> how many of its pairs a merge (`<<`) put first; for the document read.
        self.merged_pairs: dict[int, int] = {}

    def resolve(self, kind: Any, value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return _YAML_MERGE_TAG if value == "<<" else _YAML_PLAIN_TAG
        return str(super().resolve(kind, value, implicit))

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """PyYAML's merge (`<<`): the merged pairs go first, the mapping's own pairs after them, and
        how many were merged is kept in `merged_pairs` (a key given by a merge and again by the
        mapping itself is an override, not a duplicate)."""
        own = node.value  # PyYAML removes the merge keys from this list, then prepends what they merge
        super().flatten_mapping(node)
        if node.value is not own:
            self.merged_pairs[id(node)] = len(node.value) - len(own)


def _construct_tagged(construct: Callable[[Any, Any], Any]) -> Callable[[KubeYamlLoader, yaml.Node], Any]:
    """An explicitly tagged number (`!!float 1`) goes through the JSON round trip too."""

    def construct_sent(loader: KubeYamlLoader, node: yaml.Node) -> Any:
        return _sent_scalar(construct(loader, node), node)

    return construct_sent


def _construct_merge_word(loader: KubeYamlLoader, node: yaml.ScalarNode) -> str:
    return "<<"  # a "<<" that is not a key is the string "<<"


def _construct_timestamp(loader: KubeYamlLoader, node: yaml.ScalarNode) -> str:
    return str(node.value)  # go-yaml v2 keeps timestamps as strings in an interface{}


def _construct_binary(loader: KubeYamlLoader, node: yaml.ScalarNode) -> str:
    # go-yaml v2 decodes !!binary into a string; json.Marshal replaces invalid UTF-8.
    try:
        raw = base64.b64decode("".join(str(node.value).split()), validate=True)
    except ValueError:
        raise yaml.constructor.ConstructorError(
            None, None, "!!binary value contains invalid base64 data", node.start_mark
        ) from None
    return raw.decode("utf-8", errors="replace")


KubeYamlLoader.add_constructor(
    "tag:yaml.org,2002:int", _construct_tagged(yaml.constructor.SafeConstructor.construct_yaml_int)
)
KubeYamlLoader.add_constructor(
    "tag:yaml.org,2002:float", _construct_tagged(yaml.constructor.SafeConstructor.construct_yaml_float)
)
KubeYamlLoader.add_constructor(_YAML_MERGE_TAG, _construct_merge_word)
KubeYamlLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
KubeYamlLoader.add_constructor("tag:yaml.org,2002:binary", _construct_binary)


def read_yaml(source: str, content: bytes) -> ReadResult:
    """Every document of a YAML stream, as kubectl decodes it, up to the first syntax error."""
    loader = KubeYamlLoader(content)
    documents: list[Document] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            data = _construct_fast(loader, node)
            duplicates = _duplicate_paths(node, loader.duplicated) if loader.duplicated else ()
            loader.duplicated.clear()
            loader.merged_pairs.clear()
            documents.append(Document(source, node.start_mark.line + 1, data, duplicates))
    except yaml.MarkedYAMLError as error:
        return ReadResult(documents, _yaml_problem(source, error))
    except yaml.YAMLError as error:
        return ReadResult(documents, UnreadableInput(source, f"invalid YAML: {error}"))
    finally:
        loader.dispose()
    return ReadResult(documents)


_YAML_STR_TAG: Final = "tag:yaml.org,2002:str"


def _construct_fast(loader: KubeYamlLoader, node: yaml.Node) -> Any:
    """`construct_document`, with the plain, string, map and sequence nodes of a manifest built by
    direct recursion: PyYAML's generic construction is half the cost of reading a manifest. Other
    tags go to the loader's constructors; an alias cycle, which JSON cannot carry, is refused."""
    try:
        return _node_value(loader, node)
    except RecursionError:
        raise yaml.constructor.ConstructorError(
            None, None, "a recursive alias (or nesting too deep) cannot be converted to JSON", node.start_mark
        ) from None
    finally:
        loader.constructed_objects.clear()
        loader.recursive_objects.clear()


def _node_value(loader: KubeYamlLoader, node: yaml.Node) -> Any:
    # go-yaml v2 decodes a node by its kind, not its tag: `!!map [x]` is a sequence and
    # `!!str [1]` a list. Only a scalar's tag chooses how it is read.
    if isinstance(node, yaml.MappingNode):  # a !!set is a map with null values, as go-yaml v2 decodes it
        loader.flatten_mapping(node)
        obj: dict[str, Any] = {}
        repeated = False
        for key_node, value_node in node.value:
            key = _map_key(loader, key_node)
            repeated = repeated or key in obj
            obj[key] = _node_value(loader, value_node)
        if repeated:  # rare: find which keys the mapping itself gives twice
            loader.duplicated.extend((node, key, at) for key, at in _own_duplicate_keys(loader, node))
        return obj
    if isinstance(node, yaml.SequenceNode):  # !!omap and !!pairs too: a list of one-key maps
        return [_node_value(loader, item) for item in node.value]
    if node.tag == _YAML_PLAIN_TAG:
        return _sent_scalar(go_yaml_plain_scalar(node.value), node)
    if node.tag == _YAML_STR_TAG:
        return node.value
    # Other scalar tags (!!int, !!binary, ...) go to the loader's constructors; one that does not
    # fit a scalar (`!!map x`) raises a marked ConstructorError: unreadable input, with its line.
    return loader.construct_object(node, deep=True)


def _map_key(loader: KubeYamlLoader, key_node: yaml.Node) -> str:
    """A mapping key as sigs.k8s.io/yaml hands it on: go-yaml's value, made a JSON object key."""
    if key_node.tag == _YAML_PLAIN_TAG:
        key = go_yaml_plain_scalar(key_node.value)
    elif key_node.tag == _YAML_STR_TAG:
        key = key_node.value
    else:
        key = _node_value(loader, key_node)
    return _go_map_key(key, key_node)


def _own_duplicate_keys(loader: KubeYamlLoader, node: yaml.MappingNode) -> list[tuple[str, int]]:
    """The keys a mapping gives twice among its own pairs (after the merged ones, which it may
    override), each with the offset in the stream where it is given again."""
    seen: set[str] = set()
    duplicates: list[tuple[str, int]] = []
    for key_node, _ in node.value[loader.merged_pairs.get(id(node), 0) :]:
        key = _map_key(loader, key_node)
        if key in seen:
            duplicates.append((key, key_node.start_mark.index))
        seen.add(key)
    return duplicates


def _duplicate_paths(root: yaml.Node, duplicated: list[tuple[yaml.MappingNode, str, int]]) -> tuple[str, ...]:
    """The field paths of the duplicated keys of one document (`spec.foo`, `items[0].metadata.name`),
    each once, in the order the decoder meets them (where each is given again); found by walking the
    document's nodes from the root, a mapping reached through several aliases named by its first path."""
    wanted: dict[int, list[tuple[str, int]]] = {}
    for mapping_node, key, at in duplicated:
        wanted.setdefault(id(mapping_node), []).append((key, at))
    paths: dict[str, int] = {}
    visited: set[int] = set()
    stack: list[tuple[yaml.Node, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in visited:
            continue
        visited.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, at in wanted.get(id(node), ()):
                paths.setdefault(field_path(path, key), at)
            children = [
                (value_node, field_path(path, _scalar_key_text(key_node)))
                for key_node, value_node in node.value
            ]
            stack.extend(reversed(children))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed([(item, f"{path}[{index}]") for index, item in enumerate(node.value)]))
    return tuple(sorted(paths, key=paths.__getitem__))


def _scalar_key_text(key_node: yaml.Node) -> str:
    """A key's text for a path: its go-yaml value as a string when it is a scalar."""
    if key_node.tag == _YAML_PLAIN_TAG:
        value = go_yaml_plain_scalar(key_node.value)
        try:
            return _go_map_key(value, key_node)
        except yaml.YAMLError:
            return str(key_node.value)
    return str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "?"


def _yaml_problem(source: str, error: yaml.MarkedYAMLError) -> UnreadableInput:
    """`file:line:column: invalid YAML: <problem> (<context> at line N)`, as compilers say it."""
    mark = error.problem_mark or error.context_mark
    reason = f"invalid YAML: {error.problem or error.context}"
    if error.problem and error.context:
        context_line = f" at line {error.context_mark.line + 1}" if error.context_mark is not None else ""
        reason += f" ({error.context}{context_line})"
    if mark is None:
        return UnreadableInput(source, reason)
    return UnreadableInput(source, reason, line=mark.line + 1, column=mark.column + 1)
