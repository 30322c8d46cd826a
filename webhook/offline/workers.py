"""Judging the inputs of a run in input order: in this process, or in `-j N` worker processes."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from webhook.offline.inputs import Task

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
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=jobs, initializer=_start_worker, initargs=(build_worker_judge,)
    )
    try:
        yield from pool.map(_judge_in_worker, tasks, chunksize=chunk)
    finally:
        # A run that stops early (its reader closed the pipe) does not wait for the inputs not
        # yet judged; the chunks being judged finish.
        pool.shutdown(wait=True, cancel_futures=True)


# Each worker process of a `-j N` run holds its judge here, set once by its initializer: a worker
# process has no caller to pass it down from.
_worker_judge: list[InputJudge[Any]] = []


def _start_worker(build_worker_judge: Callable[[], InputJudge[Any]]) -> None:
    _worker_judge[:] = [build_worker_judge()]


def _judge_in_worker(task: Task) -> list[Any]:
    return _worker_judge[0].judge_input(*task)
