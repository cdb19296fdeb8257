"""The web table in a real browser: Playwright drives Debian's Chromium (/usr/bin/chromium;
.ci/run installs it when missing) against `tichu serve`'s app on loopback.

Two people play a hand of standard Tichu by clicking, each in a browser context of
its own (bots at the other places). Every WebSocket frame each page receives, and what
each page shows after every step, is checked against the engine replayed to that
moment: neither page ever holds a hidden card of another seat. Then one person plays
a hand of each other bundled variant (the Threechu dummy, Tientsin's six seats, Grand
Seigneur's titles). Screenshots go to tests/artifacts/browser/ (ignored by git).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from webtable import card_codes, check_wire, hidden_codes, replay, running_server

from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.tables import Lobby

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "browser"
DEADLINE = 90.0  # seconds for one hand, clicks and bots together

# What a page shows, read after every step: its state's version and hand, the card
# codes outside the log (hands, trick, the exchange) and the log's text.
SNAPSHOT = """() => ({
  version: Number(document.body.dataset.version ?? -1),
  hand: Number(document.body.dataset.hand ?? -1),
  cards: [...document.querySelectorAll("[data-card]")]
    .filter((node) => !node.closest("#log")).map((node) => node.dataset.card),
  text: [...document.querySelectorAll("body > header, #table-view > section:not(:last-child)")]
    .map((node) => node.innerText).join("\\n"),
  log: document.getElementById("log").innerText,
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "the browser test needs Debian's chromium: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app(tmp_path / "tables.db", bot_delay=0.02)
    with running_server(app) as url:
        yield url, app


class Person:
    """One browser context: a person at the table, and everything their page received."""

    def __init__(self, browser: Browser, url: str, name: str) -> None:
        self.context = browser.new_context(viewport={"width": 1200, "height": 900})
        self.page: Page = self.context.new_page()
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.set_default_timeout(15_000)
        self.page.goto(url)
        self.page.wait_for_selector("#variant option", state="attached")
        self.page.fill("#name", name)

    def _watch(self, websocket: Any) -> None:
        websocket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def snapshot(self) -> dict[str, Any]:
        shot: dict[str, Any] = self.page.evaluate(SNAPSHOT)
        self.snapshots.append(shot)
        return shot

    def version(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.version ?? -1)"))

    def hands_played(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.handsPlayed ?? 0)"))

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def click_and_wait(self, locator: Any) -> None:
        """Click an action and wait for the state it causes (its version)."""
        before = self.version()
        locator.click()
        deadline = time.monotonic() + 10
        while self.version() == before:
            status = self.page.inner_text("#status")
            assert "[" not in status, f"{self.name}: the server refused: {status}"
            assert time.monotonic() < deadline, f"{self.name}: no new state after a click"
            self.page.wait_for_timeout(10)

    def act(self) -> bool:
        """Take one decision by clicking, for a seat of ours the game waits for: decline
        calls, give the first cards offered, make no wish, give tricks and leads to the
        first seat offered; lead the lowest card by clicking it; on a trick, play the
        first legal play offered (a bomb only when there is no pass), else pass."""
        page = self.page
        waiting = page.locator("#seats .seat.waiting.me")
        if not waiting.count():
            return False
        seat = waiting.first.get_attribute("data-seat")
        mine = page.locator(f'#mine [data-my-seat="{seat}"]')
        for kind, text in (
            ("grand_tichu", "No Grand Tichu"),
            ("wish", "No wish"),
            ("give_trick", None),
            ("give_lead", None),
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
        passing = mine.locator('button[data-kind="pass"]')
        trick_empty = page.locator("#trick .play").count() == 0
        if trick_empty and play.count():
            mine.locator("[data-hand] .card:not([disabled])").last.click()  # the lowest card
            if mine.locator('button[data-kind="play"]:not([disabled])').count():
                self.click_and_wait(mine.locator('button[data-kind="play"]:not([disabled])').first)
                return True
        chips = mine.locator("button.chip:not(:has-text('(bomb)'))")
        if not chips.count() and not passing.count():
            chips = mine.locator("button.chip")  # a bomb, when nothing else is allowed
        if chips.count():
            chips.first.click()
            self.click_and_wait(mine.locator('button[data-kind="play"]:not([disabled])').first)
            return True
        assert passing.count(), f"{self.name}: nothing to click for seat {seat}"
        self.click_and_wait(passing.first)
        return True

    def _push(self, mine: Any) -> None:
        for target in mine.locator("[data-target]").all():
            free = mine.locator("[data-hand] .card:not([disabled]):not(.selected)")
            for _ in range(int(target.get_attribute("data-count") or 0)):
                free.first.click()  # the page redraws: the next free card is first
            target.locator("button[data-give]").click()
        self.screenshot(f"{self.name}-exchange")
        self.click_and_wait(mine.locator('button[data-kind="push"]'))


def play_hand(people: list[Person]) -> None:
    """Click for everyone until the first hand is over, snapshotting every page."""
    deadline = time.monotonic() + DEADLINE
    steps = 0
    while not all(person.hands_played() >= 1 for person in people):
        acted = False
        for person in people:
            person.snapshot()
            acted = person.act() or acted
        steps += 1
        if steps == 25:
            for person in people:
                person.screenshot(f"{person.name}-playing")
        if not acted:
            people[0].page.wait_for_timeout(15)
        assert time.monotonic() < deadline, "the hand took too long"
    for person in people:
        person.snapshot()


def check_pages(people: list[Person], app: Any, table_id: str) -> None:
    """Every frame and every snapshot of each page against the engine (see the module)."""
    lobby: Lobby = app.state.lobby()
    table = lobby.tables[table_id]
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


def create_table(person: Person, variant: str, fill: str, players: int | None = None) -> str:
    page = person.page
    page.select_option("#variant", variant)
    if players is not None:
        page.select_option("#players", str(players))
    page.select_option("#fill", fill)
    page.click("#create")
    page.wait_for_url("**#table=*")
    page.wait_for_selector("#mine [data-my-seat]")
    return page.url.split("#table=")[1]


def test_two_people_play_a_hand_by_clicking_and_see_only_their_own_cards(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    ann = Person(browser, url, "Ann")
    bob = Person(browser, url, "Bob")
    table_id = create_table(ann, "standard", fill="")
    bob.page.click("#refresh")
    bob.page.click(f'tr[data-table="{table_id}"] button[data-join]')
    bob.page.wait_for_selector("#mine [data-my-seat]")
    ann.page.click("#fill-button")  # bots at the two other places
    ann.page.wait_for_selector("#free-places", state="hidden")
    play_hand([ann, bob])
    for person in (ann, bob):
        person.screenshot(f"{person.name}-after-the-hand")
        assert "Hand scored" in person.page.inner_text("#log")
    check_pages([ann, bob], app, table_id)
    # Reloading the page resumes the seat with the token this browser holds.
    bob.page.reload()
    bob.page.wait_for_selector("#mine [data-my-seat]")
    assert bob.page.evaluate("() => document.body.dataset.player") == "1"
    for person in (ann, bob):
        person.context.close()


@pytest.mark.parametrize(
    ("variant", "players"), [("threechu", None), ("tientsin", None), ("grand_seigneur", 6)]
)
def test_a_person_plays_a_hand_of_every_variant_in_the_browser(
    browser: Browser, server: tuple[str, Any], variant: str, players: int | None
) -> None:
    url, app = server
    eve = Person(browser, url, f"Eve-{variant}")
    table_id = create_table(eve, variant, fill="greedy", players=players)
    play_hand([eve])
    check_pages([eve], app, table_id)
    page = eve.page
    seats = page.locator("#seats .seat").count()
    assert seats == {"threechu": 4, "tientsin": 6, "grand_seigneur": 6}[variant]
    if variant == "threechu":  # the first shuffler plays the dummy: two hands of its own
        first = next(m for m in eve.frames if m.get("type") == "state")
        assert first["observation"]["seats"] == [0, 2]
    if variant == "grand_seigneur":  # the second hand: titles by the first's order (GS-5)
        page.wait_for_selector("#seats .badge:has-text('Great Lord')")
        assert page.locator("#seats .badge:has-text('Wretch')").count() == 1
    eve.screenshot(f"{variant}-after-the-first-hand")
    eve.context.close()
