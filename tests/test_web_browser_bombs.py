"""The Bomb button in a real browser (issue 40): on a stacked deal where the person
(seat 0) holds two bombs, the bots act one at a time when the test says. After an
opponent's lead the page shows "Bomb… (2)" out of turn; after the partner's play it
shows no Bomb button although the engine lists the bombs; after the next opponent's
play the button is back, a tap opens the choice of the two bombs and a tap on one
plays it. Uses the helpers of tests/webpages.py (Debian's chromium)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from scenario import start_play
from test_bombs import HANDS
from webpages import Person, browser, server
from webtable import lobby_of, on_loop

from tichu_core.frontends.web.tables import Table

__all__ = ["browser", "server"]  # the fixtures of tests/webpages.py


async def stacked(app: Any) -> Table:
    """A table with bots at places 2 to 4 that act only when asked, and the stacked deal
    in place of its shuffled game (its store is not replayed here)."""
    table = await lobby_of(app).create(
        "standard", None, {"1": "greedy", "2": "greedy", "3": "greedy"}
    )
    table.start_bots = lambda: None  # type: ignore[method-assign]  # the test asks them
    table.game = start_play(HANDS)
    return table


async def one_bot_action(table: Table) -> None:
    asked = await table._bot_action()
    assert asked is not None, "no bot is asked anything"
    action, unchanged = asked
    await table.commit(action, check=unchanged)


def top_seat(table: Table) -> int | None:
    assert table.game is not None
    return table.game.observation(None).top_seat


def bombs_listed(table: Table) -> int:
    assert table.game is not None
    return sum(1 for combination in table.game.legal_actions(0).combinations if combination.is_bomb)


def test_the_bomb_button_stands_on_an_opponents_play_and_offers_a_choice(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    table = on_loop(app, stacked(app))
    ann = Person(browser, url, "Ann")
    ann.open(f"{url}/#table={table.id}")
    ann.page.fill("#join-name", "Ann")
    ann.page.click('#places [data-take="0"]')
    page = ann.page
    page.wait_for_selector("#mine [data-my-seat='0'] [data-hand] .card")

    def step() -> None:
        on_loop(app, one_bot_action(table))
        page.wait_for_function(f"() => Number(document.body.dataset.version) === {table.version}")

    step()  # seat 1, an opponent, leads
    assert top_seat(table) == 1 and bombs_listed(table) >= 2
    button = page.locator('#mine button[data-kind="bomb"]')
    assert button.inner_text() == "Bomb… (2)"
    assert page.locator("#mine [data-out-of-turn]").count() == 1
    ann.screenshot("bomb-out-of-turn")
    step()  # seat 2, the partner, beats it
    assert top_seat(table) == 2 and bombs_listed(table) >= 2  # the engine lists the bombs
    assert page.locator('#mine button[data-kind="bomb"]').count() == 0
    assert page.locator("#mine [data-out-of-turn]").count() == 0
    step()  # seat 3, an opponent, beats it (or passes: then the partner's play stands)
    while top_seat(table) != 3:
        assert top_seat(table) == 2, "the hand went elsewhere"
        if table.game is not None and 0 in table.game.waiting_for:
            pytest.fail("seat 3 passed: the stacked deal no longer gives the opponent a play")
        step()
    button.click()
    choices = page.locator("#mine .bomb-menu [data-bomb-choice]")
    assert choices.count() == 2
    ann.screenshot("bomb-choice")
    after = table.version + 1
    choices.filter(has_text="aces").first.click()
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {after}")
    assert table.game is not None
    trick = table.game.observation(None).trick
    assert trick[-1]["seat"] == 0
    assert sorted(trick[-1]["cards"]) == sorted(["Aj", "As", "Ap", "At"])
    assert not ann.errors, ann.errors
    ann.context.close()
