"""The web table's layouts and words in a real browser (Debian's Chromium, as
test_web_browser.py): the phone lobby fits 390 px with nothing cut; the Threechu
exchange keeps every name plate whole at 1280x800; the score sheet fits at 1280x800 and
390x844 with whole headers and names, the minus sign U+2212, the finishing order and
Threechu's partnerships; a collected trick and a pending decision read right for "You".
Screenshots go to tests/artifacts/web/ (ignored by git)."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from scenario import passes, play, start_play
from webpages import DESKTOP, PHONE, Person, browser, create_table, server
from webtable import lobby_of, on_loop

__all__ = ["browser", "server"]  # the fixtures of tests/webpages.py

# Boxes that leave the viewport (the score sheet's own box, not what scrolls inside it),
# and text cut short (scrollWidth over clientWidth),
# among the nodes `selector` finds; and whether the page scrolls sideways.
CUT = """([selector, vertical]) => {
  const width = window.innerWidth, height = window.innerHeight;
  const bad = [];
  if (document.scrollingElement.scrollWidth > width + 1)
    bad.push(`page ${document.scrollingElement.scrollWidth} px wide`);
  for (const node of document.querySelectorAll(selector)) {
    const box = node.getBoundingClientRect();
    if (box.width === 0) continue;
    const what = `${node.tagName.toLowerCase()}.${node.className} "${node.innerText.slice(0, 30)}"`;
    // Inside the score sheet, what is below its fold is reached by scrolling the sheet.
    const scrolled = node.tagName !== "DIALOG" && node.closest("dialog");
    const out = box.left < -1 || box.right > width + 1 ||
      (vertical && (box.top < -1 || box.bottom > height + 1));
    if (!scrolled && out)
      bad.push(`${what} at ${Math.round(box.left)},${Math.round(box.top)}-` +
        `${Math.round(box.right)},${Math.round(box.bottom)}`);
    if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).display !== "inline")
      bad.push(`${what} cut: ${node.scrollWidth} > ${node.clientWidth}`);
  }
  return bad;
}"""

# The name plates that leave the felt, overlap one another or the words in the middle.
PLATES = """() => {
  const felt = document.getElementById("felt").getBoundingClientRect();
  const plates = [...document.querySelectorAll("#seats .seat")];
  const boxes = plates.map((p) => p.getBoundingClientRect());
  const bad = [];
  boxes.forEach((b, i) => {
    const name = plates[i].innerText.split("\\n")[0];
    if (b.left < felt.left - 1 || b.right > felt.right + 1 || b.top < felt.top - 1 ||
        b.bottom > felt.bottom + 1) bad.push(`${name} leaves the felt`);
    boxes.forEach((c, j) => {
      if (j > i && b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom)
        bad.push(`${name} overlaps ${plates[j].innerText.split("\\n")[0]}`);
    });
    const inner = plates[i].querySelector(".name");
    if (inner && inner.scrollWidth > inner.clientWidth + 1) bad.push(`${name} cut`);
    const text = document.getElementById("center-text").getBoundingClientRect();
    if (text.width && b.left < text.right && text.left < b.right && b.top < text.bottom &&
        text.top < b.bottom) bad.push(`${name} covers the words in the middle`);
  });
  return bad;
}"""


def cut(page: Page, selector: str, vertical: bool = True) -> list[str]:
    """What `selector` finds outside the viewport (sideways only, unless `vertical`) or cut."""
    found: list[str] = page.evaluate(CUT, [selector, vertical])
    return found


def test_the_phone_lobby_fits_390_px_with_nothing_cut(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    lobby = lobby_of(app)
    for variant in ("standard", "threechu", "grand_seigneur"):
        on_loop(app, lobby.create(variant, None, {"1": "heuristic", "2": "heuristic"}))
    bots = {str(p): "greedy" for p in range(4)}  # a match of bots, finished and listed
    on_loop(app, lobby.create("standard", {"game.hands": 1}, bots))
    pat = Person(browser, url, "Pat", PHONE)
    pat.open(url)
    pat.page.wait_for_selector("#tables tbody tr >> nth=3")
    pat.page.wait_for_selector("#records tbody tr", timeout=60_000)
    assert pat.page.evaluate("() => document.getElementById('lobby').scrollWidth") <= 390
    # The lobby scrolls up and down on a phone: sideways nothing leaves the screen.
    every = "#lobby label, #lobby select, #lobby input, #lobby button, #tables td, #records td"
    bad = cut(pat.page, every, vertical=False)
    assert not bad, bad
    assert "2 bots (heuristic)" in pat.page.inner_text("#tables")
    pat.screenshot("lobby")
    assert not pat.errors, pat.errors


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_threechu_exchange_keeps_every_plate_whole(
    browser: Browser, server: tuple[str, Any], size: Any
) -> None:
    url, _ = server
    cyd = Person(browser, url, "Cyd", size)
    create_table(cyd, url, "threechu", fill="heuristic")
    page = cyd.page
    declined = page.locator('#mine button[data-kind="grand_tichu"]', has_text="No Grand Tichu")
    for _ in range(200):  # each of our seats declines Grand Tichu, if the variant asks
        if page.locator('#mine button[data-kind="push"]').count() == 2:
            break
        if declined.count():
            cyd.click_and_wait(declined.first)
        page.wait_for_timeout(50)
    assert page.locator("#mine .mine").count() == 2  # the shuffler's hand and the dummy's
    bad = page.evaluate(PLATES)
    assert not bad, bad
    assert page.locator("#seats .seat").count() == 4
    felt = page.locator("#felt").bounding_box()
    assert felt is not None
    if size == DESKTOP:
        assert felt["height"] >= 360, felt  # the table keeps its room
    bad = cut(page, "#mine [data-hand], #mine button, #mine .push-target")
    assert not bad, bad
    cyd.screenshot("threechu-exchange")
    assert not cyd.errors, cyd.errors


def watch_a_finished_match(browser: Browser, url: str, app: Any, variant: str, size: Any) -> Page:
    """A spectator's page of a short match of bots (one hand; Threechu: three, T3-8),
    with its score sheet open."""
    players, hands = {"threechu": (3, 3), "grand_seigneur": (12, 1)}.get(variant, (4, 1))
    overrides: dict[str, Any] = {"game.hands": hands}
    if variant == "grand_seigneur":
        overrides["players"] = players
    bots = {str(p): "greedy" for p in range(players)}
    table = on_loop(app, lobby_of(app).create(variant, overrides, bots))
    person = Person(browser, url, "Sam", size)
    person.open(f"{url}/#table={table.id}")
    person.page.wait_for_selector("#sheet[open] p.winner", timeout=120_000)
    person.screenshot(f"{variant}-{players}-sheet")
    assert not person.errors, person.errors
    return person.page


@pytest.mark.parametrize(
    ("variant", "size"),
    [("standard", DESKTOP), ("standard", PHONE), ("grand_seigneur", PHONE)],
    ids=["1280x800", "390x844", "12-seats-390x844"],
)
def test_the_score_sheet_fits_with_whole_headers_and_names_and_one_minus_sign(
    browser: Browser, server: tuple[str, Any], variant: str, size: Any
) -> None:
    url, app = server
    page = watch_a_finished_match(browser, url, app, variant, size)
    bad = cut(page, "#sheet, #sheet th, #sheet td, #sheet .finishing li")
    assert not bad, bad
    sheet = page.inner_text("#sheet")
    assert not re.search(r"(?<![\w])-\d", sheet), sheet  # no hyphen-minus before a number
    game = next(iter(lobby_of(app).tables.values())).game
    assert game is not None
    result = game.hand_results[0]
    # The finishing order, also in a 4-player game, is the engine's.
    names = page.locator("#sheet .finishing li .who").all_inner_texts()
    assert names == [f"Bot {result.players[seat] + 1}" for seat in result.out_order]  # type: ignore[operator]
    negative = [score for score in result.scores if score < 0]
    for score in negative:
        assert f"\u2212{-score}" in sheet


def test_threechus_sheet_says_whose_partner_the_dummy_was(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    page = watch_a_finished_match(browser, url, app, "threechu", DESKTOP)
    game = next(iter(lobby_of(app).tables.values())).game
    assert game is not None
    result = game.hand_results[-1]  # the sheet's first table is the last hand
    dummy = result.players.index(None)
    partner = next(
        seat
        for seat in range(len(result.players))
        if seat != dummy and game.variant.team_of(seat) == game.variant.team_of(dummy)
    )
    player = result.players[partner]
    assert player is not None
    said = page.locator("#sheet .partnership")
    assert said.get_attribute("data-dummy-partner") == f"Bot {player + 1}"
    assert f"Bot {player + 1} & the dummy" in said.inner_text()
    bad = cut(page, "#sheet, #sheet th, #sheet td")
    assert not bad, bad


# The trick's area clear of one's own name plate, no play of the trick under a name
# plate, and the newest play whole inside the area (a long trick on a phone scrolls, the
# newest play in view).
TRICK_CLEAR = """() => {
  const center = document.getElementById("center").getBoundingClientRect();
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const bad = [];
  const me = document.querySelector("#seats .seat.me");
  if (me && overlap(center, me.getBoundingClientRect()))
    bad.push("the trick's area covers our name plate");
  const visible = (box) => box.bottom > center.top && box.top < center.bottom;
  for (const entry of document.querySelectorAll("#trick .entry")) {
    const box = entry.getBoundingClientRect();
    if (box.width === 0 || !visible(box)) continue;
    for (const plate of document.querySelectorAll("#seats .seat"))
      if (overlap(box, plate.getBoundingClientRect()))
        bad.push(`"${entry.innerText.replace(/\\n/g, " ")}" under ${plate.dataset.seat}'s plate`);
  }
  const top = document.querySelector("#trick .entry.top");
  if (top) {
    const t = top.getBoundingClientRect();
    if (t.top < center.top - 1 || t.bottom > center.bottom + 1)
      bad.push(`the newest play at ${Math.round(t.top)}-${Math.round(t.bottom)} outside ` +
        `${Math.round(center.top)}-${Math.round(center.bottom)}`);
  }
  return bad;
}"""


# "You" with a verb for someone else ("You gives", "You makes"), and "You" inside a
# sentence or a list ("Waiting for You", "Bob, You: pass").
WRONG_YOU = re.compile(r"\bYou (?:gives|makes|takes|passes|wishes|decides)\b|[a-z,] You\b")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_trick_keeps_clear_of_the_name_plates_with_its_newest_play_in_view(
    browser: Browser, server: tuple[str, Any], size: Any
) -> None:
    url, _ = server
    pat = Person(browser, url, "Pat", size)
    create_table(pat, url, "standard", fill="greedy")
    page = pat.page
    narrow = page.evaluate("() => document.getElementById('felt').classList.contains('narrow')")
    assert narrow == (size == PHONE)
    seen: list[str] = []
    largest = 0
    deadline = time.monotonic() + 120
    while pat.hands_played() < 1:
        with contextlib.suppress(PlaywrightTimeout):
            if not pat.act():
                page.wait_for_timeout(20)
        seen += page.evaluate(TRICK_CLEAR)
        words = page.inner_text("#felt") + "\n" + page.inner_text("#mine")
        seen += [f"words: {bad}" for bad in WRONG_YOU.findall(words)]
        entries = page.locator("#trick .entry.play").count()
        if entries > largest:
            largest = entries
            pat.screenshot("standard-largest-trick")
        assert time.monotonic() < deadline, "the hand took too long"
    assert largest >= 3  # a trick of several plays was seen
    assert not seen, sorted(set(seen))
    assert not pat.errors, pat.errors


# A stacked deal: the person (seat 0) holds the Mah Jong, so leads, and the Dragon.
DRAGON_HANDS = [
    "MJ DR Aj As Ap At 2j 2s 2p 2t 3j 3s 4j 4s",
    "5j 3p 4t 6j 6t 7p 8s 9j 9t 10p Js Qj Qt Kp",
    "DOG 3t 5p 6s 7j 7t 8p 9s 10j 10t Jp Qs Kj Kt",
    "PH 5s 4p 5t 6p 7s 8j 8t 9p 10s Jj Jt Qp Ks",
]


async def dragon_table(app: Any) -> Any:
    """A table whose person (seat 0) led the Dragon, which everyone let stand, and took
    the trick: the game waits for the person to give it away (S-DRAGON-1). Its bots act
    only when asked (none is), and the stacked game replaces the shuffled one."""
    table = await lobby_of(app).create(
        "standard", None, {"1": "greedy", "2": "greedy", "3": "greedy"}
    )
    table.start_bots = lambda: None
    game = start_play(DRAGON_HANDS)
    play(game, 0, "DR")
    passes(game, 1, 2, 3, 0)
    table.game = game
    return table


def test_ones_collected_dragon_trick_and_its_gift_read_right_for_you(
    browser: Browser, server: tuple[str, Any]
) -> None:
    url, app = server
    table = on_loop(app, dragon_table(app))
    assert table.game.observation(0).pending["kind"] == "give_trick"
    ann = Person(browser, url, "Ann", PHONE)
    ann.open(f"{url}/#table={table.id}")
    ann.page.fill("#join-name", "Ann")
    ann.page.click('#places [data-take="0"]')
    page = ann.page
    # The server may send Ann's first state before its answer to her 'sit' (a state already
    # queued for the watching page is computed when sent, as hers): the page takes "You"
    # from the state it draws, so even that first drawing speaks to her.
    page.wait_for_selector("#seats .seat.me")
    page.wait_for_selector("#trick .entry.take")
    assert page.inner_text("#trick .entry.take") == "You take the trick."
    assert page.inner_text("#center-text") == "You give the Dragon trick away…"
    felt = page.inner_text("#felt")
    assert "You: pass" not in felt and "You gives" not in felt, felt
    assert page.locator("#seats .seat.me .bubble.pass").count() == 0
    assert not ann.errors, ann.errors


# At any table size: the score strip's names whole and on the screen; every name plate
# clear of the felt's edge (its inner box, inside the rail) by 6 px; what shows of every
# entry of the trick (a long one scrolls in its area) clear of every plate by 4 px; the
# passes in a row and who takes the trick said whole.
FITS = """() => {
  const bad = [];
  const width = window.innerWidth;
  for (const who of document.querySelectorAll("#score-strip .score .who")) {
    const box = who.getBoundingClientRect();
    if (who.scrollWidth > who.clientWidth + 1) bad.push(`score "${who.innerText}" cut`);
    if (box.left < 0 || box.right > width) bad.push(`score "${who.innerText}" off the screen`);
  }
  const felt = document.getElementById("felt");
  const outer = felt.getBoundingClientRect();
  const inner = { left: outer.left + felt.clientLeft, top: outer.top + felt.clientTop };
  inner.right = inner.left + felt.clientWidth;
  inner.bottom = inner.top + felt.clientHeight;
  const plates = [...document.querySelectorAll("#seats .seat")];
  for (const plate of plates) {
    const p = plate.getBoundingClientRect();
    const room = Math.min(p.left - inner.left, inner.right - p.right, p.top - inner.top,
      inner.bottom - p.bottom);
    if (room < 6) bad.push(`${plate.dataset.seat}'s plate ${Math.round(room)} px from the edge`);
  }
  const center = document.getElementById("center").getBoundingClientRect();
  for (const entry of document.querySelectorAll("#trick .entry")) {
    const box = entry.getBoundingClientRect();
    if (box.width === 0 || box.bottom <= center.top || box.top >= center.bottom) continue;
    // What shows of it: a long trick scrolls inside its area.
    const e = { left: box.left, right: box.right, top: Math.max(box.top, center.top),
      bottom: Math.min(box.bottom, center.bottom) };
    for (const plate of plates) {
      const p = plate.getBoundingClientRect();
      if (e.left < p.right + 4 && p.left - 4 < e.right && e.top < p.bottom + 4 &&
          p.top - 4 < e.bottom)
        bad.push(`"${entry.innerText.replace(/\\n/g, " ")}" by ${plate.dataset.seat}'s plate`);
    }
    const who = entry.querySelector(".who");
    if (who && who.scrollWidth > who.clientWidth + 1) bad.push(`"${who.innerText}" cut`);
  }
  return bad;
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("standard", None),
        ("threechu", None),
        ("tientsin", None),
        ("grand_seigneur", 7),
        ("grand_seigneur", 12),
    ],
    ids=["standard", "threechu", "tientsin", "7-seats", "12-seats"],
)
def test_scores_plates_and_the_trick_fit_at_every_table_size(
    browser: Browser, server: tuple[str, Any], variant: str, players: int | None, size: Any
) -> None:
    url, _ = server
    # A name as long as a team's names are together in a 6-seat game.
    sam = Person(browser, url, "Samantha", size)
    create_table(sam, url, variant, fill="greedy", players=players)
    page = sam.page
    seen: list[str] = []
    largest = 0
    deadline = time.monotonic() + 120
    while largest < 8 and sam.hands_played() < 1:
        with contextlib.suppress(PlaywrightTimeout):
            if not sam.act():
                page.wait_for_timeout(20)
        page.wait_for_timeout(20)  # the newest play's fade-in
        seen += page.evaluate(FITS)
        entries = page.locator("#trick .entry").count()
        if entries > largest:
            largest = entries
            sam.screenshot(f"fits-{variant}-{players or ''}-largest-trick")
        assert time.monotonic() < deadline, "the hand took too long"
    assert largest >= 3  # a trick of several entries was seen
    assert not seen, sorted(set(seen))
    if size == PHONE:  # the log opens as a drawer under the bar, the scores uncovered
        sam.close_sheet()
        page.click("#open-log")
        page.wait_for_function("() => document.body.classList.contains('log-open')")
        bar = page.locator("#bar").bounding_box()
        drawer = page.locator("#log-panel").bounding_box()
        assert bar is not None and drawer is not None
        assert drawer["y"] >= bar["y"] + bar["height"] - 1, (bar, drawer)
    assert not sam.errors, sam.errors
