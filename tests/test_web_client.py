"""What players expect of the web table's page, in a real browser (Debian's Chromium, as
test_web_browser.py): the hand shown with the Dog and the Mah Jong low and the Phoenix
and the Dragon high, in an order the player chooses (high first, low first, by suit)
and this browser remembers; a hand face up on a name plate (Threechu's dummy) in the
same order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from webpages import DESKTOP, Person, browser, create_table, server, serving
from webtable import lobby_of, on_loop

__all__ = ["browser", "server"]  # the fixtures of tests/webpages.py

RANKS = {"DOG": 0, "MJ": 1, "J": 11, "Q": 12, "K": 13, "A": 14, "PH": 15, "DR": 16}
SUITS = "jspt"


def rank(code: str) -> int:
    return RANKS[code] if code in RANKS else RANKS.get(code[:-1]) or int(code[:-1])


def suit_group(code: str) -> int:
    if code in RANKS:
        return -1 if rank(code) < 2 else 5
    return SUITS.index(code[-1])


def test_the_hand_is_sorted_with_the_specials_where_players_put_them_in_a_remembered_order(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, _ = server
    ann = Person(browser, url, "Ann", DESKTOP)
    create_table(ann, url, "standard", fill="greedy")
    page = ann.page
    hand = page.locator("#mine [data-my-seat] [data-hand] .card")
    hand.first.wait_for()

    def shown() -> list[str]:
        return [code or "" for code in hand.evaluate_all("(n) => n.map((c) => c.dataset.card)")]

    def ranks() -> list[int]:
        return [rank(code) for code in shown()]

    assert page.get_attribute("button.order", "data-order") == "high"  # the default
    assert ranks() == sorted(ranks(), reverse=True)
    # The cards keep their places in the hand: the indexes are a permutation.
    indexes = hand.evaluate_all("(n) => n.map((c) => Number(c.dataset.index))")
    assert sorted(indexes) == list(range(len(indexes)))
    page.click("button.order")
    assert page.get_attribute("button.order", "data-order") == "low"
    assert ranks() == sorted(ranks())
    page.click("button.order")
    assert page.get_attribute("button.order", "data-order") == "suit"
    groups = [(suit_group(code), rank(code)) for code in shown()]
    assert groups == sorted(groups)
    # The choice is remembered by this browser: a reload keeps it.
    page.reload()
    hand.first.wait_for()
    assert page.get_attribute("button.order", "data-order") == "suit"
    again = [(suit_group(code), rank(code)) for code in shown()]
    assert again == sorted(again)
    # A card chosen on the page is the card at its index in the hand.
    first = hand.first
    code = first.get_attribute("data-card")
    index = int(first.get_attribute("data-index") or -1)
    dealt = page.evaluate(
        "(seat) => S.state.observation.hands[seat]",
        int(page.locator("#mine [data-my-seat]").first.get_attribute("data-my-seat") or 0),
    )
    assert dealt[index] == code
    assert not ann.errors, ann.errors


def test_a_face_up_hand_on_a_plate_is_shown_in_the_same_order(
    browser: Browser, tmp_path: Path
) -> None:
    # Bots at a pace that leaves the dummy most of its cards when the page looks.
    with serving(tmp_path / "tables.db", bot_delay=0.3) as (url, app):
        face_up_in_order(browser, url, app)


def face_up_in_order(browser: Browser, url: str, app: Any) -> None:
    bots = {str(p): "greedy" for p in range(3)}
    table = on_loop(app, lobby_of(app).create("threechu", {"game.hands": 3}, bots))
    sam = Person(browser, url, "Sam", DESKTOP)
    sam.open(f"{url}/#table={table.id}")
    shown = "#seats .seat .cards [data-card]"
    sam.page.wait_for_selector(shown, timeout=60_000)  # the dummy, face up (T3-4)
    codes = sam.page.evaluate(
        """(selector) => {
          const row = document.querySelector(selector).closest(".cards");
          return [...row.querySelectorAll("[data-card]")].map((c) => c.dataset.card);
        }""",
        shown,
    )
    ranks = [rank(code) for code in codes]
    assert len(ranks) > 1 and ranks == sorted(ranks, reverse=True), codes
    assert not sam.errors, sam.errors
