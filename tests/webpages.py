"""The web table's browser tests, written once (tests/test_web_browser*.py,
test_web_client.py, test_web_layout.py, test_web_words.py and web_screenshots.py):
Debian's Chromium driven by Playwright, the `browser` and `server` fixtures (a test
module imports them by name), and a `Person`: one browser context at the table that
keeps every WebSocket frame its page received, reads what the page shows and takes
decisions by clicking; `play_hands` clicks for several people until a hand is over and
`check_pages` holds every frame and every page they saw against the replayed engine."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from webtable import card_codes, check_wire, hidden_codes, lobby_of, replay, running_server

from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.protocol import Limits

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "web"
DEADLINE = 120.0  # seconds for one hand, clicks and bots together
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# What a page shows, read after every step: its state's version and hand, the card
# codes outside the log (hands, trick, the exchange) and the visible text but the log.
SNAPSHOT = """() => ({
  version: Number(document.body.dataset.version ?? -1),
  hand: Number(document.body.dataset.hand ?? -1),
  cards: [...document.querySelectorAll("[data-card]")]
    .filter((node) => !node.closest("#log")).map((node) => node.dataset.card),
  text: [...document.querySelectorAll("body > header, #join, #felt, #mine")]
    .map((node) => node.innerText).join("\\n"),
  log: document.getElementById("log").innerText,
})"""

# Whether the hand and every action button are inside the viewport, and the page does
# not scroll: the boxes that are not.
OUTSIDE = """() => {
  const width = window.innerWidth, height = window.innerHeight;
  const bad = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > width + 1) bad.push(`page ${root.scrollWidth} px wide`);
  if (root.scrollHeight > height + 1) bad.push(`page ${root.scrollHeight} px high`);
  const nodes = [...document.querySelectorAll(
    "#mine [data-hand], #mine .actions button, #mine .push-target")];
  for (const node of nodes) {
    const box = node.getBoundingClientRect();
    if (box.width === 0) continue;
    if (box.left < -1 || box.top < -1 || box.right > width + 1 || box.bottom > height + 1)
      bad.push(`${node.className || node.tagName} ${node.innerText.slice(0, 30)} at ` +
        `${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)}`);
  }
  return bad;
}"""


# The decision the page offers now, read at one moment (the page redraws as bots act).
DECISION = """() => {
  const mine = document.querySelector("#mine .mine.waiting");
  if (!mine) return null;
  const pass = mine.querySelector('button[data-kind="pass"]');
  return {
    version: Number(document.body.dataset.version ?? -1),
    seat: mine.dataset.mySeat,
    take: pass !== null && pass.innerText === "Take the trick",
    plays: mine.querySelectorAll("button.chip:not(.bomb)").length,
  };
}"""


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, launched headless through Playwright."""
    assert CHROMIUM.exists(), "the browser tests need Debian's chromium: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def serving(
    db: Path, bot_delay: float = 0.01, limits: Limits | None = None
) -> Iterator[tuple[str, Any]]:
    """The web table's app on a store at ``db``, served on loopback: (its address, the app)."""
    app = create_app(db, bot_delay=bot_delay, limits=limits)
    with running_server(app) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for a test module."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """A server of the test's own, its bots at a quick pace: (its address, the app)."""
    with serving(tmp_path / "tables.db") as served:
        yield served


class Person:
    """One browser context: a person at the table, and everything their page received."""

    def __init__(
        self, browser: Browser, url: str, name: str, viewport: dict[str, int] = DESKTOP
    ) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page: Page = self.context.new_page()
        self.name = name
        self.size = f"{viewport['width']}x{viewport['height']}"
        self.frames: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []  # what the page sent, to find a click's answer
        self.snapshots: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.decisions = 0
        self.collect_clicks = 0
        self.largest_trick = 0
        self.check_viewport = False
        self.shot_prefix: str | None = None
        self.hands_to_play = 1_000  # no decision once this many hands are over
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        # How long a click or a wait may take before the test fails: generous, because
        # on a loaded 2-core machine (the browser, the server and its bots on one box)
        # the page was seen to need more than 5 s to let a button be clicked.
        self.page.set_default_timeout(15_000)

    def open(self, address: str) -> None:
        self.page.goto(address)
        self.page.wait_for_function(
            "() => document.body.dataset.version !== undefined || "
            "document.querySelector('#variant option')"
        )

    def _watch(self, websocket: Any) -> None:
        websocket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
        websocket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def snapshot(self) -> dict[str, Any]:
        shot: dict[str, Any] = self.page.evaluate(SNAPSHOT)
        self.snapshots.append(shot)
        return shot

    def version(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.version ?? -1)"))

    def hands_played(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.handsPlayed ?? 0)"))

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}-{self.size}.png"
        self.page.screenshot(path=str(path))
        return path

    def click_and_wait(self, locator: Any) -> None:
        """Click an action, wait for the server's answer to that very request and then
        for the page to show the state it made (the answer's version). Waiting for any
        new version is not enough: another seat's action (a bot's Grand Tichu decision,
        its push) makes one too, and a click taken on a page that has not yet drawn our
        own action would repeat or misread the decision."""
        sent, received = len(self.sent), len(self.frames)  # a new page counts ids from 1
        locator.click()
        deadline = time.monotonic() + 10

        def first(frames: list[dict[str, Any]], since: int, wanted: Any, missing: str) -> Any:
            """The first frame of ``frames[since:]`` that is ``wanted``, once it has come."""
            while (found := next((m for m in frames[since:] if wanted(m)), None)) is None:
                assert time.monotonic() < deadline, f"{self.name}: {missing}"
                self.page.wait_for_timeout(10)
            return found

        request = first(
            self.sent,
            sent,
            lambda m: m.get("type") == "act" and "id" in m,
            "the click sent no action",
        )
        answer = first(
            self.frames, received, lambda m: m.get("id") == request["id"], f"no answer to {request}"
        )
        assert answer["type"] == "ack", (
            f"{self.name}: the server refused {request['action']}: "
            f"{answer.get('code')}: {answer.get('message')}"
        )
        while self.version() < answer["version"]:
            assert time.monotonic() < deadline, f"{self.name}: the page did not draw its action"
            self.page.wait_for_timeout(10)

    def close_sheet(self) -> None:
        if self.page.locator("#sheet[open]").count():
            self.page.click("#sheet-close")

    def act(self) -> bool:
        """Take one decision by clicking, for a seat of ours the game waits for: decline
        calls, give the first cards offered, make no wish, give tricks and leads to the
        first seat offered, play the lowest card on an empty trick, else the first
        listed play, else pass; a won trick is left to be collected by itself."""
        page = self.page
        if page.evaluate("() => document.body.dataset.myTurn") != "yes":
            return False
        if self.hands_played() >= self.hands_to_play:
            return False
        self.close_sheet()
        found = page.evaluate(DECISION)
        if found is None:
            return False
        seat = found["seat"]
        mine = page.locator(f'#mine [data-my-seat="{seat}"]')
        passing = mine.locator('button[data-kind="pass"]')
        if found["take"] and not found["plays"]:
            return False  # the page collects it by itself after a pause
        self.decisions += 1
        if self.check_viewport:
            outside = page.evaluate(OUTSIDE)
            assert not outside, f"{self.name} at {self.size}: outside the viewport: {outside}"
        entries = page.locator("#trick .entry").count()
        if self.shot_prefix and entries > self.largest_trick:
            self.largest_trick = entries
            self.screenshot(f"{self.shot_prefix}-trick")
        for kind, text in (
            ("grand_tichu", "No Grand Tichu"),
            ("wish", "No wish"),
            ("give_trick", None),
            ("give_lead", None),
            ("another_hand", None),
        ):
            buttons = mine.locator(f'button[data-kind="{kind}"]')
            if text is not None:
                buttons = buttons.filter(has_text=text)
            if buttons.count():
                self.click_and_wait(buttons.first)
                return True
        if mine.locator('button[data-kind="push"]').count():
            self._push(mine)
            return True
        play = mine.locator('button[data-kind="play"]')
        trick_empty = page.locator("#trick .entry.play").count() == 0
        if trick_empty and play.count():
            mine.locator("[data-hand] .card:not([disabled])").last.click()  # the lowest card
            if mine.locator('button[data-kind="play"]:not([disabled])').count():
                self.click_and_wait(mine.locator('button[data-kind="play"]:not([disabled])').first)
                return True
            mine.locator("[data-hand] .card.selected").first.click()  # not a lead: unselect
        chips = mine.locator("button.chip:not(.bomb)")
        if not chips.count() and not passing.count():
            chips = mine.locator("button.chip")  # a bomb, when nothing else is allowed
        if chips.count():
            summary = mine.locator("details.plays summary")
            if mine.locator("details.plays[open]").count() == 0:
                summary.click()
            chips.first.click()
            self.click_and_wait(mine.locator('button[data-kind="play"]:not([disabled])').first)
            return True
        if not passing.count() and self.version() != found["version"]:
            return False  # the state moved on meanwhile (a bot bombed): look again
        assert passing.count(), f"{self.name}: nothing to click for seat {seat}"
        if found["take"]:
            self.collect_clicks += 1
        self.click_and_wait(passing.first)
        return True

    def _push(self, mine: Any) -> None:
        if self.shot_prefix:
            self.screenshot(f"{self.shot_prefix}-exchange")
        for target in mine.locator("[data-target]").all():
            free = mine.locator("[data-hand] .card:not([disabled]):not(.selected)")
            for _ in range(int(target.get_attribute("data-count") or 0)):
                free.first.click()  # the page redraws: the next free card is first
            target.click()
        self.click_and_wait(mine.locator('button[data-kind="push"]'))


def play_hands(people: list[Person], hands: int = 1) -> None:
    """Click for everyone until ``hands`` hands are over, snapshotting every page."""
    deadline = time.monotonic() + DEADLINE * hands
    for person in people:
        person.hands_to_play = hands
    while not all(
        person.hands_played() >= hands
        or person.page.evaluate("() => document.body.dataset.phase") == "over"
        for person in people
    ):
        acted = False
        for person in people:
            person.snapshot()
            # What was to be clicked may go away (the state moved on): then look again.
            with contextlib.suppress(PlaywrightTimeout):
                acted = person.act() or acted
        if not acted:
            people[0].page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "the hand took too long"
    for person in people:
        person.snapshot()


def check_pages(people: list[Person], app: Any, table_id: str) -> None:
    """Every frame and every snapshot of each page against the engine (see the module)."""
    table = lobby_of(app).tables[table_id]
    record = table.record
    for person in people:
        assert not person.errors, person.errors
        player = next(m["player"] for m in person.frames if m.get("type") == "seated")
        assert check_wire(
            person.frames,
            player,
            replay(record.variant, record.overrides, record.seed),
            record.actions,
        )
        game = replay(record.variant, record.overrides, record.seed)
        applied = 0
        for shot in sorted(person.snapshots, key=lambda s: s["version"]):
            if shot["version"] < 0:
                continue
            while applied < shot["version"]:
                game.apply(record.actions[applied])
                applied += 1
            shown = set(shot["cards"]) | card_codes(shot["text"].split())
            if shot["hand"] == game.observation(player).hand_index == 0:
                shown |= card_codes(shot["log"].split())
            leaked = shown & hidden_codes(game, player)
            assert not leaked, f"{person.name}'s page showed hidden cards {sorted(leaked)}"


def create_table(
    person: Person, url: str, variant: str, fill: str, players: int | None = None
) -> str:
    page = person.page
    person.open(url)
    page.fill("#name", person.name)
    page.select_option("#variant", variant)
    if players is not None:
        page.select_option("#players", str(players))
    page.select_option("#fill", fill)
    page.click("#create")
    page.wait_for_url("**#table=*")
    page.wait_for_selector("#join" if not fill else "#mine [data-my-seat]")
    return page.url.split("#table=")[1]
