"""`dra-webhook review` with regression suites: AdmissionReviews and the answers they must get.

Plain review files print their answers (exit 0 all allowed, 1 any denied); suites (`tests:`) and
`--expect` files say what each answer must be (exit 0 all met, 1 any unmet); unreadable input is 2.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from junitparser import Error, Failure, JUnitXml

from tests.reviews import admission_review, resource_claim
from webhook.cli import main
from webhook.offline import CauseExpectation, Expectation, SuiteError, parse_expectation

DATA = Path(__file__).parent / "data" / "offline"
REVIEWS = DATA / "reviews"
JSON_LINES = REVIEWS / "claims.jsonl"
SPEC_CHANGED = REVIEWS / "claim-spec-changed.json"
TOO_MANY = REVIEWS / "claim-status-too-many-consumers.json"
SUITE = DATA / "suites" / "claims.yaml"
UNMET = DATA / "suites" / "unmet.yaml"
EXPECT = DATA / "expect.yaml"

SPEC_IMMUTABLE = (
    'ResourceClaim.resource.k8s.io "gpu" is invalid: spec: Invalid value: '
    '{"resourceClassName":"fpga.example.com","allocationMode":"WaitForFirstConsumer"}: field is immutable'
)
TOO_LONG = (
    'ResourceClaim.resource.k8s.io "gpu" is invalid: status.reservedFor: Too long: may not be longer than 32'
)
BAD_MODE = (
    'ResourceClaim.resource.k8s.io "broken" is invalid: spec.allocationMode: Unsupported value: "Sometimes": '
    'supported values: "Immediate", "WaitForFirstConsumer"'
)


def review(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["review", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_suite(directory: Path, tests: list[dict[str, Any]]) -> Path:
    suite = directory / "suite.yaml"
    suite.write_text(yaml.safe_dump({"tests": tests}, sort_keys=False))
    return suite


# --- expectations, one rule at a time ---------------------------------------------------------------------

DENIED_RESPONSE: dict[str, Any] = {
    "uid": "u",
    "allowed": False,
    "status": {
        "status": "Failure",
        "message": TOO_LONG,
        "reason": "Invalid",
        "code": 422,
        "details": {
            "causes": [
                {
                    "reason": "FieldValueTooLong",
                    "message": "Too long: may not be longer than 32",
                    "field": "status.reservedFor",
                },
                {"reason": "FieldValueRequired", "message": "Required value", "field": "status.driverName"},
            ]
        },
    },
    "warnings": ['unknown field "spec.colour"'],
}


@pytest.mark.parametrize(
    ("expectation", "problems"),
    [
        ({}, []),
        ({"allowed": False, "code": 422, "reason": "Invalid", "message": TOO_LONG}, []),
        ({"allowed": True}, [f"allowed: expected true, got false: {TOO_LONG}"]),
        ({"code": 400}, ["code: expected 400, got 422"]),
        ({"reason": "Forbidden"}, ["reason: expected 'Forbidden', got 'Invalid'"]),
        ({"message": "other"}, [f"message: expected 'other', got {TOO_LONG!r}"]),
        ({"message_contains": "may not be longer than 32"}, []),
        (
            {"message_contains": ["Too long", "nonsense"]},
            [f"message does not contain 'nonsense': {TOO_LONG!r}"],
        ),
        ({"causes": [{"field": "status.driverName"}]}, []),
        ({"causes": [{"field": "status.reservedFor", "reason": "FieldValueTooLong"}]}, []),
        (
            {"causes": [{"field": "status.reservedFor", "reason": "FieldValueInvalid"}]},
            [
                "no cause matches {field='status.reservedFor', reason='FieldValueInvalid'}; causes: "
                "[status.reservedFor (FieldValueTooLong), status.driverName (FieldValueRequired)]"
            ],
        ),
        (
            {
                "causes": [{"field": "status.reservedFor"}, {"field": "status.driverName"}],
                "causes_exact": True,
            },
            [],
        ),
        (
            {"causes": [{"field": "status.reservedFor"}], "causes_exact": True},
            [
                "causes: expected exactly [{field='status.reservedFor'}], got "
                "[status.reservedFor (FieldValueTooLong), status.driverName (FieldValueRequired)]"
            ],
        ),
        (
            {
                "causes": [{"field": "status.driverName"}, {"field": "status.reservedFor"}],
                "causes_exact": True,
            },
            [
                "causes: expected exactly [{field='status.driverName'}, {field='status.reservedFor'}], got "
                "[status.reservedFor (FieldValueTooLong), status.driverName (FieldValueRequired)]"
            ],
        ),
        ({"warnings_contain": "spec.colour"}, []),
        ({"warnings_contain": ["spec.size"]}, ["no warning contains 'spec.size'"]),
    ],
)
def test_an_expectation_checks_only_what_it_names(expectation: dict[str, Any], problems: list[str]) -> None:
    assert parse_expectation(expectation, "expect").problems(DENIED_RESPONSE) == problems


def test_an_allowed_answer_has_code_200_and_no_causes() -> None:
    expect = Expectation(allowed=True, code=200, causes=(CauseExpectation(field="spec"),))
    assert expect.problems({"uid": "u", "allowed": True}) == [
        "no cause matches {field='spec'}; causes: [none]"
    ]


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"alowed": True}, "expect: unknown key 'alowed'"),
        ({"allowed": "yes please"}, "expect.allowed: expected bool, got 'yes please'"),
        ({"code": True}, "expect.code: expected int, got True"),
        ({"causes": {"field": "spec"}}, "expect.causes: expected a list"),
        ({"causes": [{"path": "spec"}]}, "expect.causes[0]: unknown key 'path'"),
        ({"causes": [{}]}, "expect.causes[0]: expected a mapping with field, reason and/or message"),
        ({"message_contains": [1]}, "expect.message_contains: expected a string or a list of strings"),
        ([True], "expect: expected a mapping of expectations"),
    ],
)
def test_a_malformed_expectation_is_refused_with_its_place(raw: Any, problem: str) -> None:
    with pytest.raises(SuiteError) as refused:
        parse_expectation(raw, "expect")
    assert str(refused.value).startswith(problem)


# --- plain review files: the answers ------------------------------------------------------------------------


def test_a_directory_of_reviews_prints_every_answer_in_order_and_exits_1_when_one_is_denied(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = review(["--compact", str(REVIEWS)], capsys)
    assert (code, err) == (1, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert [(answer["response"]["uid"], answer["response"]["allowed"]) for answer in answers] == [
        ("offline-0003", False),
        ("offline-0004", False),
        ("offline-0001", True),
        ("offline-0002", False),
    ]
    assert answers[0]["response"]["status"]["message"] == SPEC_IMMUTABLE


def test_json_lines_from_stdin_are_judged_one_by_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(JSON_LINES.read_bytes())))
    code, out, _ = review(["-o", "text", "-"], capsys)
    assert code == 1
    assert out.splitlines() == ["ALLOWED <stdin>:1", f"DENIED <stdin>:2: {BAD_MODE}"]


def test_an_admission_review_may_be_written_in_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = admission_review(resource_claim("gpu"), uid="yaml-1")
    path = tmp_path / "review.yaml"
    path.write_text(yaml.safe_dump(document))
    code, out, _ = review(["--compact", str(path)], capsys)
    assert code == 0
    assert json.loads(out)["response"] == {"uid": "yaml-1", "allowed": True}


def test_a_broken_json_line_is_unreadable_with_its_line_after_the_reviews_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = JSON_LINES.read_text().splitlines()
    path = tmp_path / "reviews.jsonl"
    path.write_text(f"{lines[0]}\n{{not json}}\n{lines[1]}\n")
    code, out, err = review(["--compact", str(path)], capsys)
    assert code == 2
    assert [json.loads(line)["response"]["uid"] for line in out.splitlines()] == ["offline-0001"]
    assert err == (
        f"{path}: request body is not valid JSON: Expecting property name enclosed in double quotes: line 2 column 2\n"
    )


def test_a_document_that_is_not_an_admission_review_is_unreadable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text(yaml.safe_dump(resource_claim("gpu")))
    code, out, _ = review(["-o", "text", str(path)], capsys)
    assert code == 2
    assert out == (
        f"ERROR {path}:1: unsupported AdmissionReview apiVersion 'resource.k8s.io/v1alpha2'; expected one of "
        "admission.k8s.io/v1, admission.k8s.io/v1beta1\n"
    )


# --- suites -----------------------------------------------------------------------------------------------


def test_a_suite_whose_expectations_are_met_passes_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = review(["--summary", str(SUITE)], capsys)
    assert code == 0
    assert out.splitlines() == [
        "PASS a valid claim is allowed",
        "PASS an unsupported allocation mode is denied",
        "PASS the spec of a claim is immutable",
        "PASS a claim is reserved for at most 32 consumers",
        "PASS an update built from two manifests",
        "Summary: 5 reviews in 1 file: 5 passed, 0 failed, 0 errors",
    ]


def test_unmet_expectations_fail_the_run_and_say_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = review([str(UNMET)], capsys)
    assert code == 1
    assert out.splitlines() == [
        "PASS met",
        f"FAIL expects an allowed answer for a denied review: allowed: expected true, got false: {SPEC_IMMUTABLE}",
        "FAIL expects the wrong field and code: code: expected 400, got 422; "
        f"message does not contain 'nonsense': {TOO_LONG!r}; "
        "no cause matches {field='status.allocation'}; causes: [status.reservedFor (FieldValueTooLong)]",
    ]


def test_a_test_without_expect_must_be_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(
        tmp_path,
        [
            {"name": "allowed", "object": resource_claim("gpu")},
            {"name": "denied", "object": resource_claim("broken", allocationMode="Sometimes")},
        ],
    )
    code, out, _ = review([str(suite)], capsys)
    assert code == 1
    assert out.splitlines() == ["PASS allowed", f"FAIL denied: allowed: expected true, got false: {BAD_MODE}"]


def test_a_review_file_with_several_reviews_is_one_case_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(
        tmp_path, [{"name": "all allowed", "review": str(JSON_LINES), "expect": {"allowed": True}}]
    )
    code, out, _ = review([str(suite)], capsys)
    assert code == 1
    assert out.splitlines() == [
        "PASS all allowed [1/2]",
        f"FAIL all allowed [2/2]: allowed: expected true, got false: {BAD_MODE}",
    ]


def test_an_inline_review_and_an_update_of_manifests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = resource_claim("gpu")
    new = resource_claim("gpu", resourceClassName="fpga.example.com")
    for manifest in (old, new):
        del manifest["metadata"]["resourceVersion"], manifest["metadata"]["uid"]
    suite = write_suite(
        tmp_path,
        [
            {
                "name": "inline",
                "review": admission_review(resource_claim("gpu")),
                "expect": {"allowed": True},
            },
            {
                "name": "class changed",
                "object": new,
                "old_object": old,
                "expect": {"allowed": False, "causes": [{"field": "spec", "reason": "FieldValueInvalid"}]},
            },
        ],
    )
    code, out, _ = review([str(suite)], capsys)
    assert (code, out) == (0, "PASS inline\nPASS class changed\n")


@pytest.mark.parametrize(
    ("test", "error"),
    [
        ({"name": "typo", "reveiw": "x.json"}, "tests[0]: unknown key 'reveiw'"),
        ({"name": "neither"}, "tests[0]: give either review (an AdmissionReview) or object (a manifest)"),
        ({"name": "missing", "review": "missing.json"}, "cannot read: No such file or directory"),
        (
            {"name": "bad expect", "object": {"kind": "x"}, "expect": {"allowed": 1}},
            "tests[0].expect.allowed: expected bool",
        ),
        (
            {"name": "two objects", "object": str(DATA / "manifests" / "claims.yaml")},
            "expected one object, found 3",
        ),
    ],
)
def test_a_malformed_test_is_an_error_and_exits_2(
    test: dict[str, Any], error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(tmp_path, [test, {"name": "fine", "object": resource_claim("gpu")}])
    code, out, _ = review([str(suite)], capsys)
    assert code == 2
    lines = out.splitlines()
    assert lines[0].startswith(f"ERROR {suite}:2 ({test['name']}): ")  # the line the test starts on
    assert error in lines[0]
    assert lines[1:] == ["PASS fine"]


def test_a_malformed_test_is_located_at_the_line_it_starts_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "# two fine tests, then a typo\n"
        "tests:\n"
        "  - name: first\n"
        "    object: {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: a}}\n"
        "\n"
        "  - name: second\n"
        "    object: {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: b}}\n"
        "\n"
        "  - name: third\n"
        "    object: {apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: c}}\n"
        "    expect: {alowed: true}\n"
    )
    code, out, _ = review([str(suite)], capsys)
    assert code == 2
    assert out.splitlines() == [
        "PASS first",
        "PASS second",
        f"ERROR {suite}:9 (third): tests[2].expect: unknown key 'alowed' (known: allowed, causes, "
        "causes_exact, code, message, message_contains, reason, warnings_contain)",
    ]


TYPO_TEST = "  - name: {name}\n    object: {{apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {{name: a}}}}\n    expect: {{alowed: true}}\n"


@pytest.mark.parametrize(
    ("content", "lines"),
    [
        # the second document of a file: its own tests' lines
        ("tests: []\n---\n# the real suite\ntests:\n" + TYPO_TEST.format(name="t"), [5]),
        # two `tests` keys: the loader keeps the last, and so do the lines
        ("tests:\n" + TYPO_TEST.format(name="first") + "tests:\n\n" + TYPO_TEST.format(name="t"), [7]),
        # a JSON suite, one test per line
        (
            '{"tests": [\n{"name": "ok", "object": {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", '
            '"metadata": {"name": "a"}}},\n{"name": "t", "object": {}, "expect": {"alowed": true}}\n]}\n',
            [3],
        ),
    ],
    ids=["second document", "tests given twice", "json"],
)
def test_a_malformed_test_is_located_in_any_suite_file(
    content: str, lines: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / ("suite.json" if content.startswith("{") else "suite.yaml")
    suite.write_text(content)
    _, out, _ = review([str(suite)], capsys)
    errors = [line for line in out.splitlines() if line.startswith("ERROR")]
    assert [error.partition(" (")[0] for error in errors] == [f"ERROR {suite}:{line}" for line in lines]


def test_tests_must_be_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text("tests: {name: x}\n")
    assert review([str(suite)], capsys)[:2] == (2, f"ERROR {suite}:1: tests: expected a list of tests\n")


# --- --expect files -----------------------------------------------------------------------------------------


def test_expect_files_match_reviews_by_uid_then_file_and_the_rest_must_be_allowed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = review(["--expect", str(EXPECT), str(REVIEWS)], capsys)
    assert code == 0
    assert out.splitlines() == [
        f"PASS {SPEC_CHANGED}",
        f"PASS {TOO_MANY}",
        f"ALLOWED {JSON_LINES}:1",
        f"PASS {JSON_LINES}:2",
    ]


def test_an_expectation_that_matches_no_review_is_unmet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = review(["--expect", str(EXPECT), str(JSON_LINES)], capsys)
    assert code == 1
    assert out.splitlines() == [
        f"ALLOWED {JSON_LINES}:1",
        f"PASS {JSON_LINES}:2",
        f"FAIL {EXPECT}: expect[1]: matched no review",
    ]


def test_an_expect_file_inside_a_reviewed_directory_is_not_read_as_a_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "claims.jsonl").write_bytes(JSON_LINES.read_bytes())
    (tmp_path / "expect.yaml").write_text("expect:\n  - uid: offline-0002\n    allowed: false\n")
    code, out, _ = review(["--expect", str(tmp_path / "expect.yaml"), str(tmp_path)], capsys)
    assert (code, out) == (0, f"ALLOWED {tmp_path / 'claims.jsonl'}:1\nPASS {tmp_path / 'claims.jsonl'}:2\n")


def test_a_malformed_expect_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text("expect:\n  - allowed: true\n")
    code, out, err = review(["--expect", str(expect), str(JSON_LINES)], capsys)
    assert (code, out) == (2, "")
    assert err == f"{expect}: expect[0]: needs file (a glob) or uid to say which reviews it is for\n"


def test_answers_output_keeps_stdout_json_and_reports_unmet_expectations_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = review(["-o", "answers", "--compact", str(UNMET)], capsys)
    assert code == 1
    assert len([json.loads(line) for line in out.splitlines()]) == 3
    assert err.splitlines()[0].startswith("FAIL expects an allowed answer for a denied review: ")


# --- report formats and processes -----------------------------------------------------------------------------


def test_junit_has_one_case_per_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(tmp_path, [{"name": "typo", "reveiw": "x"}])
    code, out, _ = review(["-o", "junit", str(UNMET), str(suite)], capsys)
    assert code == 2
    xml = JUnitXml.fromstring(out)
    assert (xml.tests, xml.failures, xml.errors) == (4, 2, 1)
    unmet = {
        case.name: case for suite_element in xml if suite_element.name == str(UNMET) for case in suite_element
    }
    assert unmet["met"].is_passed
    [failure] = unmet["expects the wrong field and code"].result
    assert isinstance(failure, Failure)
    assert failure.message.startswith("code: expected 400, got 422; ")
    assert failure.text == "status.reservedFor: Too long: may not be longer than 32"
    [typo] = [case for suite_element in xml if suite_element.name == str(suite) for case in suite_element]
    [error] = typo.result
    assert isinstance(error, Error)
    assert error.message.startswith("tests[0]: unknown key 'reveiw'")


def test_tap_and_json_reports(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = review(["-o", "tap", str(UNMET)], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[:3] == [
        "TAP version 13",
        f"ok 1 - {UNMET} met",
        f"not ok 2 - {UNMET} expects an allowed answer for a denied review",
    ]
    assert lines[-2:] == ["1..3", "# Summary: 3 reviews in 1 file: 1 passed, 2 failed, 0 errors"]

    code, out, _ = review(["-o", "json", str(UNMET)], capsys)
    report = json.loads(out)
    assert code == 1
    assert report["summary"] == {"files": 1, "reviews": 3, "passed": 1, "failed": 2, "errors": 0}
    second = report["results"][1]
    assert (second["status"], second["expected"], second["uid"]) == ("fail", True, "offline-0003")
    assert second["problems"] == [f"allowed: expected true, got false: {SPEC_IMMUTABLE}"]
    assert second["answer"]["response"]["status"]["message"] == SPEC_IMMUTABLE


def test_jobs_keep_the_input_order(capsys: pytest.CaptureFixture[str]) -> None:
    serial = review(["-o", "json", str(REVIEWS), str(SUITE), str(UNMET)], capsys)
    parallel = review(["-o", "json", "-j", "2", str(REVIEWS), str(SUITE), str(UNMET)], capsys)
    assert parallel == serial
    assert serial[0] == 1


def test_a_suites_object_gets_what_the_api_server_fills_in_before_validation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    generated = {**resource_claim("gpu"), "metadata": {"generateName": "gpu-"}}
    bare = {key: value for key, value in resource_claim("gpu").items() if key != "metadata"}
    suite = write_suite(
        tmp_path,
        [
            {"name": "a generated name", "object": generated},
            {
                "name": "no metadata: only the name is missing",
                "object": bare,
                "expect": {
                    "causes_exact": True,
                    "causes": [{"field": "metadata.name", "reason": "FieldValueRequired"}],
                },
            },
        ],
    )
    code, out, _ = review([str(suite)], capsys)
    assert (code, out.splitlines()) == (
        0,
        ["PASS a generated name", "PASS no metadata: only the name is missing"],
    )
