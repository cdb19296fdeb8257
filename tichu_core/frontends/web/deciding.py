"""Where the web server's bots think: one thread beside the event loop.

A bot's decision (a search bot's is 0.2 to 1.2 s of play-outs) never runs on the event
loop: the table gathers what the bot is given (its player's observation, the seat's
legal actions, its events) on the loop, and the bot reads them and answers on the
``tichu-bots`` thread (:class:`Deciding`). The loop goes on serving people meanwhile;
the thread takes the GIL in the interpreter's switch-interval slices (``serve()`` sets
1 ms), so that a person's request waits at most about one slice for it.

One thread for every table: a table's bots are asked one question at a time, and two
tables' questions one after the other, so that a bot object is never used by two
threads at once and the loop shares the GIL with one thinker only (the measurement in
docs/web.md section 6 chose this over a process pool). Each question has a time budget
(``Limits.bot_seconds``): a bot that has not answered by then is answered for (its
table goes on with a fallback, tables.py) and its late answer is dropped. The thread
is a daemon: a runaway decision does not hold up the server's exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

_Result = TypeVar("_Result")

THREAD_NAME = "tichu-bots"


class Deciding:
    """The thread the bots decide on: :meth:`ask` runs a question there and waits for
    its answer (at most ``budget`` seconds) without blocking the event loop."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.late = 0  # questions answered for because their budget ran out

    def submit(self, job: Callable[[], _Result]) -> Future[_Result]:
        future: Future[_Result] = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
                self._thread.start()
        self._jobs.put((future, job))
        return future

    async def ask(self, job: Callable[[], _Result], budget: float) -> tuple[bool, _Result | None]:
        """Run ``job`` on the thread: ``(True, its answer)``, or ``(False, None)`` when it
        has not answered within ``budget`` seconds (it may still be running; its answer
        is dropped). Its exception is raised here."""
        future = self.submit(job)
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), budget)
        except TimeoutError:
            self.late += 1
            return False, None
        return True, answer

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            future, job = item
            if not future.set_running_or_notify_cancel():
                continue  # its asker gave up before it started
            try:
                result = job()
            except BaseException as error:
                with contextlib.suppress(Exception):
                    future.set_exception(error)
            else:
                with contextlib.suppress(Exception):
                    future.set_result(result)

    def close(self) -> None:
        """Let the thread end once the question it is on is answered (not waited for)."""
        self._jobs.put(None)
