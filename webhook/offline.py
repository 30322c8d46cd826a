"""Judging files without a cluster: `dra-webhook validate` (manifests) and `dra-webhook review`
(AdmissionReviews and regression suites of them).

Both commands hand the same `Judge` the server uses what the API server would hand the webhook, so an
offline verdict is the verdict a cluster would give. What this module owns, and the choices in it:

* Reading. A file (or stdin) whose first significant character is `{` is JSON: one document, JSON
  lines, or a stream of concatenated objects (as kubectl's YAML-or-JSON decoder reads them). Anything
  else is YAML, multi-document, read with PyYAML's C loader when it is there. kubectl reads YAML with
  sigs.k8s.io/yaml, which is go-yaml v2 (YAML 1.1) followed by a JSON round trip, so the loader
  resolves plain scalars as go-yaml v2's `resolve()` does (goyaml.v2/resolve.go), not as PyYAML does:
  `y`/`n`/`yes`/`on`/`off` are booleans, `1e3` and `1.0e3` are numbers, `010` is octal, `1:30` is a
  string (PyYAML reads base 60), timestamps stay strings (decode.go keeps them as strings in an
  `interface{}`), and non-string keys become strings (`convertToJSONableObject`). The JSON round trip
  (`json.Marshal`, then the UseNumber decoding of unstructured objects) turns integral floats into
  integers (`1.0` and `1e3` arrive as `1` and `1000`) and rejects `.nan`/`.inf`. JSON input gets the
  same integral-float treatment, since kubectl re-encodes it before sending.
* Lists. `kind: List` and every `<Kind>List` with `items` are expanded, recursively, as kubectl's
  builder flattens them; items of a typed list that carry neither apiVersion nor kind take them from
  the list (unstructured's `decodeToList`).
* What the API server adds. A namespaced object without a namespace gets the request's (`-n`,
  default "default") and a cluster-scoped one loses its namespace (registry/rest/meta.go). With
  `--old`, an object whose group, kind, namespace and name match an old object is judged as an
  UPDATE, after the API server's own update steps have filled what a client does not send: the
  stored resourceVersion (an unconditional update), generation, uid, creationTimestamp,
  deletionTimestamp and deletionGracePeriodSeconds (registry/rest/update.go `BeforeUpdate`), so a
  manifest without them is not denied for "field is immutable".
* Suites. A review suite is YAML with `tests:`; `--expect` files hold expectations for plain review
  files. The format is documented in docs/offline.md.

Nothing here prints on its own: the runners write to the streams they are given, and return the exit
code (0 valid/allowed/met, 1 invalid/denied/unmet, 2 unreadable input).
"""

from __future__ import annotations

import base64
import concurrent.futures
import dataclasses
import fnmatch
import functools
import json
import math
import os
import re
import struct
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol, TextIO, TypeVar

import orjson
import yaml

from webhook.admission import DRA_GROUP, Judge, UnreadableReview, parse_review, review_response
from webhook.field import go_quote, invalid_message
from webhook.rules import GroupVersionKind, KindRules
from webhook.rules.values import mapping, text
from webhook.settings import PolicySettings

STDIN: Final = "-"
STDIN_NAME: Final = "<stdin>"
# What a directory walk picks up; files named on the command line are read whatever their name.
MANIFEST_SUFFIXES: Final = (".yaml", ".yml", ".json")
REVIEW_SUFFIXES: Final = (".json", ".jsonl", ".ndjson", ".yaml", ".yml")

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_UNREADABLE: Final = 2

# A progress line appears only on a terminal and only once a run has lasted this long.
PROGRESS_AFTER_SECONDS: Final = 0.5
PROGRESS_EVERY_SECONDS: Final = 0.2


# --- unreadable input -------------------------------------------------------------------------------------


class UnreadableInput(Exception):
    """Input that cannot be read as documents (exit 2): a missing file, a syntax error, a document
    that is not an object. `line` and `column` are 1-based, 0 when unknown."""

    def __init__(self, source: str, reason: str, *, line: int = 0, column: int = 0) -> None:
        super().__init__(reason)
        self.source = source
        self.reason = reason
        self.line = line
        self.column = column

    @property
    def location(self) -> str:
        return location(self.source, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.location}: {self.reason}"


def location(source: str, line: int = 0, column: int = 0) -> str:
    """`source`, `source:line` or `source:line:column`, as compilers name a place (0: unknown)."""
    if not line:
        return source
    if not column:
        return f"{source}:{line}"
    return f"{source}:{line}:{column}"


# --- reading documents ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Document:
    """One decoded document of a file and the 1-based line it starts on."""

    source: str
    line: int
    data: Any


@dataclass(frozen=True, slots=True)
class ReadResult:
    """The documents read from one input, and the error that stopped the reading, if any.

    Documents before a syntax error are kept: kubectl too acts on the documents it could read."""

    documents: list[Document]
    error: UnreadableInput | None = None
    syntax: Literal["json", "yaml"] = "yaml"


def display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_input(path: str, read_stdin: Callable[[], bytes]) -> bytes:
    """The bytes of one input (`-` is stdin), or `UnreadableInput`."""
    if path == STDIN:
        return read_stdin()
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise UnreadableInput(path, f"cannot read: {error.strerror or error}") from None


_BYTE_ORDER_MARK: Final = b"\xef\xbb\xbf"
_LEADING_SPACE: Final = re.compile(rb"\s*")


def read_documents(source: str, content: bytes) -> ReadResult:
    """Decode a JSON or YAML stream into documents, as kubectl's YAML-or-JSON decoder would."""
    start = _LEADING_SPACE.match(
        content, len(_BYTE_ORDER_MARK) if content.startswith(_BYTE_ORDER_MARK) else 0
    )
    offset = start.end() if start else 0
    if content[offset : offset + 1] == b"{":
        return _read_json(
            source, content.removeprefix(_BYTE_ORDER_MARK), first_line=1 + content.count(b"\n", 0, offset)
        )
    return _read_yaml(source, content)


def _read_json(source: str, content: bytes, *, first_line: int) -> ReadResult:
    try:
        return ReadResult([Document(source, first_line, _as_sent(orjson.loads(content)))], syntax="json")
    except orjson.JSONDecodeError:
        pass
    lines = _read_json_lines(source, content)
    if lines is not None:
        return ReadResult(lines, syntax="json")
    return _read_json_stream(source, content)


def _read_json_lines(source: str, content: bytes) -> list[Document] | None:
    """The fast path for JSON lines: every non-blank line one document, or None."""
    documents = []
    for number, line in enumerate(content.split(b"\n"), start=1):
        if line.strip():
            try:
                documents.append(Document(source, number, _as_sent(orjson.loads(line))))
            except orjson.JSONDecodeError:
                return None
    return documents


def _reject_json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_json_stream(source: str, content: bytes) -> ReadResult:
    """Concatenated JSON values, with the line and column of the first syntax error."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        return ReadResult([], UnreadableInput(source, f"invalid UTF-8: {error.reason}"), "json")
    decoder = json.JSONDecoder(parse_constant=_reject_json_constant)
    documents: list[Document] = []
    position, line, counted_to = _skip_space(text, 0), 1, 0
    while position < len(text):
        line += text.count("\n", counted_to, position)
        counted_to = position
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            problem = UnreadableInput(
                source,
                f"invalid JSON: {error.msg}",
                line=error.lineno,
                column=error.colno,
            )
            return ReadResult(documents, problem, "json")
        except ValueError as error:
            return ReadResult(documents, UnreadableInput(source, f"invalid JSON: {error}", line=line), "json")
        documents.append(Document(source, line, _as_sent(value)))
        position = _skip_space(text, end)
    return ReadResult(documents, syntax="json")


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _as_sent(value: Any) -> Any:
    """A decoded JSON value as kubectl sends it: integral floats become integers (in place)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list):
                _as_sent(item)
            elif isinstance(item, float):
                value[key] = _json_number(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                _as_sent(item)
            elif isinstance(item, float):
                value[index] = _json_number(item)
    elif isinstance(value, float):
        return _json_number(value)
    return value


INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


def _json_number(value: float) -> int | float:
    """Go's `json.Marshal` prints an integral float64 without a fraction and unstructured decoding
    reads it back as an int64 when it fits: 1.0 -> 1, 1e3 -> 1000, 1e19 stays a float."""
    if value.is_integer() and INT64_MIN <= value <= INT64_MAX:
        return int(value)
    return value


# --- YAML as sigs.k8s.io/yaml (go-yaml v2) reads it -------------------------------------------------------

_YAML_PLAIN_TAG: Final = "tag:dra-webhook,2024:plain"
_YAML_MERGE_TAG: Final = "tag:yaml.org,2002:merge"
_YAML_MAP_TAG: Final = "tag:yaml.org,2002:map"

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
        return _json_number(value)
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
    documents; the constructors registered here serve only explicitly tagged scalars."""

    def resolve(self, kind: Any, value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return _YAML_MERGE_TAG if value == "<<" else _YAML_PLAIN_TAG
        return str(super().resolve(kind, value, implicit))


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


def _read_yaml(source: str, content: bytes) -> ReadResult:
    loader = KubeYamlLoader(content)
    documents: list[Document] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            documents.append(Document(source, node.start_mark.line + 1, _construct_fast(loader, node)))
    except yaml.MarkedYAMLError as error:
        return ReadResult(documents, _yaml_problem(source, error))
    except yaml.YAMLError as error:
        return ReadResult(documents, UnreadableInput(source, f"invalid YAML: {error}"))
    finally:
        loader.dispose()
    return ReadResult(documents)


_YAML_STR_TAG: Final = "tag:yaml.org,2002:str"
_YAML_MAP_TAGS: Final = frozenset({_YAML_MAP_TAG, "tag:yaml.org,2002:set"})
_YAML_SEQ_TAGS: Final = frozenset(
    {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap", "tag:yaml.org,2002:pairs"}
)


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
    tag = node.tag
    if tag == _YAML_PLAIN_TAG:
        return _sent_scalar(go_yaml_plain_scalar(node.value), node)
    if tag == _YAML_STR_TAG:
        return node.value
    if tag in _YAML_MAP_TAGS:  # a !!set is a map with null values, as go-yaml v2 decodes it
        loader.flatten_mapping(node)
        obj: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _YAML_PLAIN_TAG:
                key = go_yaml_plain_scalar(key_node.value)
            elif key_node.tag == _YAML_STR_TAG:
                key = key_node.value
            else:
                key = _node_value(loader, key_node)
            obj[_go_map_key(key, key_node)] = _node_value(loader, value_node)
        return obj
    if tag in _YAML_SEQ_TAGS:  # !!omap and !!pairs: a list of one-key maps
        return [_node_value(loader, item) for item in node.value]
    return loader.construct_object(node, deep=True)


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


# --- objects: documents with List kinds expanded ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ManifestObject:
    """One Kubernetes object of a manifest, where it came from, and who it is."""

    source: str
    line: int
    obj: dict[str, Any]

    @property
    def api_version(self) -> str:
        return text(self.obj.get("apiVersion"))

    @property
    def kind(self) -> str:
        return text(self.obj.get("kind"))

    @property
    def gvk(self) -> GroupVersionKind:
        group, _, version = self.api_version.rpartition("/")
        return GroupVersionKind(group, version, self.kind)

    @property
    def namespace(self) -> str:
        return text(mapping(self.obj.get("metadata")).get("namespace"))

    @property
    def name(self) -> str:
        return text(mapping(self.obj.get("metadata")).get("name"))


def objects_of(document: Document) -> Iterator[ManifestObject | UnreadableInput]:
    """The objects of one document: itself, or the items of a List, flattened like kubectl does.

    An empty document is no object (kubectl skips it too)."""
    if document.data is None:
        return
    yield from _expand(document.source, document.line, document.data, where="")


def _expand(source: str, line: int, data: Any, *, where: str) -> Iterator[ManifestObject | UnreadableInput]:
    if not isinstance(data, dict):
        what = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        yield UnreadableInput(source, f"{where}expected an object, got {what}", line=line)
        return
    kind, api_version = data.get("kind"), data.get("apiVersion")
    missing = [name for name, value in (("apiVersion", api_version), ("kind", kind)) if not value]
    if missing or not isinstance(kind, str) or not isinstance(api_version, str):
        problems = [f"{name} not set" for name in missing] or ["apiVersion and kind must be strings"]
        yield UnreadableInput(source, f"{where}{', '.join(problems)}", line=line)
        return
    if kind == "List" or (kind.endswith("List") and "items" in data):
        items = data.get("items")
        if items is None:
            return
        if not isinstance(items, list):
            yield UnreadableInput(source, f"{where}items of {kind} must be a list", line=line)
            return
        item_kind = kind.removesuffix("List")
        for index, item in enumerate(items):
            if (
                kind != "List"
                and isinstance(item, dict)
                and not item.get("kind")
                and not item.get("apiVersion")
            ):
                # unstructured decodeToList: items of a typed list take the list's group and kind.
                item = {"apiVersion": api_version, "kind": item_kind, **item}
            yield from _expand(source, line, item, where=f"{where}items[{index}]: ")
        return
    yield ManifestObject(source, line, data)


# --- old objects (--old) ----------------------------------------------------------------------------------

ObjectKey = tuple[str, str, str, str]  # group, kind, namespace, name


DEFAULT_NAMESPACE: Final = "default"  # kubectl's namespace when neither the object nor -n names one


def effective_namespace(namespace: str, rules: KindRules | None, request_namespace: str) -> str:
    """The namespace an object ends up in: see `in_request_namespace`."""
    if rules is None:
        return namespace
    if not rules.namespaced:
        return ""
    return namespace or request_namespace


def in_request_namespace(obj: dict[str, Any], rules: KindRules, request_namespace: str) -> dict[str, Any]:
    """The object as BeforeCreate and BeforeUpdate leave it (apiserver registry/rest/meta.go
    `EnsureObjectNamespaceMatchesRequestNamespace`): a namespaced object without a namespace gets
    the request's (kubectl's current namespace), a cluster-scoped object loses any namespace."""
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        return obj  # the structural check reports it
    namespace = metadata.get("namespace")
    if rules.namespaced and not namespace and request_namespace:
        return {**obj, "metadata": {**metadata, "namespace": request_namespace}}
    if not rules.namespaced and "namespace" in metadata:
        return {**obj, "metadata": {key: value for key, value in metadata.items() if key != "namespace"}}
    return obj


def object_key(item: ManifestObject, rules: KindRules | None, request_namespace: str) -> ObjectKey:
    """How an object is matched with its old version: group, kind, namespace and name."""
    namespace = effective_namespace(item.namespace, rules, request_namespace)
    return (item.gvk.group, item.kind, namespace, item.name)


@dataclass(frozen=True, slots=True)
class OldObjects:
    """The old versions of objects, by `object_key` (a later duplicate wins)."""

    by_key: Mapping[ObjectKey, Mapping[str, Any]] = field(default_factory=dict)
    request_namespace: str = DEFAULT_NAMESPACE

    def find(self, item: ManifestObject, rules: KindRules | None) -> Mapping[str, Any] | None:
        if not item.name:
            return None
        return self.by_key.get(object_key(item, rules, self.request_namespace))


def load_old_objects(
    paths: Sequence[str],
    *,
    judge: Judge,
    read_stdin: Callable[[], bytes],
    request_namespace: str = DEFAULT_NAMESPACE,
) -> tuple[OldObjects, list[UnreadableInput]]:
    by_key: dict[ObjectKey, Mapping[str, Any]] = {}
    problems: list[UnreadableInput] = []
    for path in expand_paths(paths, MANIFEST_SUFFIXES):
        try:
            read = read_documents(display_name(path), read_input(path, read_stdin))
        except UnreadableInput as problem:
            problems.append(problem)
            continue
        if read.error is not None:
            problems.append(read.error)
        for document in read.documents:
            for item in objects_of(document):
                if isinstance(item, UnreadableInput):
                    problems.append(item)
                else:
                    rules = judge.registry.get(item.gvk)
                    obj = (
                        item.obj
                        if rules is None
                        else in_request_namespace(item.obj, rules, request_namespace)
                    )
                    by_key[object_key(item, rules, request_namespace)] = obj
    return OldObjects(by_key, request_namespace), problems


STORED_RESOURCE_VERSION: Final = "1"


def server_filled_update(new: Mapping[str, Any], old: Mapping[str, Any]) -> dict[str, Any]:
    """The new object as the API server hands it to validation on an update: what `BeforeUpdate`
    (apiserver registry/rest/update.go) and an unconditional update take from the stored object."""
    filled = dict(new)
    metadata = dict(mapping(new.get("metadata")))
    old_metadata = mapping(old.get("metadata"))
    # generation: "Ensure requests cannot update generation".
    for name in ("generation",):
        if name in old_metadata:
            metadata[name] = old_metadata[name]
        else:
            metadata.pop(name, None)
    # Filled only when the client sent none.
    for name in ("uid", "deletionGracePeriodSeconds"):
        if not metadata.get(name) and old_metadata.get(name):
            metadata[name] = old_metadata[name]
    # An unconditional update (no resourceVersion sent) is given the stored one; a stored object
    # always has one, so an old manifest without it stands for version "1".
    if not metadata.get("resourceVersion"):
        metadata["resourceVersion"] = old_metadata.get("resourceVersion") or STORED_RESOURCE_VERSION
    # Never changed by an update once the stored object has them.
    for name in ("creationTimestamp", "deletionTimestamp"):
        if old_metadata.get(name):
            metadata[name] = old_metadata[name]
    filled["metadata"] = metadata
    return filled


# --- judging manifests ------------------------------------------------------------------------------------

ObjectStatus = Literal["valid", "invalid", "skipped", "error"]


@dataclass(frozen=True, slots=True)
class ObjectResult:
    """The verdict on one object (or one unreadable input) of `dra-webhook validate`."""

    source: str
    line: int
    status: ObjectStatus
    api_version: str = ""
    kind: str = ""
    namespace: str = ""
    name: str = ""
    operation: str = ""
    message: str = ""
    causes: tuple[Mapping[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    column: int = 0

    @classmethod
    def of(
        cls,
        item: ManifestObject,
        status: ObjectStatus,
        *,
        operation: str = "",
        message: str = "",
        causes: tuple[Mapping[str, str], ...] = (),
        warnings: tuple[str, ...] = (),
    ) -> ObjectResult:
        return cls(
            item.source,
            item.line,
            status,
            item.api_version,
            item.kind,
            item.namespace,
            item.name,
            operation,
            message,
            causes,
            warnings,
        )

    @property
    def location(self) -> str:
        return location(self.source, self.line, self.column)

    @property
    def title(self) -> str:
        """`ResourceClaim default/gpu` (or the location for an unreadable input)."""
        if not self.kind:
            return self.location
        who = f"{self.namespace}/{self.name}" if self.namespace else self.name or "(no name)"
        return f"{self.kind} {who}"

    def as_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {"source": self.source, "line": self.line, "status": self.status}
        if self.kind:
            result.update(
                apiVersion=self.api_version, kind=self.kind, namespace=self.namespace, name=self.name
            )
        if self.operation:
            result["operation"] = self.operation
        if self.message:
            result["message"] = self.message
        if self.causes:
            result["causes"] = list(self.causes)
        if self.warnings:
            result["warnings"] = list(self.warnings)
        return result


def error_result(problem: UnreadableInput) -> ObjectResult:
    return ObjectResult(problem.source, problem.line, "error", message=problem.reason, column=problem.column)


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """What `dra-webhook validate` was asked to do, apart from where to read and how to print."""

    policy: PolicySettings = field(default_factory=PolicySettings)
    subresource: str = ""
    strict: bool = False
    namespace: str = DEFAULT_NAMESPACE  # the request namespace (kubectl -n)


class ManifestJudge:
    """Judges the objects of manifests with one `Judge`: CREATE, or UPDATE when an old object matches."""

    def __init__(self, judge: Judge, options: ValidateOptions, old: OldObjects | None = None) -> None:
        self.judge = judge
        self.options = options
        self.old = old if old is not None else OldObjects()

    @classmethod
    def build(cls, options: ValidateOptions, old: OldObjects) -> ManifestJudge:
        """A manifest judge with a `Judge` of its own (for a worker process)."""
        return cls(Judge.build(options.policy), options, old)

    def judge_input(self, path: str, content: bytes | None = None) -> list[ObjectResult]:
        """Every result of one input, in document order; `content` is given for stdin."""
        try:
            data = content if content is not None else read_input(path, _no_stdin)
        except UnreadableInput as problem:
            return [error_result(problem)]
        return self.judge_content(display_name(path), data)

    def judge_content(self, source: str, content: bytes) -> list[ObjectResult]:
        read = read_documents(source, content)
        results = []
        for document in read.documents:
            for item in objects_of(document):
                if isinstance(item, UnreadableInput):
                    results.append(error_result(item))
                else:
                    results.append(self.judge_object(item))
        if read.error is not None:
            results.append(error_result(read.error))
        return results

    def judge_object(self, item: ManifestObject) -> ObjectResult:
        gvk = item.gvk
        rules = self.judge.registry.get(gvk)
        if rules is None:
            return self._not_validated(item)
        subresource = self.options.subresource
        old = self.old.find(item, rules)
        if subresource:
            if subresource not in rules.subresources:
                reason = f"{gvk.kind} has no {subresource} subresource"
                return ObjectResult.of(item, "error", message=reason)
            if old is None:
                reason = f"no old object matches {item.kind} {_who(item)}: a {subresource} update needs one"
                return ObjectResult.of(item, "error", message=reason)
        operation = "UPDATE" if old is not None else "CREATE"
        obj: Mapping[str, Any] = in_request_namespace(item.obj, rules, self.options.namespace)
        if old is not None:
            obj = server_filled_update(obj, old)
        try:
            judgement = self.judge.judge_object(
                rules,
                operation=operation,
                subresource=subresource if old is not None else "",
                obj=obj,
                old_obj=old,
            )
        except Exception as crash:  # a bug in a rule: say so loudly, keep going
            reason = f"internal error while validating: {type(crash).__name__}: {crash}"
            return ObjectResult.of(item, "error", operation=operation, message=reason)
        warnings = tuple(judgement.warnings)
        if not judgement.errors:
            return ObjectResult.of(item, "valid", operation=operation, warnings=warnings)
        return ObjectResult.of(
            item,
            "invalid",
            operation=operation,
            message=invalid_message(gvk.kind, DRA_GROUP, item.name, judgement.errors),
            causes=tuple(error.cause() for error in judgement.errors),
            warnings=warnings,
        )

    def _not_validated(self, item: ManifestObject) -> ObjectResult:
        gvk = item.gvk
        if gvk.group == DRA_GROUP:
            reason = f"{gvk} is not validated by dra-webhook"
        else:
            reason = f"{gvk} is not a {DRA_GROUP} object"
        if self.options.strict:
            return ObjectResult.of(item, "invalid", message=reason + " (--strict)")
        return ObjectResult.of(item, "skipped", message=reason)


def _who(item: ManifestObject) -> str:
    return f"{item.namespace}/{item.name}" if item.namespace else item.name


def _no_stdin() -> bytes:
    raise UnreadableInput(STDIN_NAME, "stdin is read once, by the main process")


# --- inputs, workers and progress -------------------------------------------------------------------------


def expand_paths(paths: Sequence[str], suffixes: Sequence[str]) -> list[str]:
    """Files as given, `-` as given, directories walked recursively in name order (hidden entries
    and files without one of `suffixes` left out). A path that does not exist is kept: reading it
    reports the error."""
    expanded: list[str] = []
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            for root, directories, files in os.walk(path):
                directories[:] = sorted(name for name in directories if not name.startswith("."))
                expanded.extend(
                    os.path.join(root, name)
                    for name in sorted(files)
                    if not name.startswith(".") and name.lower().endswith(tuple(suffixes))
                )
        else:
            expanded.append(path)
    return expanded


class Progress:
    """A progress line on stderr for long runs on a terminal; silent otherwise."""

    def __init__(self, stream: TextIO | None, *, total_files: int, noun: str) -> None:
        self.stream = stream
        self.total_files = total_files
        self.noun = noun
        self.files = 0
        self.items = 0
        self.started = time.monotonic()
        self.shown_at = 0.0
        self.shown = False

    def advance(self, items: int) -> None:
        self.files += 1
        self.items += items
        if self.stream is None:
            return
        now = time.monotonic()
        if now - self.started < PROGRESS_AFTER_SECONDS or now - self.shown_at < PROGRESS_EVERY_SECONDS:
            return
        rate = self.items / max(now - self.started, 1e-9)
        self.stream.write(
            f"\r\x1b[Kdra-webhook: {self.files}/{self.total_files} files, {self.items} {self.noun}"
            f" ({rate:.0f}/s)"
        )
        self.stream.flush()
        self.shown_at, self.shown = now, True

    def finish(self) -> None:
        if self.stream is not None and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


Task = tuple[str, bytes | None]  # an input path, and its content when it was read already (stdin)


ResultT = TypeVar("ResultT")


class InputJudge(Protocol[ResultT]):
    """What judges one input (a manifest file, a review file) into results in document order."""

    def judge_input(self, path: str, content: bytes | None = None) -> list[ResultT]: ...


def judge_in_order(
    judge: InputJudge[ResultT],
    tasks: Sequence[Task],
    *,
    jobs: int,
    build_worker_judge: Callable[[], InputJudge[ResultT]],
) -> Iterator[list[ResultT]]:
    """The results of every input, in input order: judged by `judge` in this process, or in `jobs`
    processes, each holding the judge `build_worker_judge` made for it when it started."""
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield judge.judge_input(*task)
        return
    chunk = max(1, min(32, len(tasks) // (jobs * 8)))
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(build_worker_judge,)
    ) as pool:
        yield from pool.map(_judge_in_worker, tasks, chunksize=chunk)


def read_stdin_once(paths: Sequence[str], read_stdin: Callable[[], bytes]) -> list[Task]:
    """Tasks for the inputs; stdin is read here, once, so that any process can judge it."""
    content: bytes | None = None
    tasks: list[Task] = []
    for path in paths:
        if path == STDIN:
            if content is None:
                content = read_stdin()
            tasks.append((path, content))
        else:
            tasks.append((path, None))
    return tasks


# Each worker process of a `-j N` run holds its judge here, set once by its initializer: a worker
# process has no caller to pass it down from.
_worker_judge: list[InputJudge[Any]] = []


def _start_worker(build_worker_judge: Callable[[], InputJudge[Any]]) -> None:
    _worker_judge[:] = [build_worker_judge()]


def _judge_in_worker(task: Task) -> list[Any]:
    return _worker_judge[0].judge_input(*task)


# --- reporting --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Counts for the summary line and the exit code."""

    files: int = 0
    valid: int = 0
    invalid: int = 0
    skipped: int = 0
    errors: int = 0

    @property
    def objects(self) -> int:
        return self.valid + self.invalid + self.skipped

    def add(self, status: str) -> None:
        if status in ("valid", "pass"):
            self.valid += 1
        elif status in ("invalid", "fail"):
            self.invalid += 1
        elif status == "skipped":
            self.skipped += 1
        else:
            self.errors += 1

    @property
    def exit_code(self) -> int:
        if self.errors:
            return EXIT_UNREADABLE
        return EXIT_FAILED if self.invalid else EXIT_OK


@dataclass(frozen=True, slots=True)
class Case:
    """One test case of a JUnit or TAP report: an object of `validate`, a review of `review`."""

    suite: str  # the input it came from
    name: str
    outcome: Literal["pass", "fail", "skip", "error"]
    message: str = ""
    details: tuple[str, ...] = ()  # lines: the causes of a denial, where an error was found


class Report(Protocol):
    def add(
        self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[str]
    ) -> None: ...

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None: ...


class TextReport:
    """Lines as they come (`claim.yaml: ResourceClaim.resource.k8s.io "x" is invalid: ...`)."""

    def __init__(self, out: TextIO, *, summary: bool) -> None:
        self.out = out
        self.summary = summary

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[str]) -> None:
        for line in lines:
            self.out.write(line + "\n")

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        if self.summary:
            self.out.write(summary_line + "\n")


class JsonReport:
    """One JSON document: `{"results": [...], "summary": {...}}`."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.items: list[Mapping[str, Any]] = []

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[str]) -> None:
        self.items.extend(items)

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        document = {"results": self.items, "summary": dict(summary)}
        self.out.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")


class TapReport:
    """TAP version 13, streamed, the plan at the end; details as YAML blocks."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0
        self.out.write("TAP version 13\n")

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[str]) -> None:
        for case in cases:
            self.count += 1
            title = " ".join(f"{case.suite} {case.name}".split()).replace("#", "\\#")
            ok = "ok" if case.outcome in ("pass", "skip") else "not ok"
            directive = f" # SKIP {case.message}" if case.outcome == "skip" else ""
            self.out.write(f"{ok} {self.count} - {title}{directive}\n")
            if case.outcome in ("fail", "error"):
                block: dict[str, Any] = {
                    "severity": "fail" if case.outcome == "fail" else "error",
                    "message": case.message,
                }
                if case.details:
                    block["details"] = list(case.details)
                body = yaml.safe_dump(block, sort_keys=False, allow_unicode=True, width=10_000)
                self.out.write("  ---\n" + "".join(f"  {line}\n" for line in body.splitlines()) + "  ...\n")

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        self.out.write(f"1..{self.count}\n# {summary_line}\n")


class JUnitReport:
    """JUnit XML: one <testsuite> per input, one <testcase> per object or review."""

    def __init__(self, out: TextIO, *, title: str) -> None:
        self.out = out
        self.title = title
        self.suites: dict[str, list[Case]] = {}

    def add(self, cases: Sequence[Case], items: Sequence[Mapping[str, Any]], lines: Sequence[str]) -> None:
        for case in cases:
            self.suites.setdefault(case.suite, []).append(case)

    def finish(self, summary: Mapping[str, int], summary_line: str) -> None:
        root = ElementTree.Element("testsuites", name=self.title)
        totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
        for suite_name, cases in self.suites.items():
            counts = {
                "tests": len(cases),
                "failures": sum(case.outcome == "fail" for case in cases),
                "errors": sum(case.outcome == "error" for case in cases),
                "skipped": sum(case.outcome == "skip" for case in cases),
            }
            suite = ElementTree.SubElement(root, "testsuite", {"name": _xml_safe(suite_name)})
            for key, value in counts.items():
                suite.set(key, str(value))
            for case in cases:
                element = ElementTree.SubElement(
                    suite, "testcase", classname=_xml_safe(suite_name), name=_xml_safe(case.name)
                )
                if case.outcome != "pass":
                    tag = {"fail": "failure", "error": "error", "skip": "skipped"}[case.outcome]
                    result = ElementTree.SubElement(element, tag, message=_xml_safe(case.message))
                    if case.outcome != "skip":
                        result.set("type", "Invalid" if case.outcome == "fail" else "Error")
                    if case.details:
                        result.text = _xml_safe("\n".join(case.details))
            for key, value in counts.items():
                totals[key] += value
        for key, value in totals.items():
            root.set(key, str(value))
        ElementTree.indent(root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ElementTree.tostring(root, encoding="unicode") + "\n")


_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot carry most control characters, even escaped."""
    return _XML_FORBIDDEN.sub("\ufffd", text)


def make_report(output: str, out: TextIO, *, summary: bool, title: str) -> Report:
    if output == "json":
        return JsonReport(out)
    if output == "junit":
        return JUnitReport(out, title=title)
    if output == "tap":
        return TapReport(out)
    return TextReport(out, summary=summary)


# --- dra-webhook validate ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ValidateRun:
    """`dra-webhook validate`, as its flags asked for it."""

    inputs: tuple[str, ...]
    old: tuple[str, ...] = ()
    options: ValidateOptions = field(default_factory=ValidateOptions)
    output: str = "text"
    summary: bool = False
    verbose: bool = False
    jobs: int = 1


def run_validate(
    run: ValidateRun,
    *,
    out: TextIO,
    err: TextIO,
    read_stdin: Callable[[], bytes],
    progress: TextIO | None = None,
) -> int:
    """Judge every object of the inputs; write the report to `out`; return the exit code."""
    judge = Judge.build(run.options.policy)
    old, old_problems = load_old_objects(
        run.old, judge=judge, read_stdin=read_stdin, request_namespace=run.options.namespace
    )
    for problem in old_problems:
        err.write(f"{problem} (in --old)\n")
    if old_problems:
        return EXIT_UNREADABLE
    if run.options.subresource and not run.old:
        err.write(
            f"--subresource {run.options.subresource} judges updates: give the old objects with --old\n"
        )
        return EXIT_UNREADABLE
    paths = expand_paths(run.inputs, MANIFEST_SUFFIXES)
    tasks = read_stdin_once(paths, read_stdin)
    manifest_judge = ManifestJudge(judge, run.options, old)
    report = make_report(run.output, out, summary=run.summary, title="dra-webhook validate")
    tally = Tally()
    meter = Progress(progress, total_files=len(tasks), noun="objects")
    try:
        for results in judge_in_order(
            manifest_judge,
            tasks,
            jobs=run.jobs,
            build_worker_judge=functools.partial(ManifestJudge.build, run.options, old),
        ):
            tally.files += 1
            for result in results:
                tally.add(result.status)
            meter.advance(len(results))
            report.add(
                [_object_case(result) for result in results],
                [result.as_json() for result in results],
                [line for result in results for line in _object_lines(result, verbose=run.verbose)],
            )
    finally:
        meter.finish()
    summary_line = validate_summary_line(tally)
    report.finish(_validate_summary(tally), summary_line)
    if run.summary and run.output != "text":
        err.write(summary_line + "\n")
    return tally.exit_code


def _validate_summary(tally: Tally) -> dict[str, int]:
    return {
        "files": tally.files,
        "objects": tally.objects,
        "valid": tally.valid,
        "invalid": tally.invalid,
        "skipped": tally.skipped,
        "errors": tally.errors,
    }


def validate_summary_line(tally: Tally) -> str:
    return (
        f"Summary: {_count(tally.objects, 'object')} in {_count(tally.files, 'file')}: {tally.valid} valid, "
        f"{tally.invalid} invalid, {tally.skipped} skipped, {_count(tally.errors, 'error')}"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _object_lines(result: ObjectResult, *, verbose: bool) -> list[str]:
    lines = []
    if result.status == "invalid" and result.kind and result.message.startswith(result.kind + "."):
        lines.append(f"{result.source}: {result.message}")
    elif result.status == "invalid":
        lines.append(f"{result.source}: {result.title}: {result.message}")
    elif result.status == "error":
        lines.append(f"{result.location}: {_object_prefix(result)}{result.message}")
    elif verbose and result.status == "valid":
        lines.append(f"{result.source}: {result.kind}.{DRA_GROUP} {go_quote(result.name)} is valid")
    elif verbose:
        lines.append(f"{result.source}: {result.title} skipped: {result.message}")
    lines.extend(f"{result.source}: Warning: {warning}" for warning in result.warnings)
    return lines


def _object_prefix(result: ObjectResult) -> str:
    return f"{result.title}: " if result.kind else ""


def _object_case(result: ObjectResult) -> Case:
    name = result.title if result.kind else f"line {result.line}" if result.line else "input"
    outcome: Literal["pass", "fail", "skip", "error"] = {
        "valid": "pass",
        "invalid": "fail",
        "skipped": "skip",
        "error": "error",
    }[result.status]  # type: ignore[assignment]
    details = tuple(f"{cause['field']}: {cause['message']}" for cause in result.causes)
    if result.status == "error":
        details = (f"{result.location}: {result.message}",)
    return Case(result.source, name, outcome, result.message, details)


# --- review: expectations ---------------------------------------------------------------------------------

_EXPECTATION_KEYS: Final = frozenset(
    {
        "allowed",
        "code",
        "reason",
        "message",
        "message_contains",
        "causes",
        "causes_exact",
        "warnings_contain",
    }
)
_CAUSE_KEYS: Final = frozenset({"field", "reason", "message"})
_TEST_KEYS: Final = frozenset(
    {"name", "review", "object", "old_object", "operation", "subresource", "expect"}
)
_EXPECT_SELECTOR_KEYS: Final = frozenset({"file", "uid"})


class SuiteError(ValueError):
    """A suite or expectation file that does not follow the documented format."""


@dataclass(frozen=True, slots=True)
class CauseExpectation:
    field: str | None = None
    reason: str | None = None
    message: str | None = None

    def matches(self, cause: Mapping[str, Any]) -> bool:
        return all(
            expected is None or cause.get(key) == expected
            for key, expected in (("field", self.field), ("reason", self.reason), ("message", self.message))
        )

    def __str__(self) -> str:
        parts = [
            f"{key}={value!r}"
            for key, value in (("field", self.field), ("reason", self.reason), ("message", self.message))
            if value is not None
        ]
        return "{" + ", ".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class Expectation:
    """What a review's answer must say. Only the keys that are given are checked."""

    allowed: bool | None = None
    code: int | None = None
    reason: str | None = None
    message: str | None = None
    message_contains: tuple[str, ...] = ()
    causes: tuple[CauseExpectation, ...] = ()
    causes_exact: bool = False
    warnings_contain: tuple[str, ...] = ()

    def problems(self, response: Mapping[str, Any]) -> list[str]:
        """Every way the AdmissionReview `response` misses this expectation (none: met)."""
        status = mapping(response.get("status"))
        allowed = response.get("allowed") is True
        code = int(status.get("code", 200)) if status else 200
        message = text(status.get("message"))
        details = mapping(status.get("details"))
        causes = [cause for cause in details.get("causes") or () if isinstance(cause, Mapping)]
        warnings = [warning for warning in response.get("warnings") or () if isinstance(warning, str)]

        problems = []
        if self.allowed is not None and self.allowed != allowed:
            said = f": {message}" if message else ""
            problems.append(f"allowed: expected {_yaml_bool(self.allowed)}, got {_yaml_bool(allowed)}{said}")
        if self.code is not None and self.code != code:
            problems.append(f"code: expected {self.code}, got {code}")
        if self.reason is not None and self.reason != text(status.get("reason")):
            problems.append(f"reason: expected {self.reason!r}, got {text(status.get('reason'))!r}")
        if self.message is not None and self.message != message:
            problems.append(f"message: expected {self.message!r}, got {message!r}")
        problems.extend(
            f"message does not contain {part!r}: {message!r}"
            for part in self.message_contains
            if part not in message
        )
        problems.extend(self._cause_problems(causes))
        problems.extend(
            f"no warning contains {part!r}"
            for part in self.warnings_contain
            if not any(part in w for w in warnings)
        )
        return problems

    def _cause_problems(self, causes: Sequence[Mapping[str, Any]]) -> list[str]:
        got = ", ".join(f"{cause.get('field')} ({cause.get('reason')})" for cause in causes) or "none"
        if self.causes_exact:
            if len(causes) != len(self.causes) or not all(
                expected.matches(cause) for expected, cause in zip(self.causes, causes, strict=False)
            ):
                wanted = ", ".join(str(expected) for expected in self.causes) or "none"
                return [f"causes: expected exactly [{wanted}], got [{got}]"]
            return []
        return [
            f"no cause matches {expected}; causes: [{got}]"
            for expected in self.causes
            if not any(expected.matches(cause) for cause in causes)
        ]


ALLOWED: Final = Expectation(allowed=True)


def _yaml_bool(value: bool) -> str:
    return "true" if value else "false"


def parse_expectation(raw: Any, where: str, *, extra_keys: frozenset[str] = frozenset()) -> Expectation:
    if not isinstance(raw, Mapping):
        raise SuiteError(f"{where}: expected a mapping of expectations")
    unknown = sorted(set(raw) - _EXPECTATION_KEYS - extra_keys)
    if unknown:
        raise SuiteError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_EXPECTATION_KEYS))})"
        )
    return Expectation(
        allowed=_typed(raw, "allowed", bool, where),
        code=_typed(raw, "code", int, where),
        reason=_typed(raw, "reason", str, where),
        message=_typed(raw, "message", str, where),
        message_contains=_strings(raw.get("message_contains"), f"{where}.message_contains"),
        causes=tuple(
            _parse_cause(cause, f"{where}.causes[{index}]")
            for index, cause in enumerate(_list(raw.get("causes"), f"{where}.causes"))
        ),
        causes_exact=_typed(raw, "causes_exact", bool, where) or False,
        warnings_contain=_strings(raw.get("warnings_contain"), f"{where}.warnings_contain"),
    )


def _parse_cause(raw: Any, where: str) -> CauseExpectation:
    if not isinstance(raw, Mapping) or not raw:
        raise SuiteError(f"{where}: expected a mapping with field, reason and/or message")
    unknown = sorted(set(raw) - _CAUSE_KEYS)
    if unknown:
        raise SuiteError(f"{where}: unknown key {unknown[0]!r} (known: field, message, reason)")
    return CauseExpectation(
        field=_typed(raw, "field", str, where),
        reason=_typed(raw, "reason", str, where),
        message=_typed(raw, "message", str, where),
    )


def _typed(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SuiteError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise SuiteError(f"{where}: expected a string or a list of strings")


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SuiteError(f"{where}: expected a list")
    return value


@dataclass(frozen=True, slots=True)
class ExpectationRule:
    """One entry of an `--expect` file: which reviews it is for, and what they must get."""

    origin: str
    expect: Expectation
    file: str | None = None
    uid: str | None = None

    def matches(self, source: str, uid: str) -> bool:
        if self.uid is not None and self.uid != uid:
            return False
        if self.file is not None:
            return fnmatch.fnmatchcase(source, self.file) or fnmatch.fnmatchcase(
                os.path.basename(source), self.file
            )
        return True


def load_expectation_rules(path: str, content: bytes) -> list[ExpectationRule]:
    """An `--expect` file: `expect: [{file: GLOB, uid: UID, <expectation keys>}, ...]`."""
    read = read_documents(path, content)
    if read.error is not None:
        raise SuiteError(str(read.error))
    rules: list[ExpectationRule] = []
    for document in read.documents:
        if document.data is None:
            continue
        if not isinstance(document.data, Mapping) or set(document.data) != {"expect"}:
            raise SuiteError(f"{path}:{document.line}: an expectation file holds one key, expect: [...]")
        for index, entry in enumerate(_list(document.data["expect"], f"{path}: expect")):
            where = f"{path}: expect[{index}]"
            if not isinstance(entry, Mapping):
                raise SuiteError(f"{where}: expected a mapping")
            if not _EXPECT_SELECTOR_KEYS & set(entry):
                raise SuiteError(f"{where}: needs file (a glob) or uid to say which reviews it is for")
            rules.append(
                ExpectationRule(
                    origin=where,
                    expect=parse_expectation(entry, where, extra_keys=_EXPECT_SELECTOR_KEYS),
                    file=_typed(entry, "file", str, where),
                    uid=_typed(entry, "uid", str, where),
                )
            )
    return rules


# --- review: judging files and suites ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JudgedReview:
    """One review judged (or found unreadable), with the suite's expectation if it came from one."""

    source: str
    line: int
    name: str
    uid: str = ""
    answer: Mapping[str, Any] | None = None
    error: str = ""
    from_suite: bool = False
    expect: Expectation | None = None


class ReviewJudge:
    """Reads review files and suites and judges every AdmissionReview in them."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    @classmethod
    def build(cls, policy: PolicySettings) -> ReviewJudge:
        return cls(Judge.build(policy))

    def judge_input(self, path: str, content: bytes | None = None) -> list[JudgedReview]:
        source = display_name(path)
        try:
            data = content if content is not None else read_input(path, _no_stdin)
        except UnreadableInput as problem:
            return [JudgedReview(source, 0, source, error=problem.reason)]
        read = read_documents(source, data)
        judged: list[JudgedReview] = []
        several = len(read.documents) > 1
        for document in read.documents:
            if document.data is None:
                continue
            name = f"{source}:{document.line}" if several else source
            if _is_suite(document.data):
                judged.extend(self.judge_suite(source, document))
            else:
                judged.append(self.judge_review(source, document.line, name, document.data))
        if read.error is not None:
            judged.append(JudgedReview(source, read.error.line, source, error=_review_read_error(read)))
        return judged

    def judge_review(self, source: str, line: int, name: str, document: Any) -> JudgedReview:
        try:
            parsed = parse_review(document if isinstance(document, Mapping) else orjson.dumps(document))
        except UnreadableReview as unreadable:
            return JudgedReview(source, line, name, error=unreadable.reason)
        answer = review_response(parsed, self.judge.judge(parsed.request))
        return JudgedReview(source, line, name, uid=parsed.request.uid, answer=answer)

    def judge_suite(self, source: str, document: Document) -> list[JudgedReview]:
        tests = document.data.get("tests")
        base = Path(source).parent if source != STDIN_NAME else Path()
        if not isinstance(tests, list):
            return [
                JudgedReview(
                    source, document.line, source, error="tests: expected a list of tests", from_suite=True
                )
            ]
        judged: list[JudgedReview] = []
        for index, test in enumerate(tests):
            where = f"tests[{index}]"
            name = test.get("name") if isinstance(test, Mapping) else None
            title = name if isinstance(name, str) and name else where
            try:
                expect, reviews = self._suite_test(test, where, base)
            except (SuiteError, UnreadableInput) as problem:
                judged.append(JudgedReview(source, document.line, title, error=str(problem), from_suite=True))
                continue
            for number, (line, review) in enumerate(reviews, start=1):
                case = f"{title} [{number}/{len(reviews)}]" if len(reviews) > 1 else title
                judged_review = self.judge_review(source, line or document.line, case, review)
                judged.append(dataclasses.replace(judged_review, from_suite=True, expect=expect))
        return judged

    def _suite_test(self, test: Any, where: str, base: Path) -> tuple[Expectation, list[tuple[int, Any]]]:
        if not isinstance(test, Mapping):
            raise SuiteError(f"{where}: expected a mapping")
        unknown = sorted(set(test) - _TEST_KEYS)
        if unknown:
            raise SuiteError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_TEST_KEYS))})")
        if ("review" in test) == ("object" in test):
            raise SuiteError(f"{where}: give either review (an AdmissionReview) or object (a manifest)")
        # A test that expects nothing must be allowed, as a plain review must.
        expect = parse_expectation(test["expect"], f"{where}.expect") if "expect" in test else ALLOWED
        if "review" in test:
            return expect, self._documents(test["review"], f"{where}.review", base)
        return expect, [(0, self._review_of_object(test, where, base))]

    def _documents(self, value: Any, where: str, base: Path) -> list[tuple[int, Any]]:
        """An inline document, or every document of the file a string names (relative to the suite)."""
        if not isinstance(value, str):
            return [(0, value)]
        path = str(base / value)
        read = read_documents(path, read_input(path, _no_stdin))
        if read.error is not None:
            raise read.error
        documents = [
            (document.line, document.data) for document in read.documents if document.data is not None
        ]
        if not documents:
            raise SuiteError(f"{where}: {path} holds no document")
        return documents

    def _review_of_object(self, test: Mapping[str, Any], where: str, base: Path) -> dict[str, Any]:
        """An AdmissionReview built around manifests as a client sends them (in the "default"
        namespace unless they name one): CREATE, or UPDATE when old_object is given."""
        obj = self._single_object(test["object"], f"{where}.object", base)
        old = (
            self._single_object(test["old_object"], f"{where}.old_object", base)
            if "old_object" in test
            else None
        )
        operation = _typed(test, "operation", str, where) or ("UPDATE" if old is not None else "CREATE")
        kind = text(obj.get("kind"))
        group, _, version = text(obj.get("apiVersion")).rpartition("/")
        rules = self.judge.registry.get(GroupVersionKind(group, version, kind))
        if rules is not None:
            obj = in_request_namespace(obj, rules, DEFAULT_NAMESPACE)
            old = in_request_namespace(old, rules, DEFAULT_NAMESPACE) if old is not None else None
        if old is not None:
            obj = server_filled_update(obj, old)
        request: dict[str, Any] = {
            "uid": f"dra-webhook-suite-{where}",
            "kind": {"group": group, "version": version, "kind": kind},
            "resource": {"group": group, "version": version, "resource": rules.resource if rules else ""},
            "name": text(mapping(obj.get("metadata")).get("name")),
            "namespace": text(mapping(obj.get("metadata")).get("namespace")),
            "operation": operation,
            "object": obj,
        }
        subresource = _typed(test, "subresource", str, where)
        if subresource:
            request["subResource"] = subresource
        if old is not None:
            request["oldObject"] = old
        return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}

    def _single_object(self, value: Any, where: str, base: Path) -> dict[str, Any]:
        objects = []
        for line, data in self._documents(value, where, base):
            for item in _expand(where, line, data, where=""):
                if isinstance(item, UnreadableInput):
                    raise SuiteError(f"{where}: {item.reason}")
                objects.append(item.obj)
        if len(objects) != 1:
            raise SuiteError(f"{where}: expected one object, found {len(objects)}")
        return objects[0]


def _is_suite(data: Any) -> bool:
    return isinstance(data, Mapping) and "tests" in data and "request" not in data


def _review_read_error(read: ReadResult) -> str:
    error = read.error
    assert error is not None
    if read.syntax == "json":
        # The same words as the server's 400 for a body that is not JSON, with where it broke.
        detail = error.reason.removeprefix("invalid JSON: ")
        return f"request body is not valid JSON: {detail}: line {error.line} column {error.column}"
    return str(
        error.reason if not error.line else f"{error.reason} (line {error.line}, column {error.column})"
    )


# --- review: outcomes and the run -------------------------------------------------------------------------

ReviewStatus = Literal["pass", "fail", "error"]


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    judged: JudgedReview
    status: ReviewStatus
    expected: bool  # an expectation applied (else: pass means allowed, fail means denied)
    problems: tuple[str, ...] = ()

    @property
    def response(self) -> Mapping[str, Any]:
        return mapping(mapping(self.judged.answer).get("response"))

    def line(self) -> str:
        judged = self.judged
        if self.status == "error":
            where = location(judged.source, judged.line)
            title = (
                f"{where} ({judged.name})" if judged.from_suite and judged.name != judged.source else where
            )
            return f"ERROR {title}: {judged.error}"
        if self.expected:
            return (
                f"PASS {judged.name}"
                if self.status == "pass"
                else f"FAIL {judged.name}: " + "; ".join(self.problems)
            )
        if self.status == "pass":
            return f"ALLOWED {judged.name}"
        return f"DENIED {judged.name}: {self._denial()}"

    def _denial(self) -> str:
        return text(mapping(self.response.get("status")).get("message"))

    def case(self) -> Case:
        judged = self.judged
        if self.status == "error":
            return Case(judged.source, judged.name, "error", judged.error)
        if self.status == "pass":
            return Case(judged.source, judged.name, "pass")
        message = "; ".join(self.problems) if self.expected else f"denied: {self._denial()}"
        return Case(judged.source, judged.name, "fail", message, _cause_lines(self.response))

    def as_json(self) -> dict[str, Any]:
        judged = self.judged
        result: dict[str, Any] = {
            "source": judged.source,
            "line": judged.line,
            "name": judged.name,
            "status": self.status,
            "expected": self.expected,
        }
        if judged.uid:
            result["uid"] = judged.uid
        if judged.error:
            result["error"] = judged.error
        if self.problems:
            result["problems"] = list(self.problems)
        if judged.answer is not None:
            result["answer"] = judged.answer
        return result


def _cause_lines(response: Mapping[str, Any]) -> tuple[str, ...]:
    causes = mapping(mapping(response.get("status")).get("details")).get("causes")
    if not isinstance(causes, list):
        return ()
    return tuple(
        f"{cause.get('field')}: {cause.get('message')}" for cause in causes if isinstance(cause, Mapping)
    )


def evaluate(judged: JudgedReview, rules: Sequence[ExpectationRule], used: set[int]) -> ReviewOutcome:
    """Hold one judged review against its expectation: the suite's, else the first `--expect`
    rule that matches it, else "must be allowed"."""
    if judged.error:
        return ReviewOutcome(judged, "error", judged.from_suite)
    response = mapping(mapping(judged.answer).get("response"))
    expect = judged.expect
    if expect is None and not judged.from_suite:
        for index, rule in enumerate(rules):
            if rule.matches(judged.source, judged.uid):
                used.add(index)
                expect = rule.expect
                break
    if expect is None and not judged.from_suite:
        return ReviewOutcome(judged, "pass" if response.get("allowed") is True else "fail", False)
    problems = (expect or Expectation()).problems(response)
    return ReviewOutcome(judged, "fail" if problems else "pass", True, tuple(problems))


@dataclass(frozen=True, slots=True)
class ReviewRun:
    """`dra-webhook review`, as its flags asked for it."""

    inputs: tuple[str, ...]
    expect: tuple[str, ...] = ()
    policy: PolicySettings = field(default_factory=PolicySettings)
    output: str | None = None  # None: answers, or text when there are expectations or suites
    compact: bool = False
    summary: bool = False
    jobs: int = 1


def run_review(
    run: ReviewRun,
    *,
    out: TextIO,
    err: TextIO,
    read_stdin: Callable[[], bytes],
    progress: TextIO | None = None,
) -> int:
    """Judge every review of the inputs, hold them against their expectations, report, exit code."""
    rules: list[ExpectationRule] = []
    for path in run.expect:
        try:
            rules.extend(load_expectation_rules(display_name(path), read_input(path, read_stdin)))
        except (SuiteError, UnreadableInput) as problem:
            err.write(f"{problem}\n")
            return EXIT_UNREADABLE
    # An expectation file kept beside the reviews it is for is not itself a review.
    expect_files = {os.path.realpath(path) for path in run.expect if path != STDIN}
    paths = [
        path
        for path in expand_paths(run.inputs, REVIEW_SUFFIXES)
        if path == STDIN or os.path.realpath(path) not in expect_files
    ]
    tasks = read_stdin_once(paths, read_stdin)
    review_judge = ReviewJudge.build(run.policy)
    answers = ReviewAnswers(out, err, compact=run.compact)
    output = run.output
    tally = Tally()
    used: set[int] = set()
    meter = Progress(progress, total_files=len(tasks), noun="reviews")
    report: Report | None = (
        None
        if output in (None, "answers")
        else make_report(output, out, summary=run.summary, title="dra-webhook review")
    )
    pending: list[ReviewOutcome] = []  # the default output decides answers-or-text on the first suite
    try:
        for judged_reviews in judge_in_order(
            review_judge,
            tasks,
            jobs=run.jobs,
            build_worker_judge=functools.partial(ReviewJudge.build, run.policy),
        ):
            meter.advance(len(judged_reviews))
            tally.files += 1
            outcomes = [evaluate(judged, rules, used) for judged in judged_reviews]
            for outcome in outcomes:
                tally.add(outcome.status)
            if output is None:
                pending.extend(outcomes)
                if rules or any(outcome.judged.from_suite for outcome in outcomes):
                    output = "text"
                    report = make_report(output, out, summary=run.summary, title="dra-webhook review")
                    _add_outcomes(report, pending)
                    pending = []
                continue
            if report is None:
                answers.add(outcomes)
            else:
                _add_outcomes(report, outcomes)
    finally:
        meter.finish()
    if pending:
        answers.add(pending)
    unused = [
        ReviewOutcome(JudgedReview(rule.origin, 0, rule.origin), "fail", True, ("matched no review",))
        for index, rule in enumerate(rules)
        if index not in used
    ]
    for outcome in unused:
        tally.add(outcome.status)
    if report is not None:
        _add_outcomes(report, unused)
    else:
        answers.add(unused)
    summary_line = review_summary_line(tally)
    if report is not None:
        report.finish(_review_summary(tally), summary_line)
    if run.summary and output != "text":
        err.write(summary_line + "\n")
    return tally.exit_code


def _add_outcomes(report: Report, outcomes: Sequence[ReviewOutcome]) -> None:
    report.add(
        [outcome.case() for outcome in outcomes],
        [outcome.as_json() for outcome in outcomes],
        [outcome.line() for outcome in outcomes],
    )


class ReviewAnswers:
    """The `answers` output: each AdmissionReview answer as JSON on `out`, problems on `err`."""

    def __init__(self, out: TextIO, err: TextIO, *, compact: bool) -> None:
        self.out = out
        self.err = err
        self.option = 0 if compact else orjson.OPT_INDENT_2

    def add(self, outcomes: Iterable[ReviewOutcome]) -> None:
        for outcome in outcomes:
            judged = outcome.judged
            if judged.answer is not None:
                self.out.write(orjson.dumps(judged.answer, option=self.option).decode() + "\n")
            if outcome.status == "error":
                where = location(judged.source, judged.line if judged.from_suite else 0)
                self.err.write(f"{where}: {judged.error}\n")
            elif outcome.expected and outcome.status == "fail":
                self.err.write(outcome.line() + "\n")


def _review_summary(tally: Tally) -> dict[str, int]:
    return {
        "files": tally.files,
        "reviews": tally.objects,
        "passed": tally.valid,
        "failed": tally.invalid,
        "errors": tally.errors,
    }


def review_summary_line(tally: Tally) -> str:
    return (
        f"Summary: {_count(tally.objects + tally.errors, 'review')} in {_count(tally.files, 'file')}: "
        f"{tally.valid} passed, {tally.invalid} failed, {_count(tally.errors, 'error')}"
    )
