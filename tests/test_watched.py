"""The rule both file watchers follow (webhook.watched): a new usable content goes into service, a
refused one is counted and told once, and once the files are back to the content in service a
refusal is over, so the same break again is counted and told again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from webhook.watched import WatchedFiles, content_digest


class Words(WatchedFiles[list[str]]):
    """The smallest watcher: the words of one file; no words, or the word "bad", is refused."""

    refusals = (ValueError,)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.told: list[str] = []
        self.builds = 0
        super().__init__()

    def read(self) -> tuple[bytes]:
        try:
            return (self.path.read_bytes(),)
        except OSError as error:
            raise ValueError(f"cannot read {self.path.name}: {error.strerror}") from None

    def build(self, contents: Sequence[bytes]) -> list[str]:
        self.builds += 1
        words = contents[0].decode().split()
        if not words:
            raise ValueError("no words")
        if "bad" in words:
            raise ValueError("a bad word")
        return words

    def applied(self, value: list[str], previous: list[str]) -> None:
        self.told.append(f"applied {value}, was {previous}")

    def refused(self, reason: str) -> None:
        self.told.append(f"refused: {reason}")


Break = Callable[[Path], object]
BREAKS: dict[str, tuple[Break, str]] = {
    "an unusable content": (lambda path: path.write_text("a bad word\n"), "a bad word"),
    "an empty file": (lambda path: path.write_text(""), "no words"),
    "the file removed": (lambda path: path.unlink(), "cannot read words: No such file or directory"),
}


@pytest.fixture
def words(tmp_path: Path) -> Words:
    path = tmp_path / "words"
    path.write_text("good words\n")
    return Words(path)


def test_the_value_is_built_at_start_and_an_unusable_start_raises(words: Words, tmp_path: Path) -> None:
    assert words.value == ["good", "words"]
    assert (words.reloads, words.reload_errors, words.last_error, words.told) == (0, 0, None, [])
    assert words.poll() is None  # unchanged
    (tmp_path / "bad").write_text("bad\n")
    with pytest.raises(ValueError, match="a bad word"):
        Words(tmp_path / "bad")
    with pytest.raises(ValueError, match="cannot read missing"):
        Words(tmp_path / "missing")


@pytest.mark.parametrize("broken", list(BREAKS))
def test_a_break_is_counted_and_told_once_per_break_even_the_same_break_again(
    words: Words, broken: str
) -> None:
    breaking, reason = BREAKS[broken]
    breaking(words.path)
    assert words.poll() is None
    assert words.poll() is None  # the same break, polled again: told once
    assert (words.reload_errors, words.last_error) == (1, reason)

    words.path.write_text("good words\n")  # back to the content in service
    assert words.poll() is None  # nothing new to apply
    assert (words.reloads, words.reload_errors, words.last_error) == (0, 1, None)

    breaking(words.path)  # the same break again: news again
    assert words.poll() is None
    assert words.poll() is None
    assert (words.reloads, words.reload_errors, words.last_error) == (0, 2, reason)
    assert words.told == [f"refused: {reason}", f"refused: {reason}"]
    assert words.value == ["good", "words"]  # in service throughout


def test_a_new_usable_content_goes_into_service_and_ends_a_refusal(words: Words) -> None:
    words.path.write_text("bad\n")
    assert words.poll() is None
    words.path.write_text("new words\n")
    assert words.poll() == ["new", "words"]
    assert (words.value, words.reloads, words.reload_errors, words.last_error) == (
        ["new", "words"],
        1,
        1,
        None,
    )
    assert words.told == ["refused: a bad word", "applied ['new', 'words'], was ['good', 'words']"]
    assert words.poll() is None  # in service now


def test_a_content_is_built_once_whatever_the_number_of_polls(words: Words) -> None:
    built_at_start = words.builds
    words.path.write_text("bad\n")
    for _ in range(3):
        words.poll()
    words.path.write_text("new\n")
    for _ in range(3):
        words.poll()
    assert words.builds - built_at_start == 2


def test_two_breaks_in_a_row_are_two_refusals(words: Words) -> None:
    words.path.write_text("bad\n")
    words.poll()
    words.path.unlink()
    words.poll()
    assert words.reload_errors == 2
    assert words.last_error == "cannot read words: No such file or directory"


def test_the_digest_tells_apart_contents_split_differently() -> None:
    assert content_digest((b"ab", b"")) != content_digest((b"a", b"b"))
    assert content_digest((b"a", b"b")) == content_digest([b"a", b"b"])
