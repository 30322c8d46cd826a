"""The declarations of the CEL environments Kubernetes 1.30 compiles DRA selectors in.

`k8s.io/dynamic-resource-allocation/structured/namedresources/cel/compile.go` (1.30) builds its
`EnvSet` from `environment.MustBaseEnvSet(DefaultCompatibilityVersion())` -- compatibility 1.29 --
extended with the `attributes.*` variables and its semver library. The base set
(`k8s.io/apiserver/pkg/cel/environment/base.go`, 1.30) is, by the version each option arrived in:

* 1.0: the CEL standard library, homogeneous aggregate literals, UTC time zone default, the
  Kubernetes URL, regex and list libraries; (ext.Strings v0 until 1.29)
* 1.27: the authorization library;  1.28: cross-type numeric comparisons, optional types, the
  quantity library;  1.29: the duration/timestamp/regex/homogeneous-literal AST validators,
  ext.Strings v2, ext.Sets;  1.30: the IP and CIDR libraries.

The *NewExpressions* environment holds what was introduced at or before 1.29, the
*StoredExpressions* environment everything (so it adds IP and CIDR). Signatures are cel-go's and
Kubernetes' own (`common/stdlib`, `cel/library.go`, `ext/strings.go`, `ext/sets.go`,
`apiserver/pkg/cel/library/*.go`, `namedresources/cel/semverlib.go`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from webhook.celgo import types as t
from webhook.celgo.parser import SYNTAX_V0_17, Syntax
from webhook.celgo.types import CelType, type_params_of


@dataclass(frozen=True, slots=True)
class Overload:
    id: str
    args: tuple[CelType, ...]
    result: CelType
    member: bool
    type_params: tuple[str, ...]


def overload(overload_id: str, args: list[CelType], result: CelType, *, member: bool = False) -> Overload:
    names: list[str] = []
    for arg in (*args, result):
        type_params_of(arg, names)
    return Overload(overload_id, tuple(args), result, member, tuple(names))


def member(overload_id: str, args: list[CelType], result: CelType) -> Overload:
    return overload(overload_id, args, result, member=True)


@dataclass(slots=True)
class Function:
    name: str
    overloads: list[Overload] = field(default_factory=list)

    def merge(self, more: list[Overload]) -> None:
        known = {o.id for o in self.overloads}
        self.overloads += [o for o in more if o.id not in known]


@dataclass(slots=True)
class Environment:
    """The identifiers and functions one CEL environment declares."""

    idents: dict[str, CelType] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    # Object types the environment's type provider declares: name -> field -> type.
    structs: dict[str, dict[str, CelType]] = field(default_factory=dict)
    # How expressions are parsed (cel-go version, macro libraries).
    syntax: Syntax = SYNTAX_V0_17
    # Whether ext.Strings validates `format` calls at compile time (cel-go v0.20 on: 1.31, 1.37).
    string_format_validator: bool = False
    # Whether regular expressions take Go 1.25's ``\\p{...}`` names (aliases, any case): Kubernetes
    # 1.37 builds with Go 1.26; 1.30 and 1.31 with Go 1.22 (`webhook.celgo.goregexp`).
    regexp_unicode_aliases: bool = False

    def add_function(self, name: str, *overloads: Overload) -> None:
        self.functions.setdefault(name, Function(name)).merge(list(overloads))

    def add_ident(self, name: str, type_: CelType) -> None:
        self.idents[name] = type_


A, B = t.param("A"), t.param("B")
LIST_A, MAP_AB = t.list_of(A), t.map_of(A, B)
BOOL, BYTES, DOUBLE, DURATION, INT = t.BOOL, t.BYTES, t.DOUBLE, t.DURATION, t.INT
STRING, TIMESTAMP, UINT, DYN = t.STRING, t.TIMESTAMP, t.UINT, t.DYN


def _relations(prefix: str) -> list[Overload]:
    """The overloads of one ordering operator: `<prefix>_<type>` for every pair of comparable types."""
    pairs = [
        ("bool", BOOL, BOOL), ("int64", INT, INT), ("int64_double", INT, DOUBLE),
        ("int64_uint64", INT, UINT), ("uint64", UINT, UINT), ("uint64_double", UINT, DOUBLE),
        ("uint64_int64", UINT, INT), ("double", DOUBLE, DOUBLE), ("double_int64", DOUBLE, INT),
        ("double_uint64", DOUBLE, UINT), ("string", STRING, STRING), ("bytes", BYTES, BYTES),
        ("timestamp", TIMESTAMP, TIMESTAMP), ("duration", DURATION, DURATION),
    ]  # fmt: skip
    return [overload(f"{prefix}_{suffix}", [left, right], BOOL) for suffix, left, right in pairs]


def _standard(env: Environment) -> None:
    """cel-go's standard library (common/stdlib/standard.go)."""
    standard_types = (
        BOOL,
        BYTES,
        DOUBLE,
        DURATION,
        INT,
        LIST_A,
        MAP_AB,
        t.NULL,
        STRING,
        TIMESTAMP,
        t.TYPE,
        UINT,
    )
    for type_ in standard_types:
        env.add_ident(type_.name, t.type_of(type_))
    fn = env.add_function
    fn("_?_:_", overload("conditional", [BOOL, A, A], A))
    fn("_&&_", overload("logical_and", [BOOL, BOOL], BOOL))
    fn("_||_", overload("logical_or", [BOOL, BOOL], BOOL))
    fn("!_", overload("logical_not", [BOOL], BOOL))
    fn("@not_strictly_false", overload("not_strictly_false", [BOOL], BOOL))
    fn("_==_", overload("equals", [A, A], BOOL))
    fn("_!=_", overload("not_equals", [A, A], BOOL))
    fn(
        "_+_",
        overload("add_bytes", [BYTES, BYTES], BYTES),
        overload("add_double", [DOUBLE, DOUBLE], DOUBLE),
        overload("add_duration_duration", [DURATION, DURATION], DURATION),
        overload("add_duration_timestamp", [DURATION, TIMESTAMP], TIMESTAMP),
        overload("add_timestamp_duration", [TIMESTAMP, DURATION], TIMESTAMP),
        overload("add_int64", [INT, INT], INT),
        overload("add_list", [LIST_A, LIST_A], LIST_A),
        overload("add_string", [STRING, STRING], STRING),
        overload("add_uint64", [UINT, UINT], UINT),
    )
    fn(
        "_/_",
        overload("divide_double", [DOUBLE, DOUBLE], DOUBLE),
        overload("divide_int64", [INT, INT], INT),
        overload("divide_uint64", [UINT, UINT], UINT),
    )
    fn("_%_", overload("modulo_int64", [INT, INT], INT), overload("modulo_uint64", [UINT, UINT], UINT))
    fn(
        "_*_",
        overload("multiply_double", [DOUBLE, DOUBLE], DOUBLE),
        overload("multiply_int64", [INT, INT], INT),
        overload("multiply_uint64", [UINT, UINT], UINT),
    )
    fn("-_", overload("negate_double", [DOUBLE], DOUBLE), overload("negate_int64", [INT], INT))
    fn(
        "_-_",
        overload("subtract_double", [DOUBLE, DOUBLE], DOUBLE),
        overload("subtract_duration_duration", [DURATION, DURATION], DURATION),
        overload("subtract_int64", [INT, INT], INT),
        overload("subtract_timestamp_duration", [TIMESTAMP, DURATION], TIMESTAMP),
        overload("subtract_timestamp_timestamp", [TIMESTAMP, TIMESTAMP], DURATION),
        overload("subtract_uint64", [UINT, UINT], UINT),
    )
    fn("_<_", *_relations("less"))
    fn("_<=_", *_relations("less_equals"))
    fn("_>_", *_relations("greater"))
    fn("_>=_", *_relations("greater_equals"))
    fn("_[_]", overload("index_list", [LIST_A, INT], A), overload("index_map", [MAP_AB, A], B))
    fn("@in", overload("in_list", [A, LIST_A], BOOL), overload("in_map", [A, MAP_AB], BOOL))
    fn(
        "size",
        overload("size_bytes", [BYTES], INT),
        member("bytes_size", [BYTES], INT),
        overload("size_list", [LIST_A], INT),
        member("list_size", [LIST_A], INT),
        overload("size_map", [MAP_AB], INT),
        member("map_size", [MAP_AB], INT),
        overload("size_string", [STRING], INT),
        member("string_size", [STRING], INT),
    )
    fn("type", overload("type", [A], t.type_of(A)))
    fn("bool", overload("bool_to_bool", [BOOL], BOOL), overload("string_to_bool", [STRING], BOOL))
    fn("bytes", overload("bytes_to_bytes", [BYTES], BYTES), overload("string_to_bytes", [STRING], BYTES))
    fn(
        "double",
        overload("double_to_double", [DOUBLE], DOUBLE),
        overload("int64_to_double", [INT], DOUBLE),
        overload("string_to_double", [STRING], DOUBLE),
        overload("uint64_to_double", [UINT], DOUBLE),
    )
    fn(
        "duration",
        overload("duration_to_duration", [DURATION], DURATION),
        overload("int64_to_duration", [INT], DURATION),
        overload("string_to_duration", [STRING], DURATION),
    )
    fn("dyn", overload("to_dyn", [A], DYN))
    fn(
        "int",
        overload("int64_to_int64", [INT], INT),
        overload("double_to_int64", [DOUBLE], INT),
        overload("duration_to_int64", [DURATION], INT),
        overload("string_to_int64", [STRING], INT),
        overload("timestamp_to_int64", [TIMESTAMP], INT),
        overload("uint64_to_int64", [UINT], INT),
    )
    fn(
        "string",
        overload("string_to_string", [STRING], STRING),
        overload("bool_to_string", [BOOL], STRING),
        overload("bytes_to_string", [BYTES], STRING),
        overload("double_to_string", [DOUBLE], STRING),
        overload("duration_to_string", [DURATION], STRING),
        overload("int64_to_string", [INT], STRING),
        overload("timestamp_to_string", [TIMESTAMP], STRING),
        overload("uint64_to_string", [UINT], STRING),
    )
    fn(
        "timestamp",
        overload("timestamp_to_timestamp", [TIMESTAMP], TIMESTAMP),
        overload("int64_to_timestamp", [INT], TIMESTAMP),
        overload("string_to_timestamp", [STRING], TIMESTAMP),
    )
    fn(
        "uint",
        overload("uint64_to_uint64", [UINT], UINT),
        overload("double_to_uint64", [DOUBLE], UINT),
        overload("int64_to_uint64", [INT], UINT),
        overload("string_to_uint64", [STRING], UINT),
    )
    fn("contains", member("contains_string", [STRING, STRING], BOOL))
    fn("endsWith", member("ends_with_string", [STRING, STRING], BOOL))
    fn("startsWith", member("starts_with_string", [STRING, STRING], BOOL))
    fn(
        "matches",
        overload("matches", [STRING, STRING], BOOL),
        member("matches_string", [STRING, STRING], BOOL),
    )
    for name, stem in (
        ("getFullYear", "year"), ("getMonth", "month"), ("getDayOfYear", "day_of_year"),
        ("getDayOfMonth", "day_of_month"), ("getDate", "day_of_month_1_based"),
        ("getDayOfWeek", "day_of_week"),
    ):  # fmt: skip
        fn(
            name,
            member(f"timestamp_to_{stem}", [TIMESTAMP], INT),
            member(f"timestamp_to_{stem}_with_tz", [TIMESTAMP, STRING], INT),
        )
    for name, stem in (("getHours", "hours"), ("getMinutes", "minutes"), ("getSeconds", "seconds")):
        fn(
            name,
            member(f"timestamp_to_{stem}", [TIMESTAMP], INT),
            member(f"timestamp_to_{stem}_with_tz", [TIMESTAMP, STRING], INT),
            member(f"duration_to_{stem}", [DURATION], INT),
        )
    fn(
        "getMilliseconds",
        member("timestamp_to_milliseconds", [TIMESTAMP], INT),
        member("timestamp_to_milliseconds_with_tz", [TIMESTAMP, STRING], INT),
        member("duration_to_milliseconds", [DURATION], INT),
    )


def _optional(env: Environment) -> None:
    """cel-go's optional types library (cel/library.go, `OptionalTypes()`, all versions)."""
    v, k = t.param("V"), t.param("K")
    opt_v, list_v, map_kv = t.optional_of(v), t.list_of(v), t.map_of(k, v)
    fn = env.add_function
    fn("optional.of", overload("optional_of", [v], opt_v))
    fn("optional.ofNonZeroValue", overload("optional_ofNonZeroValue", [v], opt_v))
    fn("optional.none", overload("optional_none", [], opt_v))
    fn("value", member("optional_value", [opt_v], v))
    fn("hasValue", member("optional_hasValue", [opt_v], BOOL))
    fn("or", member("optional_or_optional", [opt_v, opt_v], opt_v))
    fn("orValue", member("optional_orValue_value", [opt_v, v], v))
    fn("_?._", overload("select_optional_field", [DYN, STRING], opt_v))
    fn(
        "_[?_]",
        overload("list_optindex_optional_int", [list_v, INT], opt_v),
        overload("optional_list_optindex_optional_int", [t.optional_of(list_v), INT], opt_v),
        overload("map_optindex_optional_value", [map_kv, k], opt_v),
        overload("optional_map_optindex_optional_value", [t.optional_of(map_kv), k], opt_v),
    )
    fn(
        "_[_]",
        overload("optional_list_index_int", [t.optional_of(list_v), INT], opt_v),
        overload("optional_map_index_value", [t.optional_of(map_kv), k], opt_v),
    )


URL = t.object_type("kubernetes.URL")
QUANTITY = t.object_type("kubernetes.Quantity")
SEMVER = t.object_type("kubernetes.Semver")
IP = t.opaque("net.IP")
CIDR = t.opaque("net.CIDR")
_AUTHORIZER = t.object_type("kubernetes.authorization.Authorizer")
_PATH_CHECK = t.object_type("kubernetes.authorization.PathCheck")
_GROUP_CHECK = t.object_type("kubernetes.authorization.GroupCheck")
_RESOURCE_CHECK = t.object_type("kubernetes.authorization.ResourceCheck")
_DECISION = t.object_type("kubernetes.authorization.Decision")


def _kubernetes_base(env: Environment) -> None:
    """The Kubernetes URL, regex, lists (1.0), authz (1.27) and quantity (1.28) libraries."""
    fn = env.add_function
    fn("url", overload("string_to_url", [STRING], URL))
    for name, stem in (
        ("getScheme", "scheme"), ("getHost", "host"), ("getHostname", "hostname"),
        ("getPort", "port"), ("getEscapedPath", "escaped_path"),
    ):  # fmt: skip
        fn(name, member(f"url_get_{stem}", [URL], STRING))
    fn("getQuery", member("url_get_query", [URL], t.map_of(STRING, t.list_of(STRING))))
    fn("isURL", overload("is_url_string", [STRING], BOOL))

    fn("find", member("string_find_string", [STRING, STRING], STRING))
    fn(
        "findAll",
        member("string_find_all_string", [STRING, STRING], t.list_of(STRING)),
        member("string_find_all_string_int", [STRING, STRING, INT], t.list_of(STRING)),
    )

    comparable = [
        ("int", INT), ("uint", UINT), ("double", DOUBLE), ("bool", BOOL), ("duration", DURATION),
        ("timestamp", TIMESTAMP), ("string", STRING), ("bytes", BYTES),
    ]  # fmt: skip
    summable = [("int", INT), ("uint", UINT), ("double", DOUBLE), ("duration", DURATION)]
    fn("isSorted", *[member(f"list_{n}_is_sorted_bool", [t.list_of(x)], BOOL) for n, x in comparable])
    fn("sum", *[member(f"list_{n}_sum_{n}", [t.list_of(x)], x) for n, x in summable])
    fn("max", *[member(f"list_{n}_max_{n}", [t.list_of(x)], x) for n, x in comparable])
    fn("min", *[member(f"list_{n}_min_{n}", [t.list_of(x)], x) for n, x in comparable])
    fn("indexOf", member("list_a_index_of_int", [LIST_A, A], INT))
    fn("lastIndexOf", member("list_a_last_index_of_int", [LIST_A, A], INT))

    fn("path", member("authorizer_path", [_AUTHORIZER, STRING], _PATH_CHECK))
    fn("group", member("authorizer_group", [_AUTHORIZER, STRING], _GROUP_CHECK))
    fn("serviceAccount", member("authorizer_serviceaccount", [_AUTHORIZER, STRING, STRING], _AUTHORIZER))
    fn("resource", member("groupcheck_resource", [_GROUP_CHECK, STRING], _RESOURCE_CHECK))
    fn("subresource", member("resourcecheck_subresource", [_RESOURCE_CHECK, STRING], _RESOURCE_CHECK))
    fn("namespace", member("resourcecheck_namespace", [_RESOURCE_CHECK, STRING], _RESOURCE_CHECK))
    fn("name", member("resourcecheck_name", [_RESOURCE_CHECK, STRING], _RESOURCE_CHECK))
    fn(
        "check",
        member("pathcheck_check", [_PATH_CHECK, STRING], _DECISION),
        member("resourcecheck_check", [_RESOURCE_CHECK, STRING], _DECISION),
    )
    fn("errored", member("decision_errored", [_DECISION], BOOL))
    fn("error", member("decision_error", [_DECISION], STRING))
    fn("allowed", member("decision_allowed", [_DECISION], BOOL))
    fn("reason", member("decision_reason", [_DECISION], STRING))

    fn("quantity", overload("string_to_quantity", [STRING], QUANTITY))
    fn("isQuantity", overload("is_quantity_string", [STRING], BOOL))
    # Kubernetes declares sign as a global function, not a member one (library/quantity.go).
    fn("sign", overload("quantity_sign", [QUANTITY], INT))
    fn("isGreaterThan", member("quantity_is_greater_than", [QUANTITY, QUANTITY], BOOL))
    fn("isLessThan", member("quantity_is_less_than", [QUANTITY, QUANTITY], BOOL))
    fn("compareTo", member("quantity_compare_to", [QUANTITY, QUANTITY], INT))
    fn("asApproximateFloat", member("quantity_get_float", [QUANTITY], DOUBLE))
    fn("asInteger", member("quantity_get_int", [QUANTITY], INT))
    fn("isInteger", member("quantity_is_integer", [QUANTITY], BOOL))
    fn(
        "add",
        member("quantity_add", [QUANTITY, QUANTITY], QUANTITY),
        member("quantity_add_int", [QUANTITY, INT], QUANTITY),
    )
    fn(
        "sub",
        member("quantity_sub", [QUANTITY, QUANTITY], QUANTITY),
        member("quantity_sub_int", [QUANTITY, INT], QUANTITY),
    )


def _ext_strings_v2(env: Environment) -> None:
    """cel-go ext.Strings(ext.StringsVersion(2)) (1.29)."""
    fn = env.add_function
    fn("charAt", member("string_char_at_int", [STRING, INT], STRING))
    fn(
        "indexOf",
        member("string_index_of_string", [STRING, STRING], INT),
        member("string_index_of_string_int", [STRING, STRING, INT], INT),
    )
    fn(
        "lastIndexOf",
        member("string_last_index_of_string", [STRING, STRING], INT),
        member("string_last_index_of_string_int", [STRING, STRING, INT], INT),
    )
    fn("lowerAscii", member("string_lower_ascii", [STRING], STRING))
    fn(
        "replace",
        member("string_replace_string_string", [STRING, STRING, STRING], STRING),
        member("string_replace_string_string_int", [STRING, STRING, STRING, INT], STRING),
    )
    fn(
        "split",
        member("string_split_string", [STRING, STRING], t.list_of(STRING)),
        member("string_split_string_int", [STRING, STRING, INT], t.list_of(STRING)),
    )
    fn(
        "substring",
        member("string_substring_int", [STRING, INT], STRING),
        member("string_substring_int_int", [STRING, INT, INT], STRING),
    )
    fn("trim", member("string_trim", [STRING], STRING))
    fn("upperAscii", member("string_upper_ascii", [STRING], STRING))
    fn("format", member("string_format", [STRING, t.list_of(DYN)], STRING))
    fn("strings.quote", overload("strings_quote", [STRING], STRING))
    fn(
        "join",
        member("list_join", [t.list_of(STRING)], STRING),
        member("list_join_string", [t.list_of(STRING), STRING], STRING),
    )


def _ext_sets(env: Environment) -> None:
    """cel-go ext.Sets() (1.29)."""
    list_t = t.list_of(t.param("T"))
    env.add_function("sets.contains", overload("list_sets_contains_list", [list_t, list_t], BOOL))
    env.add_function("sets.equivalent", overload("list_sets_equivalent_list", [list_t, list_t], BOOL))
    env.add_function("sets.intersects", overload("list_sets_intersects_list", [list_t, list_t], BOOL))


def _ip_and_cidr(env: Environment) -> None:
    """The Kubernetes IP and CIDR libraries (introduced at 1.30: StoredExpressions only)."""
    fn = env.add_function
    fn("ip", overload("string_to_ip", [STRING], IP), member("cidr_ip", [CIDR], IP))
    fn("family", member("ip_family", [IP], INT))
    fn("ip.isCanonical", overload("ip_is_canonical", [STRING], BOOL))
    for name, stem in (
        ("isUnspecified", "unspecified"), ("isLoopback", "loopback"),
        ("isLinkLocalMulticast", "link_local_multicast"), ("isLinkLocalUnicast", "link_local_unicast"),
        ("isGlobalUnicast", "global_unicast"),
    ):  # fmt: skip
        fn(name, member(f"ip_is_{stem}", [IP], BOOL))
    fn("isIP", overload("is_ip", [STRING], BOOL))
    fn("string", overload("ip_to_string", [IP], STRING), overload("cidr_to_string", [CIDR], STRING))
    fn("cidr", overload("string_to_cidr", [STRING], CIDR))
    fn(
        "containsIP",
        member("cidr_contains_ip_string", [CIDR, STRING], BOOL),
        member("cidr_contains_ip_ip", [CIDR, IP], BOOL),
    )
    fn(
        "containsCIDR",
        member("cidr_contains_cidr_string", [CIDR, STRING], BOOL),
        member("cidr_contains_cidr", [CIDR, CIDR], BOOL),
    )
    fn("prefixLength", member("cidr_prefix_length", [CIDR], INT))
    fn("masked", member("cidr_masked", [CIDR], CIDR))
    fn("isCIDR", overload("is_cidr", [STRING], BOOL))


# namedresources/cel/compile.go: one `attributes.<type>` map variable per attribute value type.
ATTRIBUTE_VARIABLES = {
    "attributes.quantity": t.map_of(STRING, QUANTITY),
    "attributes.bool": t.map_of(STRING, BOOL),
    "attributes.int": t.map_of(STRING, INT),
    "attributes.intslice": t.map_of(STRING, t.list_of(INT)),
    "attributes.string": t.map_of(STRING, STRING),
    "attributes.stringslice": t.map_of(STRING, t.list_of(STRING)),
    "attributes.version": t.map_of(STRING, SEMVER),
}


def _named_resources(env: Environment) -> None:
    """The selector variables and the semver library of namedresources/cel (1.30)."""
    for name, type_ in ATTRIBUTE_VARIABLES.items():
        env.add_ident(name, type_)
    fn = env.add_function
    fn("semver", overload("string_to_semver", [STRING], SEMVER))
    fn("isSemver", overload("is_semver_string", [STRING], BOOL))
    fn("isGreaterThan", member("semver_is_greater_than", [SEMVER, SEMVER], BOOL))
    fn("isLessThan", member("semver_is_less_than", [SEMVER, SEMVER], BOOL))
    fn("compareTo", member("semver_compare_to", [SEMVER, SEMVER], INT))
    fn("major", member("semver_major", [SEMVER], INT))
    fn("minor", member("semver_minor", [SEMVER], INT))
    fn("patch", member("semver_patch", [SEMVER], INT))


def selector_environment(*, stored: bool) -> Environment:
    """The environment `validateSelector` compiles in: NewExpressions, or StoredExpressions."""
    env = Environment()
    _standard(env)
    _kubernetes_base(env)
    _optional(env)
    _ext_strings_v2(env)
    _ext_sets(env)
    if stored:
        _ip_and_cidr(env)
    _named_resources(env)
    return env


# --- the DRA device selector environments (Kubernetes 1.31 and 1.37) ---------------------------

FORMAT = t.object_type("kubernetes.NamedFormat")
# library/format.go `ConstantFormats` (the same 13 at 1.31 and 1.37).
NAMED_FORMATS = (
    "dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix",
    "dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date",
    "datetime",
)  # fmt: skip


def _format(env: Environment) -> None:
    """The Kubernetes format library (introduced at 1.31)."""
    fn = env.add_function
    fn("validate", member("format-validate", [FORMAT, STRING], t.optional_of(t.list_of(STRING))))
    fn("format.named", overload("format-named", [STRING], t.optional_of(FORMAT)))
    for name in NAMED_FORMATS:
        fn(f"format.{name}", overload(f"format.{name}", [], FORMAT))


def _authz_selectors(env: Environment) -> None:
    """The Kubernetes authorization selectors library (introduced at 1.31)."""
    env.add_function(
        "fieldSelector", member("authorizer_fieldselector", [_RESOURCE_CHECK, STRING], _RESOURCE_CHECK)
    )
    env.add_function(
        "labelSelector", member("authorizer_labelselector", [_RESOURCE_CHECK, STRING], _RESOURCE_CHECK)
    )


def _semver(env: Environment, *, version: int) -> None:
    """The semver library: DRA's own at 1.31 (version 0), apiserver's `SemverLib` at 1.37 (1)."""
    fn = env.add_function
    fn("semver", overload("string_to_semver", [STRING], SEMVER))
    fn("isSemver", overload("is_semver_string", [STRING], BOOL))
    if version >= 1:
        fn("semver", overload("string_bool_to_semver", [STRING, BOOL], SEMVER))
        fn("isSemver", overload("is_semver_string_bool", [STRING, BOOL], BOOL))
    fn("isGreaterThan", member("semver_is_greater_than", [SEMVER, SEMVER], BOOL))
    fn("isLessThan", member("semver_is_less_than", [SEMVER, SEMVER], BOOL))
    fn("compareTo", member("semver_compare_to", [SEMVER, SEMVER], INT))
    fn("major", member("semver_major", [SEMVER], INT))
    fn("minor", member("semver_minor", [SEMVER], INT))
    fn("patch", member("semver_patch", [SEMVER], INT))


def _optional_v2(env: Environment) -> None:
    """What cel-go v0.27's `OptionalTypes()` (version 2) adds to version 1."""
    v = t.param("V")
    fn = env.add_function
    fn("last", member("list_last", [t.list_of(v)], t.optional_of(v)))
    fn("first", member("list_first", [t.list_of(v)], t.optional_of(v)))
    fn("optional.unwrap", overload("optional_unwrap", [t.list_of(t.optional_of(v))], t.list_of(v)))
    fn("unwrapOpt", member("optional_unwrapOpt", [t.list_of(t.optional_of(v))], t.list_of(v)))


def _two_var_comprehensions(env: Environment) -> None:
    """cel-go ext.TwoVarComprehensions (1.32): the macros are the parser's, `cel.@mapInsert` here."""
    k, v = t.param("K"), t.param("V")
    map_kv = t.map_of(k, v)
    env.add_function(
        "cel.@mapInsert",
        overload("@mapInsert_map_key_value", [map_kv, k, v], map_kv),
        overload("@mapInsert_map_map", [map_kv, map_kv], map_kv),
    )


# cel-go ext/lists.go `comparableTypes`, with the type names its overload ids use.
_COMPARABLE = (
    ("int", INT), ("uint", UINT), ("double", DOUBLE), ("bool", BOOL),
    ("google.protobuf.Duration", DURATION), ("google.protobuf.Timestamp", TIMESTAMP),
    ("string", STRING), ("bytes", BYTES),
)  # fmt: skip


def _ext_lists_v3(env: Environment) -> None:
    """cel-go ext.Lists(ext.ListsVersion(3)) (1.34); `sortBy` is the parser's."""
    list_t = t.list_of(t.param("T"))
    fn = env.add_function
    fn("slice", member("list_slice", [list_t, INT, INT], list_t))
    fn(
        "flatten",
        member("list_flatten", [t.list_of(list_t)], list_t),
        member("list_flatten_int", [t.list_of(DYN), INT], t.list_of(DYN)),
    )
    fn("sort", *[member(f"list_{name}_sort", [t.list_of(x)], t.list_of(x)) for name, x in _COMPARABLE])
    fn(
        "@sortByAssociatedKeys",
        *[
            member(f"list_{name}_sortByAssociatedKeys", [list_t, t.list_of(x)], list_t)
            for name, x in _COMPARABLE
        ],
    )
    fn("lists.range", overload("lists_range", [INT], t.list_of(INT)))
    fn("reverse", member("list_reverse", [list_t], list_t))
    fn("distinct", member("list_distinct", [list_t], list_t))


def _list_includes(env: Environment) -> None:
    """`includes` of the Kubernetes lists library version 1 (1.37), also what DRA registers."""
    env.add_function("includes", member("list_includes_dyn_dyn", [DYN, DYN], BOOL))


DRA_DEVICE = t.object_type("kubernetes.DRADevice")


def _device_attributes(value: CelType) -> CelType:
    return t.map_of(STRING, t.map_of(STRING, value))


DEVICE_CAPACITY = _device_attributes(QUANTITY)


def _dra_device(env: Environment, fields: dict[str, CelType]) -> None:
    """The `device` variable of `dynamic-resource-allocation/cel/compile.go`: an object type."""
    env.structs[DRA_DEVICE.name] = fields
    env.add_ident("device", DRA_DEVICE)


def _kubernetes_base_1_31(env: Environment, *, stored: bool) -> None:
    """`environment.MustBaseEnvSet` of apiserver 0.31 with compatibility 1.30 (NewExpressions: the
    options introduced up to 1.30) or everything (StoredExpressions: + format, authz selectors)."""
    _standard(env)
    _kubernetes_base(env)
    _optional(env)
    _ext_strings_v2(env)
    _ext_sets(env)
    _ip_and_cidr(env)
    if stored:
        _format(env)
        _authz_selectors(env)


def device_selector_environment_1_31(*, stored: bool) -> Environment:
    """Kubernetes 1.31 (`dynamic-resource-allocation` v0.31.0 `cel/compile.go`, cel-go v0.20.1):
    the base set, then `device` (driver, attributes of the unknown type `any`, capacity), DRA's
    semver library and ext.Bindings (``cel.bind``)."""
    env = Environment(
        syntax=Syntax(
            grammar="v0.17", macros=frozenset({"bind"}), go_antlr_runtime=True, has_error_at_argument=True
        ),
        string_format_validator=True,
    )
    _kubernetes_base_1_31(env, stored=stored)
    _dra_device(
        env,
        {"driver": STRING, "attributes": _device_attributes(t.ANY), "capacity": DEVICE_CAPACITY},
    )
    _semver(env, version=0)
    return env


def device_selector_environment_1_37(*, stored: bool) -> Environment:
    """Kubernetes 1.37 (apiserver 0.37 base set, cel-go v0.27.0), compatibility version 1.36.

    NewExpressions holds the options introduced up to 1.36 and the feature-gated ones whose gate
    is on by default: the lists library version 0, two-variable comprehensions (1.32), semver v1
    (1.33), ext.Lists v3 (1.34), and the device type of DRAConsumableCapacity (beta, on) without
    DRAListTypeAttributes (alpha, off): `allowMultipleAllocations`, attributes of type `any`.
    StoredExpressions holds every option whatever its gate: the lists library version 1 (with
    `includes`) and the newest device type, whose attribute values are `dyn`.
    """
    modern = Syntax(
        grammar="v0.27",
        macros=frozenset({"bind", "two_var", "sort_by"}),
        go_antlr_runtime=True,
        has_error_at_argument=True,
    )
    env = Environment(syntax=modern, string_format_validator=True, regexp_unicode_aliases=True)
    _standard(env)
    _kubernetes_base(env)  # URLs, regex, lists (v0 and v1 declare the same), authz, quantity
    if stored:
        _list_includes(env)
    _optional(env)
    _optional_v2(env)
    _ext_strings_v2(env)
    _ext_sets(env)
    _ip_and_cidr(env)
    _format(env)
    _authz_selectors(env)
    _two_var_comprehensions(env)
    _semver(env, version=1)
    _ext_lists_v3(env)
    attribute = DYN if stored else t.ANY
    _dra_device(
        env,
        {
            "allowMultipleAllocations": BOOL,
            "driver": STRING,
            "attributes": _device_attributes(attribute),
            "capacity": DEVICE_CAPACITY,
        },
    )
    return env
