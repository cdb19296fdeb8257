"""The web table in a real browser: Playwright drives Debian's Chromium (/usr/bin/chromium;
.ci/run installs it when missing) against `tichu serve`'s app on loopback.

A friend joins from the table's link and two people play a hand of standard Tichu by
clicking; every WebSocket frame each page receives, and what each page shows after
every step, is checked against the engine replayed to that moment: neither page ever
holds a hidden card of another seat. A whole hand is played by clicks at 1280x800 and
at 390x844 with the hand and the action buttons inside the viewport at every decision;
the score sheet's figures are the engine's `HandResult`; a match's end names the
engine's winners. A hand of every other bundled variant is played (Threechu's dummy,
Tientsin's six seats, Grand Seigneur with twelve). Screenshots of each variant at both
sizes go to tests/artifacts/web/ (ignored by git): docs/web.md section 6.
"""

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
from webtable import card_codes, check_wire, hidden_codes, on_loop, replay, running_server

from tichu_core.frontends.bots import bot_names
from tichu_core.frontends.web.app import create_app
from tichu_core.frontends.web.tables import Lobby

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
    seat: mine.dataset.mySeat,
    take: pass !== null && pass.innerText === "Take the trick",
    plays: mine.querySelectorAll("button.chip:not(.bomb)").length,
  };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "the browser test needs Debian's chromium: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app(tmp_path / "tables.db", bot_delay=0.01)
    with running_server(app) as url:
        yield url, app


def lobby_of(app: Any) -> Lobby:
    lobby: Lobby = app.state.lobby()
    return lobby


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
        self.page.set_default_timeout(5_000)

    def open(self, address: str) -> None:
        self.page.goto(address)
        self.page.wait_for_function(
            "() => document.body.dataset.version !== undefined || "
            "document.querySelector('#variant option')"
        )

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

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}-{self.size}.png"
        self.page.screenshot(path=str(path))
        return path

    def click_and_wait(self, locator: Any) -> None:
        """Click an action and wait for the state it causes (its version)."""
        before = self.version()
        locator.click()
        deadline = time.monotonic() + 10
        while self.version() == before:
            status = self.page.inner_text("#status")
            assert "error" not in (self.page.get_attribute("#status", "data-code") or ""), (
                f"{self.name}: the server refused: {status}"
            )
            assert time.monotonic() < deadline, f"{self.name}: no new state after a click"
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


def sheet_figures(page: Page) -> dict[str, list[str]]:
    return {
        kind: page.locator(f"#sheet > div > table.sheet[data-hand] .{kind}").all_inner_texts()
        for kind in ("hand-total", "running-total")
    }


def plain(number: int) -> str:
    """A figure as the sheet writes it: a negative one with the minus sign U+2212."""
    return f"\u2212{-number}" if number < 0 else str(number)


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


# --------------------------------------------------------------------------- the tests


def test_a_friend_joins_from_the_link_and_two_people_play_a_hand(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    ann = Person(browser, url, "Ann")
    table_id = create_table(ann, url, "standard", fill="")
    page = ann.page
    # Places are free: the page says so and offers the link; nothing is dealt yet.
    assert "1 of 4 places taken" in page.inner_text("#join")
    link = page.input_value("#share-link")
    assert link.endswith(f"#table={table_id}")
    assert page.locator("[data-card]").count() == 0
    assert page.locator("#join-form").is_hidden() and page.locator("#fill-form").is_visible()
    assert page.get_attribute("#copy-link", "aria-label")
    ann.screenshot("standard-waiting")
    # A friend opens the link: a spectator until giving a name and taking a place.
    bob = Person(browser, url, "Bob")
    bob.open(link)
    bob.page.wait_for_selector("#join-form")
    assert bob.page.locator("#fill-form").is_hidden()  # only seated people seat bots
    bob.page.fill("#join-name", "   ")
    bob.page.click("#join-button")  # a blank name is not sent
    assert bob.page.evaluate("() => document.body.dataset.player") == ""
    bob.page.fill("#join-name", "Bob")
    bob.page.click("#join-button")
    bob.page.wait_for_function("() => document.body.dataset.player === '1'")
    page.wait_for_function("() => document.getElementById('join').innerText.includes('2 of 4')")
    assert lobby_of(app).tables[table_id].game is not None
    assert lobby_of(app).tables[table_id].version == 0  # no one acts before every place is taken
    bob.page.click("#fill-button")  # bots at the two other places
    for person in (ann, bob):
        person.page.wait_for_selector("#join", state="hidden")
        person.page.wait_for_selector("#mine [data-my-seat] [data-hand] .card")
    # The partner sits opposite: Ann is at the bottom, player 2 (her partner) at the top.
    top = page.locator('#seats .seat[data-seat="2"]').bounding_box()
    bottom = page.locator('#seats .seat[data-seat="0"]').bounding_box()
    assert top is not None and bottom is not None and top["y"] < bottom["y"]
    assert "partner" in page.inner_text('#seats .seat[data-seat="2"]')
    ann.shot_prefix = "standard"
    play_hands([ann, bob])
    for person in (ann, bob):
        person.page.wait_for_selector("#sheet[open]")
        assert "Hand 1 scored" in person.page.inner_text("#log")
    ann.screenshot("standard-score-sheet")
    check_pages([ann, bob], app, table_id)
    # Reloading the page resumes the seat with the token this browser holds.
    bob.page.reload()
    bob.page.wait_for_selector("#mine [data-my-seat]")
    assert bob.page.evaluate("() => document.body.dataset.player") == "1"
    for person in (ann, bob):
        person.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_whole_hand_by_clicks_keeps_the_hand_and_buttons_in_view_and_the_sheet_is_the_engines(
    browser: Browser, server: tuple[str, Any], viewport: dict[str, int]
) -> None:
    url, app = server
    eve = Person(browser, url, "Eve", viewport)
    table_id = create_table(eve, url, "standard", fill="greedy")
    eve.check_viewport = True
    eve.shot_prefix = "standard-play"
    play_hands([eve])
    assert eve.decisions >= 5
    assert eve.collect_clicks == 0  # won tricks were collected without a click
    page = eve.page
    page.wait_for_selector("#sheet[open]")
    eve.screenshot("standard-sheet")
    game = lobby_of(app).tables[table_id].game
    assert game is not None
    result = game.hand_results[0]
    figures = sheet_figures(page)
    assert figures["hand-total"] == [signed(s) for s in result.scores]
    assert figures["running-total"] == [plain(s) for s in result.scores]
    card_points = page.locator("#sheet table.sheet[data-hand] .card-points").all_inner_texts()
    assert card_points == [plain(p) for p in result.card_points]
    calls = page.locator("#sheet table.sheet[data-hand] .notes .made, #sheet .notes .failed")
    assert calls.count() == len(result.calls) + int(result.double_victory)
    # The sheet stays until dismissed, and opens again from the bar.
    page.wait_for_timeout(300)
    assert page.locator("#sheet[open]").count() == 1
    page.click("#sheet-close")
    assert page.locator("#sheet[open]").count() == 0
    page.click("#open-sheet")
    page.wait_for_selector("#sheet[open]")
    check_pages([eve], app, table_id)
    eve.context.close()


def test_the_match_end_names_the_engines_winner_and_every_hand(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    lobby = lobby_of(app)
    bots = {str(p): "greedy" for p in (1, 2, 3)}
    table = on_loop(app, lobby.create("standard", {"game.hands": 1}, bots))
    eve = Person(browser, url, "Eve")
    eve.open(f"{url}/#table={table.id}")
    eve.page.fill("#join-name", "Eve")
    eve.page.click("#join-button")
    eve.page.wait_for_selector("#mine [data-my-seat] [data-hand] .card")
    play_hands([eve])
    page = eve.page
    page.wait_for_selector("#sheet[open] .winner")
    game = table.game
    assert game is not None and game.is_over
    assert page.get_attribute("#sheet .winner", "data-winners") == " ".join(
        str(w) for w in game.winners
    )
    names = {0: "Eve", 1: "Bot 2", 2: "Bot 3", 3: "Bot 4"}
    shown = page.inner_text("#sheet .winner")
    # A match capped at one hand (`game.hands`) may end level: the teams level on top
    # share the win, and every winning team is named.
    for winner in game.winners:
        team = [names[s] for s in range(4) if s % 2 == winner]
        assert " & ".join(team) in shown
    assert "win the match" in shown  # a team (or, level, both) is named in the plural
    assert page.locator("#sheet table.all-hands tbody tr").count() == len(game.hand_results)
    assert page.title().startswith("Match over")
    eve.screenshot("standard-match-over")
    eve.context.close()


@pytest.mark.parametrize(
    ("variant", "players", "seats"),
    [("threechu", 3, 4), ("tientsin", 6, 6), ("grand_seigneur", 12, 12)],
)
def test_a_hand_of_every_variant_at_both_sizes_with_its_screenshots(
    browser: Browser, server: tuple[str, Any], variant: str, players: int, seats: int
) -> None:
    url, app = server
    bots = {str(p): "greedy" for p in range(2, players)}
    overrides = {"players": players} if variant == "grand_seigneur" else {}
    table = on_loop(app, lobby_of(app).create(variant, overrides, bots))
    people = [Person(browser, url, "Eve", DESKTOP), Person(browser, url, "Pat", PHONE)]
    for person in people:
        person.open(f"{url}/#table={table.id}")
        person.page.fill("#join-name", person.name)
        person.page.click("#join-button")
        person.page.wait_for_function("() => document.body.dataset.player !== ''")
        person.check_viewport = True
        person.shot_prefix = variant
    for person in people:
        person.page.wait_for_selector("#mine [data-my-seat] [data-hand] .card")
    play_hands(people)
    check_pages(people, app, table.id)
    for person in people:
        page = person.page
        assert page.locator("#seats .seat").count() == seats
        if variant == "grand_seigneur":  # the second hand: titles by the first's order (GS-5)
            page.wait_for_selector("#seats .badge:has-text('Great Lord')")
            assert page.locator("#sheet .finishing li").count() == seats
            person.screenshot(f"{variant}-score-sheet")
        person.close_sheet()
        person.screenshot(f"{variant}-second-hand")
    if variant == "threechu":  # the first shuffler plays the dummy: two hands of its own
        first = next(m for m in people[0].frames if m.get("type") == "state" and m["observation"])
        assert first["observation"]["seats"] == [0, 2]
    for person in people:
        person.context.close()


def test_cards_are_chosen_by_typing_their_codes_enter_plays_and_p_passes(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    eve = Person(browser, url, "Eve")
    table_id = create_table(eve, url, "standard", fill="greedy")
    page = eve.page
    table = lobby_of(app).tables[table_id]
    deadline = time.monotonic() + DEADLINE
    typed = passed = False
    # A hand may end before Eve leads an empty trick or may pass: give it a few hands.
    while not (typed and passed) and eve.hands_played() < 4:
        assert time.monotonic() < deadline
        view, legal, turn = page.evaluate(
            "() => [S.state.observation, S.state.legal, document.body.dataset.myTurn]"
        )
        if turn != "yes" or view["phase"] != "play" or str(view["seats"][0]) not in legal:
            if not eve.act():
                page.wait_for_timeout(20)
            continue
        eve.close_sheet()
        block = legal[str(view["seats"][0])]
        singles = [a for a in block["actions"] if a["type"] == "play" and " " not in a["cards"]]
        can_pass = any(a["type"] == "pass" for a in block["actions"])
        if not typed and singles and not view["trick"]:
            code = singles[0]["cards"]
            page.locator("body").press_sequentially(code.lower(), delay=30)
            page.wait_for_selector(f'#mine [data-card="{code}"].selected')
            before = table.version
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => document.body.dataset.version > {before}")
            assert json.loads(table.record.actions[before])["cards"] == code
            typed = True
        elif not passed and can_pass and view["top_seat"] != view["seats"][0]:
            before = table.version
            page.keyboard.press("p")
            page.wait_for_function(f"() => document.body.dataset.version > {before}")
            assert json.loads(table.record.actions[before])["type"] == "pass"
            passed = True
        elif not eve.act():
            page.wait_for_timeout(20)
    assert typed and passed
    # Every control has an accessible name.
    unnamed = page.evaluate(
        "() => [...document.querySelectorAll('button, select, input')]"
        ".filter((n) => !(n.getAttribute('aria-label') || n.innerText.trim()))"
        ".map((n) => n.outerHTML.slice(0, 80))"
    )
    assert not unnamed, unnamed
    eve.context.close()


def test_the_lobby_names_the_variants_and_says_what_each_bot_is(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, _ = server
    for viewport in (DESKTOP, PHONE):
        eve = Person(browser, url, "Eve", viewport)
        eve.open(url)
        page = eve.page
        options = page.locator("#variant option").all_inner_texts()
        assert "Standard Tichu" in options and "Grand Seigneur" in options
        assert not any("_" in option for option in options)  # no file names
        page.select_option("#variant", "threechu")
        assert "dummy" in page.inner_text("#variant-description")
        page.click("#bots-help summary")
        words = page.inner_text("#bot-list")
        for bot in bot_names():
            assert bot in words
        assert "at random" in words and "partner" in words
        if "search" in bot_names():  # the bot that plans by playing out sampled worlds
            assert "sampled worlds" in words
        eve.screenshot("lobby")
        eve.context.close()


def test_a_long_name_is_cut_with_an_ellipsis_and_widens_nothing(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, _ = server
    long_name = "W" * 32
    for viewport in (DESKTOP, PHONE):
        eve = Person(browser, url, long_name, viewport)
        create_table(eve, url, "grand_seigneur", fill="greedy", players=7)
        page = eve.page
        page.wait_for_selector("#seats .seat")
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= viewport["width"]
        overflow = page.evaluate(
            "() => getComputedStyle(document.querySelector('#seats .seat.me .name')).textOverflow"
        )
        assert overflow == "ellipsis"
        eve.context.close()
