"""`dra-webhook validate`: manifests judged offline as the API server and the webhook would judge them.

Reading follows kubectl (sigs.k8s.io/yaml = go-yaml v2 + a JSON round trip), Lists are flattened,
`--old` turns a CREATE into an UPDATE, and every report format says the same thing.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from junitparser import Error, Failure, JUnitXml, Skipped

from webhook.cli import main
from webhook.offline import (
    Document,
    ManifestObject,
    NotAnObject,
    Progress,
    ValidateRun,
    go_yaml_float_key,
    objects_of,
    read_documents,
    run_validate,
    server_filled_update,
)
from webhook.offline import progress as offline

DATA = Path(__file__).parent / "data" / "offline"
MANIFESTS = DATA / "manifests"
CLAIMS = MANIFESTS / "claims.yaml"
OLD_CLAIMS = DATA / "old" / "claims.yaml"
BROKEN = DATA / "broken.yaml"

BAD_MODE = (
    'ResourceClaim.resource.k8s.io "broken" is invalid: spec.allocationMode: Unsupported value: '
    '"Sometimes": supported values: "Immediate", "WaitForFirstConsumer"'
)
SPEC_IMMUTABLE = (
    'ResourceClaim.resource.k8s.io "gpu" is invalid: spec: Invalid value: '
    '{"resourceClassName":"gpu.example.com","allocationMode":"WaitForFirstConsumer"}: field is immutable'
)
# What follows the verdict on a judged object: its apiVersion and the release it was judged as.
JUDGED_AS_1_30 = " (resource.k8s.io/v1alpha2, judged as Kubernetes 1.30)"
SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)


def claim(name: str = "gpu", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1alpha2",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"resourceClassName": "gpu.example.com", **spec},
    }


def validate(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def the_data(text: str) -> Any:
    read = read_documents("t.yaml", text.encode())
    assert read.error is None, read.error
    assert len(read.documents) == 1
    return read.documents[0].data


# --- reading YAML as kubectl does (go-yaml v2, then JSON) ------------------------------------------------


@pytest.mark.parametrize(
    ("scalar", "value"),
    [
        # YAML 1.1 booleans, including go-yaml v2's single letters (PyYAML reads y/n as strings).
        ("on", True),
        ("Off", False),
        ("yes", True),
        ("NO", False),
        ("y", True),
        ("N", False),
        ('"on"', "on"),
        # Numbers: go-yaml's ParseInt(base 0) and yamlStyleFloat, then json.Marshal/UseNumber.
        ("1e3", 1000),  # PyYAML: the string "1e3"
        ("1.0e3", 1000),  # PyYAML: a string too (YAML 1.1 floats need a signed exponent)
        ("1.0", 1),  # an integral float arrives as an integer
        ("1.5", 1.5),
        (".5", 0.5),
        ("010", 8),  # octal with a leading zero
        ("0o17", 15),
        ("0x1F", 31),
        ("-0b11", -3),
        ("1_000", 1000),
        ("+12", 12),
        ("08", 8),  # not octal: go-yaml falls back to a float, which arrives as 8
        ("99999999999999999999", 1e20),  # beyond int64: unstructured decoding makes it a float
        ("1:30", "1:30"),  # PyYAML: 90 (base 60); go-yaml: a string
        ("2001-12-14", "2001-12-14"),  # timestamps stay strings in an interface{}
        ("1e400", "1e400"),  # ParseFloat range error: a string
        ("~", None),
        ("", None),
        ("<<", "<<"),
        ("!!float 2", 2),
        ("!!str 10", "10"),
        ('!!int "0x10"', 16),
        ("!!binary aGVsbG8=", "hello"),  # go-yaml decodes it into a string
        ("!!timestamp 2001-12-14", "2001-12-14"),
        ("!!set {x, y}", {"x": None, "true": None}),
        ("!!omap [a: 1, b: 2]", [{"a": 1}, {"b": 2}]),
    ],
)
def test_plain_scalars_resolve_as_go_yaml_v2_and_the_json_round_trip(scalar: str, value: Any) -> None:
    data = the_data(f"key: {scalar}\n")
    assert data == {"key": value}
    assert type(data["key"]) is type(value)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("y", "true"),
        ("off", "false"),
        ("3", "3"),
        ("1.5", "1.5"),
        ("1e6", "1e+06"),
        ("0.1", "0.1"),
        ('"yes"', "yes"),
    ],
)
def test_map_keys_become_strings_as_sigs_k8s_io_yaml_converts_them(key: str, text: str) -> None:
    assert the_data(f"{key}: v\n") == {text: "v"}


def test_the_float_key_format_is_go_formatfloat_g_32() -> None:
    assert [go_yaml_float_key(v) for v in (1.0, 1e6, 123456.7, 1e-5, 0.0001, float("inf"))] == [
        "1",
        "1e+06",
        "123456.7",
        "1e-05",
        "0.0001",
        ".inf",
    ]


def test_merge_keys_and_anchors_are_followed() -> None:
    data = the_data("base: &b {x: 1, z: 2}\nderived: {<<: *b, z: 3}\n")
    assert data["derived"] == {"x": 1, "z": 3}


@pytest.mark.parametrize(
    ("text", "location", "reason"),
    [
        ("a: .nan\n", "t.yaml:1:4", "invalid YAML: json: unsupported value: NaN"),
        ("a: -.inf\n", "t.yaml:1:4", "invalid YAML: json: unsupported value: -Inf"),
        ("? ~\n: 1\n", "t.yaml:1:3", "invalid YAML: unsupported map key of type: <nil>"),
        (
            "a: &x [1, *x]\n",
            "t.yaml:1:1",
            "invalid YAML: a recursive alias (or nesting too deep) cannot be converted to JSON",
        ),
        ("a: b: c\n", "t.yaml:1:5", "invalid YAML: mapping values are not allowed in this context"),
        (
            "a:\n  - b\n c: 1\n",
            "t.yaml:3:2",
            "invalid YAML: did not find expected key (while parsing a block mapping at line 1)",
        ),
    ],
)
def test_yaml_that_kubectl_cannot_send_is_unreadable_with_its_line(
    text: str, location: str, reason: str
) -> None:
    read = read_documents("t.yaml", text.encode())
    assert read.error is not None
    assert (read.error.location, read.error.reason) == (location, reason)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: !!map [x]\n", {"a": ["x"]}),
        ("a: !!set [x]\n", {"a": ["x"]}),
        ("a: !!seq {b: 1}\n", {"a": {"b": 1}}),
        ("a: !!str [1]\n", {"a": [1]}),
        ("a: !!omap {b: 1}\n", {"a": {"b": 1}}),
    ],
)
def test_a_collection_is_read_by_its_kind_whatever_its_tag_says_as_go_yaml_v2_does(
    text: str, value: Any
) -> None:
    read = read_documents("t.yaml", text.encode())
    assert read.error is None
    assert [document.data for document in read.documents] == [value]


@pytest.mark.parametrize("text", ["a: !!map x\n", "a: !!seq x\n", "a: !!set x\n"])
def test_a_scalar_with_a_collection_tag_is_unreadable_with_its_line_not_a_crash(text: str) -> None:
    read = read_documents("t.yaml", text.encode())
    assert read.error is not None
    assert read.error.location == "t.yaml:1:4"
    assert read.error.reason.startswith("invalid YAML: expected a ")


def test_documents_before_a_syntax_error_are_kept_and_start_lines_are_recorded() -> None:
    read = read_documents("broken.yaml", BROKEN.read_bytes())
    assert [(document.line, document.data["metadata"]["name"]) for document in read.documents] == [
        (1, "fine")
    ]
    assert read.error is not None
    assert str(read.error) == (
        "broken.yaml:13:12: invalid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence at line 12)"
    )


@pytest.mark.parametrize(
    ("content", "lines", "values"),
    [
        (b'{"a": 1.0, "b": 1e3, "c": 1.5}', [1], [{"a": 1, "b": 1000, "c": 1.5}]),
        (b'{"a": 1}\n\n{"a": 2}\n', [1, 3], [{"a": 1}, {"a": 2}]),  # JSON lines
        (b'\n  {"a":\n 1} {"a": 2}\n{"a": [3.0]}', [2, 3, 4], [{"a": 1}, {"a": 2}, {"a": [3]}]),  # a stream
        (b"\xef\xbb\xbf" + b'{"a": 1}', [1], [{"a": 1}]),  # a byte order mark
    ],
)
def test_json_is_one_document_json_lines_or_a_stream(
    content: bytes, lines: list[int], values: list[Any]
) -> None:
    read = read_documents("x.json", content)
    assert read.error is None
    assert [document.line for document in read.documents] == lines
    assert [document.data for document in read.documents] == values


def test_a_json_syntax_error_has_its_line_and_column() -> None:
    read = read_documents("x.json", b'{"a": 1}\n{"a": 1,\n "b": }\n')
    assert [document.data for document in read.documents] == [{"a": 1}]
    assert str(read.error) == "x.json:3:7: invalid JSON: Expecting value"


@pytest.mark.parametrize(
    ("text", "data", "duplicates"),
    [
        (
            "a: 1\nb: {c: 1, c: 2}\nl:\n- {x: 1, x: 2}\na: 3\n",
            {"a": 3, "b": {"c": 2}, "l": [{"x": 2}]},
            ("b.c", "l[0].x", "a"),
        ),
        ("y: 1\ntrue: 2\n", {"true": 2}, ("true",)),  # two spellings of one key, as go-yaml v2 reads them
        ("base: &b {x: 1}\nd: {<<: *b, x: 2}\n", {"base": {"x": 1}, "d": {"x": 2}}, ()),  # a merge overridden
        ("d: {<<: {x: 1}, x: 2, x: 3}\n", {"d": {"x": 3}}, ("d.x",)),
    ],
)
def test_yaml_documents_name_the_fields_they_give_twice_and_keep_the_last(
    text: str, data: Any, duplicates: tuple[str, ...]
) -> None:
    # sigs.k8s.io/json's strict decoding words: keys joined by dots, list indexes in brackets, in the
    # order the decoder meets the second occurrence.
    [document] = read_documents("t.yaml", text.encode()).documents
    assert (document.data, document.duplicates) == (data, duplicates)


def test_json_documents_name_the_fields_they_give_twice_when_asked() -> None:
    content = b'{"a": 1, "b": {"c": 1, "c": 2}}\n{"d": [{"e": 1, "e": 2}]}\n'
    read = read_documents("t.json", content, find_duplicates=True)
    assert [(document.data, document.duplicates) for document in read.documents] == [
        ({"a": 1, "b": {"c": 2}}, ("b.c",)),
        ({"d": [{"e": 2}]}, ("d[0].e",)),
    ]
    assert [document.duplicates for document in read_documents("t.json", content).documents] == [(), ()]


# --- objects: Lists flattened -------------------------------------------------------------------------------


def test_lists_are_flattened_and_typed_list_items_take_the_list_kind() -> None:
    read = read_documents("lists.yaml", (MANIFESTS / "more" / "lists.yaml").read_bytes())
    items = [item for document in read.documents for item in objects_of(document)]
    assert all(isinstance(item, ManifestObject) for item in items)
    assert [(item.api_version, item.kind, item.name, item.line) for item in items] == [  # type: ignore[union-attr]
        ("resource.k8s.io/v1alpha2", "ResourceClaim", "listed", 3),
        ("v1", "ConfigMap", "settings", 3),
        ("resource.k8s.io/v1alpha2", "ResourceClaim", "typed-ok", 14),
        ("resource.k8s.io/v1alpha2", "ResourceClaim", "typed-bad", 14),
    ]


def test_nested_lists_are_flattened_and_bad_items_are_unreadable() -> None:
    inner = {"apiVersion": "v1", "kind": "List", "items": [claim("inner"), "text", {"kind": "ResourceClaim"}]}
    document = Document("l.yaml", 4, {"apiVersion": "v1", "kind": "List", "items": [inner, claim("outer")]})
    items = list(objects_of(document))
    assert isinstance(items[0], ManifestObject) and items[0].name == "inner"
    assert [str(item) for item in items[1:3]] == [
        "l.yaml:4: items[0]: items[1]: expected an object, got a str",
        "l.yaml:4: items[0]: items[2]: apiVersion not set",
    ]
    assert isinstance(items[3], ManifestObject) and items[3].name == "outer"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"metadata": {"name": "x"}}, "not a Kubernetes object (no apiVersion, no kind)"),
        ({"apiVersion": "v2", "name": "chart"}, "not a Kubernetes object (no kind)"),  # a Helm Chart.yaml
        ({"kind": "Deployment"}, "not a Kubernetes object (no apiVersion)"),
        ({"apiVersion": 2, "kind": "x"}, "not a Kubernetes object (apiVersion and kind not strings)"),
        ([{"hosts": "all"}], "a list, not a Kubernetes object"),  # an Ansible playbook
        ("text", "a str, not a Kubernetes object"),
    ],
)
def test_documents_that_are_no_kubernetes_objects_are_said_to_be_none(data: Any, reason: str) -> None:
    assert list(objects_of(Document("m.yaml", 2, data))) == [NotAnObject("m.yaml", 2, reason)]


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "ResourceClaim"},
        {"apiVersion": "resource.k8s.io/v1alpha2"},
        {"apiVersion": "resource.k8s.io"},
    ],
)
def test_a_document_meant_for_the_group_is_an_object_even_with_a_piece_missing(data: Any) -> None:
    [item] = objects_of(Document("m.yaml", 2, data))
    assert isinstance(item, ManifestObject) and item.obj == data


def test_a_list_whose_items_are_not_a_list_is_unreadable() -> None:
    data = {"apiVersion": "v1", "kind": "List", "items": {"a": 1}}
    assert [str(item) for item in objects_of(Document("m.yaml", 2, data))] == [
        "m.yaml:2: items of List must be a list"
    ]


def test_empty_documents_are_no_objects() -> None:
    read = read_documents("e.yaml", b"---\n# nothing\n---\n")
    assert [item for document in read.documents for item in objects_of(document)] == []


# --- the update the API server would validate ---------------------------------------------------------------


def test_an_update_gets_the_fields_the_api_server_fills_from_the_stored_object() -> None:
    old = claim()
    old["metadata"].update(
        uid="u-1",
        resourceVersion="17",
        generation=3,
        creationTimestamp="2024-05-01T10:00:00Z",
        deletionTimestamp="2024-05-02T10:00:00Z",
        deletionGracePeriodSeconds=30,
    )
    new = claim()
    new["metadata"].update(generation=9, creationTimestamp="2030-01-01T00:00:00Z", labels={"a": "b"})
    assert server_filled_update(new, old)["metadata"] == {
        "name": "gpu",
        "namespace": "default",
        "labels": {"a": "b"},
        "uid": "u-1",
        "resourceVersion": "17",
        "generation": 3,
        "creationTimestamp": "2024-05-01T10:00:00Z",
        "deletionTimestamp": "2024-05-02T10:00:00Z",
        "deletionGracePeriodSeconds": 30,
    }
    assert "uid" not in new["metadata"]  # the manifest itself is left alone


@pytest.mark.parametrize(
    ("sent", "stored", "validated"),
    [
        (None, 0, 0),  # a terminating object with finalizers: the stored 0 is kept
        (0, 30, 0),  # a 0 sent is a value: the API server leaves it (and reports the change)
        (None, 30, 30),
        (5, None, 5),
        (None, None, None),
    ],
)
def test_deletion_grace_period_is_taken_from_the_stored_object_only_when_nil(
    sent: int | None, stored: int | None, validated: int | None
) -> None:
    """BeforeUpdate (apiserver v0.37.0-beta.0 pkg/registry/rest/update.go lines 150-153): the stored
    deletionGracePeriodSeconds is used when the stored one is non-nil and the new one nil."""
    old, new = claim(), claim()
    if stored is not None:
        old["metadata"]["deletionGracePeriodSeconds"] = stored
    if sent is not None:
        new["metadata"]["deletionGracePeriodSeconds"] = sent
    assert server_filled_update(new, old)["metadata"].get("deletionGracePeriodSeconds") == validated


def test_what_the_client_sent_wins_where_the_api_server_keeps_it() -> None:
    old, new = claim(), claim()
    new["metadata"].update(uid="mine", resourceVersion="5")
    filled = server_filled_update(new, old)["metadata"]
    assert (filled["uid"], filled["resourceVersion"]) == ("mine", "5")
    assert "generation" not in filled


def test_an_old_manifest_without_a_resource_version_stands_for_a_stored_one() -> None:
    assert server_filled_update(claim(), claim())["metadata"]["resourceVersion"] == "1"


# --- the command: verdicts, exit codes and text output -------------------------------------------------------


def test_a_valid_manifest_prints_nothing_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = validate([str(MANIFESTS / "more" / "template.json")], capsys)
    assert (code, out) == (0, "")


def test_an_invalid_object_is_reported_like_kubectl_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = validate([str(CLAIMS)], capsys)
    assert code == 1
    assert out == f"{CLAIMS}: {BAD_MODE}{JUDGED_AS_1_30}\n"


def test_verbose_text_lists_every_object_and_the_summary_counts_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = validate(["-v", "--summary", str(CLAIMS)], capsys)
    assert code == 1
    assert out.splitlines() == [
        f'{CLAIMS}: ResourceClaim.resource.k8s.io "gpu" is valid{JUDGED_AS_1_30}',
        f"{CLAIMS}: {BAD_MODE}{JUDGED_AS_1_30}",
        f"{CLAIMS}: Deployment default/web skipped: apps/v1, Kind=Deployment is not a resource.k8s.io object",
        "Summary: 3 objects in 1 file: 1 valid, 1 invalid, 0 not validated, 1 skipped, 0 errors",
    ]


def test_a_directory_is_walked_in_name_order_skipping_hidden_and_foreign_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = validate(["-o", "json", str(MANIFESTS)], capsys)
    report = json.loads(out)
    assert code == 1
    assert [
        (Path(result["source"]).name, result.get("name"), result["status"]) for result in report["results"]
    ] == [
        ("claims.yaml", "gpu", "valid"),
        ("claims.yaml", "broken", "invalid"),
        ("claims.yaml", "web", "skipped"),
        ("lists.yaml", "listed", "valid"),
        ("lists.yaml", "settings", "skipped"),
        ("lists.yaml", "typed-ok", "valid"),
        ("lists.yaml", "typed-bad", "invalid"),
        ("template.json", "gpu-template", "valid"),
    ]
    assert report["summary"] == {
        "files": 3,
        "objects": 8,
        "valid": 4,
        "invalid": 2,
        "notValidated": 0,
        "skipped": 2,
        "errors": 0,
    }


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_objects_of_other_groups_are_skipped_with_or_without_strict(
    strict: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # --strict is --validate=strict (kubeconform's -strict), the default: other groups stay skipped.
    code, out, _ = validate([str(MANIFESTS / "more" / "lists.yaml"), "-v", *strict], capsys)
    assert code == 1
    assert (
        f"{MANIFESTS / 'more' / 'lists.yaml'}: ConfigMap default/settings skipped: v1, Kind=ConfigMap is not a "
        "resource.k8s.io object"
    ) in out.splitlines()
    assert (
        f'{MANIFESTS / "more" / "lists.yaml"}: ResourceClaim.resource.k8s.io "typed-bad" is invalid: '
        f'spec.resourceClassName: Invalid value: "Not_A_Class": {SUBDOMAIN}{JUDGED_AS_1_30}'
    ) in out.splitlines()


def test_a_yaml_syntax_error_exits_2_with_file_and_line_after_judging_what_came_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = validate(["-v", str(BROKEN)], capsys)
    assert code == 2
    assert out.splitlines() == [
        f'{BROKEN}: ResourceClaim.resource.k8s.io "fine" is valid{JUDGED_AS_1_30}',
        f"{BROKEN}:13:12: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 12)",
    ]


def test_unreadable_input_wins_over_invalid_objects(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = validate([str(CLAIMS), "/nonexistent/claims.yaml"], capsys)
    assert code == 2
    assert out.splitlines()[-1] == "/nonexistent/claims.yaml: cannot read: No such file or directory"


def test_stdin_is_read_with_a_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CLAIMS.read_bytes())))
    code, out, _ = validate(["-"], capsys)
    assert code == 1
    assert out == f"<stdin>: {BAD_MODE}{JUDGED_AS_1_30}\n"


def test_warnings_name_the_file_and_the_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "claim.yaml"
    manifest.write_text(
        "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\n"
        "metadata: {name: gpu, namespace: default}\nspec: {resourceClassName: gpu.example.com, colour: red}\n"
    )
    code, out, _ = validate(["--validate=warn", str(manifest)], capsys)
    assert code == 0
    assert out == f'{manifest}: ResourceClaim default/gpu: Warning: unknown field "spec.colour"\n'


def test_yaml_1_1_booleans_reach_the_rules_as_kubectl_sends_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "claim.yaml"
    manifest.write_text(yaml_claim("resourceClassName: on"))
    code, out, _ = validate(["-o", "json", str(manifest)], capsys)
    assert code == 1
    [result] = json.loads(out)["results"]
    assert [(cause["field"], cause["reason"]) for cause in result["causes"]] == [
        ("spec.resourceClassName", "FieldValueTypeInvalid")
    ]


def yaml_claim(spec_line: str, *, name: str = "gpu") -> str:
    return (
        "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\n"
        f"metadata:\n  name: {name}\n  namespace: default\nspec:\n  {spec_line}\n"
    )


# --- --old: updates ---------------------------------------------------------------------------------------


def test_old_objects_turn_matching_objects_into_updates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = validate(["-o", "json", str(CLAIMS), "--old", str(OLD_CLAIMS)], capsys)
    results = json.loads(out)["results"]
    assert code == 1
    assert [(result["name"], result.get("operation"), result["status"]) for result in results] == [
        ("gpu", "UPDATE", "invalid"),  # matched: its class differs from the stored one
        ("broken", "CREATE", "invalid"),  # no old version: a create
        ("web", None, "skipped"),
    ]
    assert results[0]["message"] == SPEC_IMMUTABLE


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_old_object_no_object_matches_is_named_on_stderr(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(
        yaml_claim("resourceClassName: gpu.example.com", name="gpu")
        + "---\n"
        + yaml_claim("resourceClassName: gpu.example.com", name="gpu-typo").replace("default", "team-a")
        + "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
    )
    new = tmp_path / "new.yaml"
    new.write_text(yaml_claim("resourceClassName: gpu.example.com", name="gpu"))
    code, out, err = validate(["-j", jobs, "-v", str(new), "--old", str(old)], capsys)
    assert (code, out) == (0, f'{new}: ResourceClaim.resource.k8s.io "gpu" is valid{JUDGED_AS_1_30}\n')
    assert err.splitlines() == [
        "--old: resource.k8s.io/v1alpha2 ResourceClaim team-a/gpu-typo matches no object given: "
        "nothing was judged as an update of it",
        "--old: resource.k8s.io/v1 DeviceClass gpu.example.com matches no object given: "
        "nothing was judged as an update of it",
    ]


def test_an_old_object_whose_object_is_given_but_not_judged_says_nothing_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claim = tmp_path / "claim.yaml"
    claim.write_text(yaml_claim("resourceClassName: gpu.example.com"))
    code, _, err = validate(["--skip-kinds", "ResourceClaim", str(claim), "--old", str(claim)], capsys)
    assert (code, err) == (0, "")


def test_an_update_without_server_fields_is_judged_as_the_api_server_would_fill_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(yaml_claim("resourceClassName: gpu.example.com"))
    new = tmp_path / "new.yaml"
    new.write_text(yaml_claim("resourceClassName: gpu.example.com").replace("  namespace: default\n", ""))
    code, out, _ = validate(["-v", str(new), "--old", str(old)], capsys)
    assert (code, out) == (0, f'{new}: ResourceClaim.resource.k8s.io "gpu" is valid{JUDGED_AS_1_30}\n')


def test_a_status_update_is_judged_by_the_status_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(yaml_claim("resourceClassName: gpu.example.com"))
    new = tmp_path / "new.yaml"
    consumers = "".join(f"\n  - {{resource: pods, name: p{i}, uid: u{i}}}" for i in range(33))
    new.write_text(
        yaml_claim("resourceClassName: gpu.example.com")
        + "status:\n  driverName: gpu.example.com\n  allocation: {shareable: true}\n  reservedFor:"
        + consumers
        + "\n"
    )
    code, out, _ = validate(["--subresource", "status", str(new), "--old", str(old)], capsys)
    assert code == 1
    assert out == (
        f'{new}: ResourceClaim.resource.k8s.io "gpu" is invalid: status.reservedFor: Too long: may not be '
        f"longer than 32{JUDGED_AS_1_30}\n"
    )
    # The same object as a main-resource update: status is not the update rules' business.
    assert validate([str(new), "--old", str(old)], capsys)[0] == 0


def test_a_status_update_needs_an_old_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = validate(["--subresource", "status", str(CLAIMS)], capsys)
    assert code == 2
    assert "needs" in err or "give the old objects with --old" in err


def test_a_status_update_of_an_object_without_an_old_version_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = validate(["--subresource", "status", str(CLAIMS), "--old", str(OLD_CLAIMS)], capsys)
    assert code == 2
    assert (
        f"{CLAIMS}:10: ResourceClaim default/broken: no old object matches ResourceClaim default/broken"
        in out
    )


def test_an_unreadable_old_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = validate([str(CLAIMS), "--old", str(BROKEN)], capsys)
    assert (code, out) == (2, "")
    assert f"{BROKEN}:13:12: invalid YAML" in err and "(in --old)" in err


YAML_SCALAR_HINT = (
    " (kubectl reads a plain YAML value such as y, n, on, off, 010 or 1.0 as a boolean or a number: "
    "quote a value meant as a string)"
)
SLICE_ON_NODE_N = (
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n"
    "  nodeName: n\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n"
)


def test_a_boolean_yaml_read_where_a_string_belongs_comes_with_a_hint_to_quote_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "slice.yaml"
    manifest.write_text(SLICE_ON_NODE_N)
    code, out, _ = validate([str(manifest)], capsys)
    assert code == 1
    assert out.endswith(f"(resource.k8s.io/v1, judged as Kubernetes 1.37){YAML_SCALAR_HINT}\n")
    assert 'spec.nodeName: Invalid value: "boolean"' in out


def test_json_and_other_type_errors_get_no_yaml_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    as_json = tmp_path / "slice.json"
    as_json.write_text(json.dumps(yaml.safe_load(SLICE_ON_NODE_N.replace("nodeName: n", "nodeName: false"))))
    code, out, _ = validate([str(as_json)], capsys)
    assert code == 1 and YAML_SCALAR_HINT not in out
    count_as_text = tmp_path / "claim.yaml"
    count_as_text.write_text(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n"
        '  devices: {requests: [{name: a, exactly: {deviceClassName: c, count: "two"}}]}\n'
    )
    code, out, _ = validate([str(count_as_text)], capsys)
    assert code == 1 and YAML_SCALAR_HINT not in out


# --- report formats -----------------------------------------------------------------------------------------


def test_junit_has_one_test_case_per_object_and_one_suite_per_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = validate(["-o", "junit", str(MANIFESTS), str(BROKEN)], capsys)
    assert code == 2
    xml = JUnitXml.fromstring(out)
    suites = {suite.name: suite for suite in xml}
    assert set(suites) == {
        str(CLAIMS),
        str(MANIFESTS / "more" / "lists.yaml"),
        str(MANIFESTS / "more" / "template.json"),
        str(BROKEN),
    }
    claims = suites[str(CLAIMS)]
    assert (claims.tests, claims.failures, claims.errors, claims.skipped) == (3, 1, 0, 1)
    cases = {case.name: case for case in claims}
    assert cases["ResourceClaim default/gpu"].is_passed
    [failure] = cases["ResourceClaim default/broken"].result
    assert isinstance(failure, Failure)
    assert failure.message == BAD_MODE
    assert failure.text == (
        'spec.allocationMode: Unsupported value: "Sometimes": supported values: "Immediate", "WaitForFirstConsumer"'
    )
    [skipped] = cases["Deployment default/web"].result
    assert isinstance(skipped, Skipped)
    broken = list(suites[str(BROKEN)])
    assert [case.name for case in broken] == ["ResourceClaim default/fine", "line 13"]
    [error] = broken[1].result
    assert isinstance(error, Error)
    assert (
        error.message
        == "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 12)"
    )
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (10, 2, 1, 2)


def test_tap_has_a_line_per_object_and_the_plan_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = validate(["-o", "tap", str(CLAIMS)], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[:3] == [
        "TAP version 13",
        f"ok 1 - {CLAIMS} ResourceClaim default/gpu",
        f"not ok 2 - {CLAIMS} ResourceClaim default/broken",
    ]
    block_end = lines.index("  ...")
    import yaml

    diagnostics = yaml.safe_load("\n".join(line[2:] for line in lines[4:block_end]))
    assert diagnostics["message"] == BAD_MODE
    assert lines[block_end + 1 :] == [
        f"ok 3 - {CLAIMS} Deployment default/web # SKIP apps/v1, Kind=Deployment is not a resource.k8s.io object",
        "1..3",
        "# Summary: 3 objects in 1 file: 1 valid, 1 invalid, 0 not validated, 1 skipped, 0 errors",
    ]


def test_json_reports_causes_and_the_summary_goes_to_stderr_when_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = validate(["-o", "json", "--summary", str(CLAIMS)], capsys)
    assert code == 1
    broken = json.loads(out)["results"][1]
    assert broken == {
        "source": str(CLAIMS),
        "line": 10,
        "status": "invalid",
        "apiVersion": "resource.k8s.io/v1alpha2",
        "release": "1.30",
        "kind": "ResourceClaim",
        "namespace": "default",
        "name": "broken",
        "operation": "CREATE",
        "message": BAD_MODE,
        "causes": [
            {
                "reason": "FieldValueNotSupported",
                "message": 'Unsupported value: "Sometimes": supported values: "Immediate", "WaitForFirstConsumer"',
                "field": "spec.allocationMode",
            }
        ],
    }
    assert err == "Summary: 3 objects in 1 file: 1 valid, 1 invalid, 0 not validated, 1 skipped, 0 errors\n"


# --- several processes and progress -------------------------------------------------------------------------


def test_jobs_give_the_same_results_in_input_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for index in range(12):
        (tmp_path / f"claim-{index:02d}.yaml").write_text(
            yaml_claim(
                "allocationMode: Sometimes" if index % 3 == 0 else "resourceClassName: gpu.example.com",
                name=f"c{index}",
            )
        )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CLAIMS.read_bytes())))
    serial = validate(["-o", "json", str(tmp_path), "-"], capsys)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CLAIMS.read_bytes())))
    parallel = validate(["-o", "json", "-j", "2", str(tmp_path), "-"], capsys)
    assert parallel == serial
    names = [result["name"] for result in json.loads(parallel[1])["results"]]
    assert names == [f"c{index}" for index in range(12)] + ["gpu", "broken", "web"]


def test_a_progress_line_is_written_for_long_runs_and_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline, "PROGRESS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(offline, "PROGRESS_EVERY_SECONDS", 0.0)
    progress, out = io.StringIO(), io.StringIO()
    run = ValidateRun(inputs=(str(CLAIMS), str(MANIFESTS / "more")))
    code = run_validate(run, out=out, err=io.StringIO(), read_stdin=lambda: b"", progress=progress)
    assert code == 1
    shown = progress.getvalue()
    assert "dra-webhook: 1/3 files, 3 objects" in shown
    assert "dra-webhook: 3/3 files, 8 objects" in shown
    assert shown.endswith("\r\x1b[K")
    assert "\r" not in out.getvalue()


def test_no_progress_line_without_a_terminal() -> None:
    progress = Progress(None, total_files=1, noun="objects")
    progress.advance(5)
    progress.finish()
    assert progress.items == 5


# --- the request namespace ----------------------------------------------------------------------------------


def test_a_namespaced_object_without_a_namespace_is_created_in_the_request_namespace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "claim.yaml"
    manifest.write_text(
        yaml_claim("resourceClassName: gpu.example.com").replace("  namespace: default\n", "")
    )
    assert validate([str(manifest)], capsys)[:2] == (0, "")
    code, out, _ = validate(["-n", "Team_A", str(manifest)], capsys)
    assert code == 1
    assert out == (
        f'{manifest}: ResourceClaim.resource.k8s.io "gpu" is invalid: metadata.namespace: Invalid value: '
        "\"Team_A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
        f"for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'){JUDGED_AS_1_30}\n"
    )
