"""Places and leavers in a real browser (issue 40): two people in two browser contexts
choose their places before the start (a friend from the link sits down, then moves to
be the host's partner, the teams shown as they form); mid-hand one closes the page,
the other's page counts down, a stand-in bot plays the leaver's seat after the grace
time, the leaver opens the table again and gets the seat back, and the hand is played
to its end with every frame and page checked against the engine (nothing lost, nothing
hidden shown). Uses the helpers of tests/webpages.py (Debian's chromium)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from webpages import PHONE, Person, browser, check_pages, create_table, play_hands, serving
from webtable import lobby_of

from tichu_core.frontends.web.protocol import Limits
from tichu_core.frontends.web.tables import Table

__all__ = ["browser"]  # the fixture of tests/webpages.py

GRACE = 2.0  # seconds before the stand-in plays (the default is a minute)
TIMES = Path(__file__).resolve().parent / "artifacts" / "web" / "click-times.json"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    with serving(tmp_path / "tables.db", bot_delay=0.05, limits=Limits(away_grace=GRACE)) as served:
        yield served


def seats_acted(table: Table, since: int) -> set[int]:
    return {json.loads(text)["seat"] for text in table.record.actions[since:]}


def places_text(person: Person) -> str:
    return person.page.inner_text("#join")


def test_friends_choose_their_places_and_a_leaver_is_stood_in_for_and_comes_back(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    ann = Person(browser, url, "Ann")
    table_id = create_table(ann, url, "standard", fill="")
    link = ann.page.input_value("#share-link")
    assert "Teams: Ann & a free place against a free place & a free place" in places_text(ann)
    # Bob opens the link and picks place 2 (an opponent), then moves to place 3: Ann's
    # partner. Both pages show the teams as they form.
    bob = Person(browser, url, "Bob", PHONE)  # on a phone: the bar about the leaver fits
    bob.open(link)
    bob.page.wait_for_selector('#places [data-take="1"]')
    bob.page.fill("#join-name", "Bob")
    bob.page.click('#places [data-take="1"]')
    bob.page.wait_for_function("() => document.body.dataset.player === '1'")
    ann.page.wait_for_function(
        "() => document.getElementById('teams').innerText.includes('against Bob')"
    )
    started = time.perf_counter()
    bob.page.click('#places [data-take="2"]')
    bob.page.wait_for_function("() => document.body.dataset.player === '2'")
    move_ms = (time.perf_counter() - started) * 1000
    ann.page.wait_for_function(
        "() => document.getElementById('teams').innerText.startsWith('Teams: Ann & Bob')"
    )
    assert "partner" in ann.page.inner_text('#places [data-place="2"]')
    ann.screenshot("places")
    table = lobby_of(app).tables[table_id]
    assert table.seats[2].name == "Bob" and 1 not in table.seats
    # Bob's browser holds the token for place 3 now: a reload resumes it (the frames
    # checked at the end are those of player 2, from there on).
    bob.frames.clear()
    bob.page.reload()
    bob.page.wait_for_function("() => document.body.dataset.player === '2'")
    # The place menu offers the levels first, the default level chosen.
    assert ann.page.input_value("#fill-bot") == "medium"
    levels = ann.page.eval_on_selector_all(
        "#fill-bot optgroup:first-child option", "(os) => os.map((o) => o.value)"
    )
    assert levels == ["easy", "medium", "hard", "expert"]
    ann.page.click("#fill-button")
    for person in (ann, bob):
        person.page.wait_for_selector("#mine [data-my-seat] [data-hand] .card")
    assert "partner" in ann.page.inner_text('#seats .seat[data-seat="2"]')
    # A few decisions each, then Ann closes her page in the middle of the hand.
    deadline = time.monotonic() + 60
    while table.version < 12:
        if not (ann.act() or bob.act()):
            ann.page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "the hand did not get under way"
    ann.page.close()
    closed = time.monotonic()
    left_at = table.version
    badge = bob.page.locator('#seats [data-away="0"]')
    badge.wait_for()
    assert "bot in" in badge.inner_text() or "bot plays" in badge.inner_text()
    assert "Ann left: a medium bot plays for them" in bob.page.inner_text("#away")
    assert bob.page.locator('#away [data-replace="bot"]').count() == 1  # the seated may
    bob.screenshot("leaver-away")
    # Bob plays on; the stand-in plays Ann's seat once the grace time is over.
    deadline = time.monotonic() + GRACE + 60
    while 0 not in seats_acted(table, left_at):
        if not bob.act():
            bob.page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "no stand-in played Ann's seat"
    stand_in_after = time.monotonic() - closed
    assert stand_in_after >= GRACE  # not before the grace time
    bob.page.wait_for_function(
        "() => document.querySelector('#seats [data-away=\"0\"]')?.innerText === 'bot plays'"
    )
    # Ann opens the table again: her seat is hers at once, her cards the engine's.
    ann.page = ann.context.new_page()
    ann.page.on("websocket", ann._watch)
    ann.page.on("pageerror", lambda error: ann.errors.append(str(error)))
    ann.page.set_default_timeout(5_000)
    started = time.perf_counter()
    ann.open(link)
    ann.page.wait_for_selector("#mine [data-my-seat='0']")
    back_ms = (time.perf_counter() - started) * 1000
    bob.page.wait_for_selector('#seats [data-away="0"]', state="detached")
    assert 0 not in table.bots and not ann.page.locator("#away").is_visible()
    play_hands([ann, bob])
    check_pages([ann, bob], app, table_id)
    replayed = lobby_of(app).tables[table_id]
    assert replayed.game is not None and len(replayed.game.hand_results) >= 1
    TIMES.parent.mkdir(parents=True, exist_ok=True)
    TIMES.write_text(
        json.dumps(
            {
                "move_click_to_screen_ms": round(move_ms),
                "return_open_to_hand_ms": round(back_ms),
                "stand_in_first_action_after_s": round(stand_in_after, 2),
                "grace_s": GRACE,
            }
        )
    )
    for person in (ann, bob):
        person.context.close()


def test_the_seated_open_a_leavers_place_and_a_newcomer_plays_on(
    browser: Browser, server: tuple[str, Any]
) -> None:
    """Bob leaves for good; Ann opens his place from the bar over the felt; the lobby
    lists the table with a free place; Cid takes it from the link and has Bob's cards,
    played meanwhile by a stand-in."""
    url, app = server
    ann = Person(browser, url, "Ann")
    table_id = create_table(ann, url, "standard", fill="")
    link = ann.page.input_value("#share-link")
    bob = Person(browser, url, "Bob")
    bob.open(link)
    bob.page.fill("#join-name", "Bob")
    bob.page.click('#places [data-take="2"]')
    bob.page.wait_for_function("() => document.body.dataset.player === '2'")
    ann.page.click("#fill-button")
    ann.page.wait_for_selector("#mine [data-my-seat] [data-hand] .card")
    table = lobby_of(app).tables[table_id]
    deadline = time.monotonic() + 60
    while table.version < 10:
        if not (ann.act() or bob.act()):
            ann.page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "the hand did not get under way"
    bob.context.close()
    ann.page.locator('#away [data-replace="open"]').click()
    ann.page.wait_for_function(
        "() => document.querySelector('#seats [data-away=\"2\"]')?.innerText === 'bot plays'"
    )
    assert 2 not in table.seats and 2 in table.bots  # free, played by a stand-in
    cid = Person(browser, url, "Cid")
    cid.open(url)
    row = cid.page.locator(f'#tables tr[data-table="{table_id}"]')
    row.wait_for()
    assert "waiting for players · 1 free" in row.inner_text()
    row.locator("button").click()
    cid.page.fill("#join-name", "Cid")
    cid.page.click("#join-button")
    cid.page.wait_for_selector("#mine [data-my-seat='2'] [data-hand] .card")
    assert table.seats[2].name == "Cid" and cid.page.locator("#join").is_hidden()
    ann.page.wait_for_selector('#seats [data-away="2"]', state="detached")
    assert "Cid" in ann.page.inner_text('#seats .seat[data-seat="2"]')
    play_hands([ann, cid])
    for person in (ann, cid):
        assert not person.errors, person.errors
        person.context.close()
