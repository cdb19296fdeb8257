"""The web table's words (tichu_core/frontends/web/static/words.js), function by function,
in Debian's Chromium on a blank page (no server): the verb after "You" and after a name,
the article before every rank, the minus sign of a negative score, and the orders a hand
is shown in (Dog and Mah Jong low, Phoenix and Dragon high)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page
from webpages import chromium

from tichu_core.frontends.web.app import STATIC

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with chromium() as browser:
        blank = browser.new_page()
        blank.add_script_tag(content=(STATIC / "words.js").read_text(encoding="utf-8"))
        yield blank


def call(page: Page, name: str, *args: Any) -> Any:
    return page.evaluate(f"(args) => Words.{name}(...args)", list(args))


def test_the_verb_agrees_with_you_and_with_a_name(page: Page) -> None:
    assert call(page, "says", "You", "give", "the Dragon trick away") == (
        "You give the Dragon trick away"
    )
    assert call(page, "says", "Bot 4", "give", "the Dragon trick away") == (
        "Bot 4 gives the Dragon trick away"
    )
    assert call(page, "says", "You", "make", "a wish") == "You make a wish"
    assert call(page, "says", "Ann", "make", "a wish") == "Ann makes a wish"
    assert call(page, "says", "You", "wish", "for an A") == "You wish for an A"
    assert call(page, "says", "Ann", "wish", "for an A") == "Ann wishes for an A"
    assert call(page, "says", "You", "pass", "") == "You pass"
    assert call(page, "says", "Carl", "pass", "") == "Carl passes"
    assert call(page, "verb", "You", "have", "has") == "have"
    assert call(page, "verb", "Dummy", "have", "has") == "has"


def test_you_inside_a_sentence_is_lower_case_and_other_names_are_kept(page: Page) -> None:
    assert call(page, "object", "You") == "you"
    assert call(page, "object", "Bot 4") == "Bot 4"
    assert call(page, "object", "Youssef") == "Youssef"


def test_names_in_a_sentence_are_listed_with_commas_and_a_last_and(page: Page) -> None:
    assert call(page, "listed", []) == ""
    assert call(page, "listed", ["Ann"]) == "Ann"
    assert call(page, "listed", ["Ann", "Bob"]) == "Ann and Bob"
    assert call(page, "listed", ["Ann & Bob", "Carl", "Dee"]) == "Ann & Bob, Carl and Dee"


def test_every_rank_has_its_article(page: Page) -> None:
    said = {rank: call(page, "withArticle", rank) for rank in RANKS}
    assert said == {rank: f"{'an' if rank in ('A', '8') else 'a'} {rank}" for rank in RANKS}
    assert said["A"] == "an A" and said["8"] == "an 8" and said["K"] == "a K"


def test_a_negative_score_has_the_minus_sign_and_a_hand_score_its_sign(page: Page) -> None:
    assert call(page, "number", -75) == "\u221275"
    assert call(page, "number", 0) == "0"
    assert call(page, "number", 125) == "125"
    assert call(page, "signed", -75) == "\u221275"
    assert call(page, "signed", 75) == "+75"
    assert call(page, "signed", 0) == "0"
    assert "-" not in call(page, "number", -1000)


HAND = ["5j", "DR", "MJ", "As", "PH", "2t", "DOG", "10p", "Aj", "2s", "Kp"]


def shown(page: Page, order: str) -> list[str]:
    positions = call(page, "arrange", HAND, order)
    assert sorted(positions) == list(range(len(HAND)))  # every card once, none made up
    return [HAND[i] for i in positions]


def test_high_first_puts_dragon_and_phoenix_first_and_dog_and_mah_jong_last(
    page: Page,
) -> None:
    assert shown(page, "high") == [
        "DR", "PH", "As", "Aj", "Kp", "10p", "5j", "2t", "2s", "MJ", "DOG"
    ]  # fmt: skip


def test_low_first_is_the_reverse_order(page: Page) -> None:
    assert shown(page, "low") == [
        "DOG", "MJ", "2s", "2t", "5j", "10p", "Kp", "Aj", "As", "PH", "DR"
    ]  # fmt: skip


def test_by_suit_groups_the_suits_between_the_specials(page: Page) -> None:
    assert shown(page, "suit") == [
        "DOG", "MJ", "5j", "Aj", "2s", "As", "10p", "Kp", "2t", "PH", "DR"
    ]  # fmt: skip
