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

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from webpages import (
    DEADLINE,
    DESKTOP,
    PHONE,
    Person,
    browser,
    check_pages,
    create_table,
    play_hands,
    server,
)
from webtable import lobby_of, on_loop

from tichu_core.frontends.bots import DEFAULT_BOT, LEVELS, bot_descriptions, bot_names
from tichu_core.frontends.web.seating import DEFAULT_LEVEL

__all__ = ["browser", "server"]  # the fixtures of tests/webpages.py


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
        # The bots by level first, the default level chosen, with its word; then the
        # other bots by their engine names.
        groups = page.eval_on_selector_all(
            "#fill optgroup",
            "(gs) => gs.map((g) => [g.label, [...g.children].map((o) => o.value)])",
        )
        assert groups[0] == ["Levels", list(LEVELS)]
        assert groups[1][0] == "Other bots" and DEFAULT_BOT in groups[1][1]
        assert page.input_value("#fill") == DEFAULT_LEVEL == "medium"
        assert page.inner_text("#fill-word") == bot_descriptions()["medium"]
        assert "bots: medium" in page.inner_text("#fill")
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
