"""What players expect at the web table, in a real browser (issue 40 item 6): the last
trick can be looked at, the table chat shows what was typed as text (never HTML) to
the seated and to spectators, a spectator sees a "watching" banner and cannot write,
a card played by another seat sounds (unless muted) and the mute switch is remembered
across a reload, and a finished match is listed in the lobby with a record that
replays. Uses the helpers of tests/webpages.py (Debian's chromium)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser
from webpages import Person, browser, create_table, server
from webtable import lobby_of, on_loop

import tichu_core as tc

__all__ = ["browser", "server"]  # the fixtures of tests/webpages.py

TRICKY = '<img src=x onerror="document.body.dataset.hacked=1"> hi & <b>bye</b>'


def test_last_trick_chat_watching_banner_and_the_mute_switch(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    ann = Person(browser, url, "Ann")
    table_id = create_table(ann, url, "standard", fill="greedy")
    page = ann.page
    # Play until a trick has been taken: the Last button opens it.
    deadline = time.monotonic() + 90
    while page.locator("#open-last").is_disabled():
        if not ann.act():
            page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "no trick was taken"
    assert int(page.evaluate("() => Number(document.body.dataset.sounds || 0)")) > 0
    page.click("#open-last")
    body = page.inner_text("#last-body")
    assert "took the trick" in body
    game = lobby_of(app).tables[table_id].game
    assert game is not None
    ann.screenshot("last-trick")
    page.click("#last-close")
    # The chat: typed text comes back as text, to everyone following the table.
    page.fill("#chat-text", TRICKY)
    page.click("#chat-send")
    page.wait_for_function(
        "() => document.querySelectorAll('#chat-lines li').length === 1"
        " && document.getElementById('chat-text').value === ''"
    )
    assert page.inner_text("#chat-lines li .chat-text") == TRICKY
    assert page.locator("#chat-lines img, #chat-lines b b").count() == 0
    eve = Person(browser, url, "Eve")
    eve.open(f"{url}/#table={table_id}")
    eve.page.wait_for_selector("#watching", state="visible")
    assert eve.page.inner_text("#watching") == "You are watching this table"
    assert eve.page.locator("#chat-text").is_disabled()
    eve.page.wait_for_selector("#chat-lines li")
    assert eve.page.inner_text("#chat-lines li .chat-text") == TRICKY
    assert page.locator("#watching").is_hidden()  # Ann is seated
    assert not page.evaluate("() => document.body.dataset.hacked")
    assert not eve.page.evaluate("() => document.body.dataset.hacked")
    eve.screenshot("watching")
    # Mute: no more tones, and the choice holds after a reload.
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#mine [data-my-seat]")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    before = int(page.evaluate("() => Number(document.body.dataset.sounds || 0)"))
    version = ann.version()
    deadline = time.monotonic() + 60
    while ann.version() < version + 8:
        if not ann.act():
            page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "the game did not go on"
    assert int(page.evaluate("() => Number(document.body.dataset.sounds || 0)")) == before
    assert not ann.errors and not eve.errors, (ann.errors, eve.errors)
    for person in (ann, eve):
        person.context.close()


def test_a_finished_match_is_listed_in_the_lobby_and_its_record_replays(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    bots = {str(p): "greedy" for p in range(4)}
    table = on_loop(app, lobby_of(app).create("standard", {"game.hands": 1}, bots))
    deadline = time.monotonic() + 60
    while table.status != "over":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.05)
    ann = Person(browser, url, "Ann")
    ann.open(url)
    row = ann.page.locator(f'#records tr[data-record="{table.id}"]')
    row.wait_for(timeout=15_000)
    assert "Bot (greedy)" in row.inner_text()
    assert table.game is not None
    scores = table.game.observation(None).scores
    shown = row.locator(".record-score").inner_text()
    assert shown == " · ".join(
        f"Bot (greedy) & Bot (greedy) {score}".replace("-", "\u2212") for score in scores
    )
    ann.screenshot("lobby-finished")
    link = row.locator("a")
    assert link.get_attribute("href") == f"/record/{table.id}"
    saved = ann.page.request.get(f"{url}/record/{table.id}")
    assert saved.ok
    replayed = tc.Game.from_json(saved.text())
    assert table.game is not None
    assert replayed.observation(None).scores == table.game.observation(None).scores
    assert not ann.errors, ann.errors
    ann.context.close()
