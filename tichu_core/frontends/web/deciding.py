"""Where the web server's bots think: never on the event loop.

A bot's decision (a search bot's is 0.2 to 1.2 s of play-outs, compiled) never runs on
the event loop: the table gathers what the bot is given (its player's observation, the
seat's legal actions, its events) on the loop, and the bot reads them and answers
elsewhere (:class:`Deciding`), while the loop goes on serving people:

- ``process=True`` (what ``tichu serve`` uses): in a worker process of its own
  (:class:`BotProcess`, started with ``spawn``). The bots live there (each sent once,
  pickled, then asked by key); each question and answer crosses a pipe. The server's
  GIL is never taken by a bot, a decision over its time budget is stopped by
  restarting the worker, and a bot that runs out of memory (the worker's address
  space is capped at :data:`WORKER_MEMORY`) costs the worker, not the server.
- ``process=False`` (the default for an embedded lobby and the tests): on one thread
  beside the loop, sharing the GIL with it in switch-interval slices.

Either way one question is answered at a time, in the order asked, by one ``tichu-
bots`` thread (it waits on the pipe in process mode), so that a bot object is never
used by two threads at once. Each question has a time budget
(``Limits.bot_seconds``): a bot that has not answered by then is answered for (its
table goes on with a fallback, tables.py) and its late answer is dropped.
docs/web.md section 6 has the measurement that chose the process for ``tichu serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import tichu_core as tc

log = logging.getLogger("tichu.web")

_Result = TypeVar("_Result")

THREAD_NAME = "tichu-bots"
# The worker process's address space: a bot that wants more gets MemoryError there.
WORKER_MEMORY = 3 * 2**30
# How long the worker process may take to start (import the engine).
STARTUP_SECONDS = 120.0
# How much lower the worker's scheduling priority is than the server's (nice).
WORKER_NICENESS = 10
# Bots the worker keeps (an evicted one is sent again when next asked).
WORKER_BOTS = 4096

# (seat, optional, observation, actions, (variant, player, events) or None)
Question = tuple[int, bool, Any, Any, Any]


def think(bot: Any, question: Question) -> tc.Action | None:
    """A bot's answer: ``offer`` for a chance out of turn (None lets it stand), else
    ``choose``; ``observe`` first when the bot plans on sampled worlds
    (frontends/bots/driver.py, ``show_events``)."""
    seat, optional, observation, actions, shown = question
    if shown is not None:
        bot.observe(*shown)
    answer: tc.Action | None
    if optional:
        answer = bot.offer(observation, actions, seat)
    else:
        answer = bot.choose(observation, actions, seat)
    return answer


class Late(Exception):
    """The bot did not answer within its budget."""


class Deciding:
    """Where the bots decide: :meth:`ask` puts a bot's question to it (in the worker
    process, or on the bot thread) and waits for the answer (at most ``budget``
    seconds) without blocking the event loop."""

    def __init__(self, process: bool = False) -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.process = BotProcess() if process else None
        self.late = 0  # questions answered for because their budget ran out

    def submit(self, job: Callable[[], _Result]) -> Future[_Result]:
        future: Future[_Result] = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
                self._thread.start()
        self._jobs.put((future, job))
        return future

    async def ask(
        self, bot: Any, question: Question, budget: float
    ) -> tuple[bool, tc.Action | None]:
        """``(True, the bot's answer)``, or ``(False, None)`` when it has not answered
        within ``budget`` seconds (its answer, if it comes, is dropped). The bot's
        exception is raised here."""
        process = self.process
        if process is not None:
            future = self.submit(lambda: process.ask(bot, question, budget))
            wait = budget + 30.0  # the thread's own budget stops the worker first
        else:
            future = self.submit(lambda: think(bot, question))
            wait = budget
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except (TimeoutError, Late):
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
        """Let the thread end once the question it is on is answered (not waited for),
        and the worker process with it."""
        if self.process is not None and self._thread is not None:
            self.submit(self.process.close)  # after the questions queued before
        self._jobs.put(None)


class BotProcess:
    """The worker process the bots think in, used from one thread (the bot thread)."""

    def __init__(self) -> None:
        self._process: Any = None
        self._conn: Connection | None = None
        self._keys: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._counter = itertools.count(1)
        self._known: set[int] = set()  # the keys of the bots the worker holds
        # Per bot: how many of its player's events the worker holds (a stream only
        # grows: each question sends the new ones, not the whole match again).
        self._events_sent: dict[int, int] = {}
        self.restarts = 0

    def _start(self) -> Connection:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        self._process = context.Process(
            target=_worker, args=(theirs,), name="tichu-bots", daemon=True
        )
        self._process.start()
        theirs.close()
        self._conn = mine
        self._known, self._events_sent = set(), {}
        # Ready once it has imported the engine (a second or two): not a bot's time.
        if not mine.poll(STARTUP_SECONDS) or mine.recv() != "ready":
            self._stop()
            raise RuntimeError("the bots' worker process did not start")
        return mine

    def _stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
            self._process = None

    def ask(self, bot: Any, question: Question, budget: float) -> tc.Action | None:
        conn = self._conn or self._start()
        try:
            key = self._keys.get(bot)
        except TypeError:  # a bot that cannot be weakly referenced: one key per object
            key = id(bot)
        if key is None:
            key = self._keys[bot] = next(self._counter)
        for _ in range(2):
            sent = bot if key not in self._known else None
            seat, optional, observation, actions, shown = question
            told = None
            if shown is not None:
                variant, player, events = shown
                start = 0 if sent is not None else self._events_sent.get(key, 0)
                if start > len(events):
                    start = 0  # not the stream it was told before: all of it again
                told = (variant if start == 0 else None, player, start, events[start:])
                self._events_sent[key] = len(events)
            try:
                conn.send((key, sent, (seat, optional, observation, actions, told)))
                if not conn.poll(budget):
                    self.restarts += 1
                    log.warning("a bot took over %g s: its worker process is restarted", budget)
                    self._stop()
                    raise Late
                status, value = conn.recv()
            except (EOFError, OSError) as error:  # the worker died (out of memory?)
                self.restarts += 1
                log.error("the bots' worker process died (%s): restarted", error)
                self._stop()
                raise Late from None
            self._known.add(key)
            if status == "answer":
                answer: tc.Action | None = value
                return answer
            if status == "unknown":  # evicted there: send it again, with all its events
                self._known.discard(key)
                self._events_sent.pop(key, None)
                continue
            raise RuntimeError(value)
        raise RuntimeError("the bots' worker process lost a bot twice")

    def close(self) -> None:
        self._stop()


def _worker(conn: Connection) -> None:
    """The worker process: answers each question with its bot's answer."""
    import resource

    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    with contextlib.suppress(OSError):
        # People first: on a busy machine the kernel gives the server's event loop the
        # CPU before the bots' thinking.
        os.nice(WORKER_NICENESS)
    bots: dict[int, Any] = {}
    streams: dict[int, tuple[Any, list[Any]]] = {}  # per bot: variant, events so far
    conn.send("ready")
    while True:
        try:
            key, bot, (seat, optional, observation, actions, told) = conn.recv()
        except (EOFError, OSError):
            return
        if bot is not None:
            bots.pop(key, None)
            bots[key] = bot
            while len(bots) > WORKER_BOTS:
                gone = next(iter(bots))
                del bots[gone]
                streams.pop(gone, None)
        held = bots.get(key)
        stream = streams.get(key)
        if held is None or (
            told is not None and told[2] and (stream is None or len(stream[1]) < told[2])
        ):  # a bot, or the start of its events, this worker does not hold
            conn.send(("unknown", None))
            continue
        shown = None
        if told is not None:
            variant, player, start, new = told
            if start == 0 or stream is None:
                stream = streams[key] = (variant, list(new))
            else:
                del stream[1][start:]  # (never more than sent; kept exact all the same)
                stream[1].extend(new)
            # A copy: a bot may keep what it was shown, and the stream grows here.
            shown = (stream[0], player, tuple(stream[1]))
        question = (seat, optional, observation, actions, shown)
        reply: tuple[str, Any]
        try:
            reply = ("answer", think(held, question))
        except MemoryError:
            bots.pop(key, None)
            streams.pop(key, None)
            reply = ("error", "MemoryError: the bot ran out of memory")
        except Exception as error:
            reply = ("error", f"{type(error).__name__}: {error}")
        conn.send(reply)
