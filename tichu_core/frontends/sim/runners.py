"""Where the matches of a run are played: in this process, in local worker processes,
or as tasks on a Ray cluster. Every runner gives the same records in the same order.

Matches go out in batches, and only a few batches per worker are in flight at any
time: the next batch is submitted as the oldest one's records are handed on, in
match order. Memory stays flat however many matches a run has, and the records
stream to the summary and the ``--out`` file as they come.

After an interruption, a runner's ``salvage()`` gives the records of the batches that
had finished but not yet been handed on, and leaving the ``with`` block stops
every worker at once (local workers are terminated, Ray tasks cancelled).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from tichu_core.frontends.sim.matches import Record, RunSpec, play_batch, play_record

BACKENDS = ("local", "ray")
PR_SET_PDEATHSIG = 1  # prctl(2)
# Batches in flight per worker: one running, one queued behind it.
IN_FLIGHT = 2
MAX_BATCH = 32


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot be used here (Ray not installed, no cluster)."""


def batch_size(matches: int, workers: int) -> int:
    """Matches per batch: enough batches for an even spread and a lively progress bar,
    few enough that each is worth sending."""
    return max(1, min(MAX_BATCH, matches // (workers * 8)))


def batches(indices: Iterable[int], size: int) -> Iterator[list[int]]:
    it = iter(indices)
    while chunk := list(islice(it, size)):
        yield chunk


class SerialRunner:
    """Every match in this process, one after the other."""

    workers = 1

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec

    def records(self, indices: Iterable[int], count: int) -> Iterator[Record]:
        for index in indices:
            yield play_record(self.spec, index)

    def salvage(self) -> list[Record]:
        return []

    def __enter__(self) -> SerialRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _Window:
    """The batches in flight, oldest first; subclasses say how to submit and wait."""

    workers: int

    def __init__(self) -> None:
        self._window: deque[Any] = deque()

    def _submit(self, batch: list[int]) -> Any:
        raise NotImplementedError

    def _wait(self, handle: Any) -> list[Record]:
        raise NotImplementedError

    def _finished(self, handles: list[Any]) -> list[list[Record]]:
        raise NotImplementedError

    def records(self, indices: Iterable[int], count: int) -> Iterator[Record]:
        pending = batches(indices, batch_size(count, self.workers))
        window = self._window
        for batch in islice(pending, self.workers * IN_FLIGHT):
            window.append(self._submit(batch))
        while window:
            records = self._wait(window[0])
            window.popleft()
            following = next(pending, None)
            if following is not None:
                window.append(self._submit(following))
            yield from records

    def salvage(self) -> list[Record]:
        """The records of batches already finished (after an interruption)."""
        handles = list(self._window)
        self._window.clear()
        return [record for done in self._finished(handles) for record in done]


def _worker_start() -> None:
    """A worker ignores Ctrl-C (its parent decides) and, on Linux, is sent SIGTERM if
    its parent dies without terminating it (killed, say), so that none is left behind."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            set_parent_death_signal = ctypes.CDLL(None, use_errno=True).prctl
            set_parent_death_signal(PR_SET_PDEATHSIG, signal.SIGTERM)


@contextlib.contextmanager
def interrupted_by_sigterm() -> Iterator[None]:
    """SIGTERM (``kill``, a scheduler's time-out) stops a run as Ctrl-C does: as a
    KeyboardInterrupt, so that the workers are stopped and the file kept. Only where
    signals can be handled (the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class PoolRunner(_Window):
    """Batches in ``workers`` local processes. The workers ignore Ctrl-C (the terminal
    sends it to all of them): this process decides, and terminates them."""

    def __init__(self, spec: RunSpec, workers: int) -> None:
        super().__init__()
        self.spec = spec
        self.workers = workers
        methods = multiprocessing.get_all_start_methods()
        # Fork where there is one (nothing to re-import, and `python -m tichu_core`
        # is no module a spawned worker may import again).
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        # Created ignoring SIGINT, so that no worker ever sees one, even as it starts.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            self._pool = context.Pool(workers, initializer=_worker_start)
        finally:
            signal.signal(signal.SIGINT, previous)

    def _submit(self, batch: list[int]) -> Any:
        return self._pool.apply_async(play_batch, (self.spec, batch))

    def _wait(self, handle: Any) -> list[Record]:
        records: list[Record] = handle.get()
        return records

    def _finished(self, handles: list[Any]) -> list[list[Record]]:
        return [h.get() for h in handles if h.ready() and h.successful()]

    def __enter__(self) -> PoolRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()


class RayRunner(_Window):
    """Batches as Ray tasks: on the cluster at ``address`` (``ray start --head`` prints
    it), in the Ray instance this process already has, or in a new local one."""

    def __init__(self, spec: RunSpec, workers: int, address: str | None) -> None:
        super().__init__()
        try:
            # Untyped: Ray's own annotations are partial.
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise BackendUnavailable("--backend ray needs Ray: pip install 'tichu[ray]'") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING"}
            if address is not None:
                options["address"] = address
            elif workers > 1 and "RAY_ADDRESS" not in os.environ:
                options["num_cpus"] = workers  # the size of a new local instance
            try:
                ray.init(**options)
            except ConnectionError as error:
                raise BackendUnavailable(f"no Ray cluster at {address}: {error}") from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = max(workers, cpus, 1)
        self._task = ray.remote(play_batch)
        self._spec = ray.put(spec)

    def _submit(self, batch: list[int]) -> Any:
        return self._task.remote(self._spec, batch)

    def _wait(self, handle: Any) -> list[Record]:
        records: list[Record] = self._ray.get(handle)
        return records

    def _finished(self, handles: list[Any]) -> list[list[Record]]:
        if not handles:
            return []
        ready, _ = self._ray.wait(handles, num_returns=len(handles), timeout=0)
        done = set(ready)
        finished = []
        for handle in handles:  # in match order
            if handle in done:
                try:
                    finished.append(self._ray.get(handle))
                except Exception:  # a failed task has no records to keep
                    continue
        return finished

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        for handle in self._window:
            self._ray.cancel(handle, force=True)
        self._window.clear()
        if self._started:
            self._ray.shutdown()


def open_runner(
    spec: RunSpec, workers: int = 1, backend: str = "local", address: str | None = None
) -> SerialRunner | PoolRunner | RayRunner:
    """The runner of ``backend`` (``local``: this process for one worker, else a pool)."""
    if backend == "ray":
        return RayRunner(spec, workers, address)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    return SerialRunner(spec) if workers <= 1 else PoolRunner(spec, workers)
