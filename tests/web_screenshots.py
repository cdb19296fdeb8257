"""The screenshots of docs/web.md, and the click-to-screen times of a hand played by
clicks (issue 40 item 7). Not a test: run it by hand after a change to the page,

    .venv/bin/python tests/web_screenshots.py docs/images/web

It serves the web table on loopback, drives Debian's chromium (/usr/bin/chromium)
through the lobby, a trick, the exchange, a bomb out of turn, the score sheet and a
12-seat table at 1280x800 and 390x844, writes each screenshot as an 8-bit palette PNG
(Pillow) and prints the times: for every click, from the click to the page's next
change of the DOM (a selection drawn), and for the clicks the server answers, to the
state that holds the action (a new version on the page)."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image
from scenario import start_play
from test_bombs import HANDS
from webpages import DESKTOP, PHONE, Person, chromium, create_table, serving
from webtable import lobby_of, on_loop

from tichu_core.frontends.web.tables import Table

# Measured in the page: the time from a click to the next change of the DOM, and to
# the next new version (a state holding the action).
TIMER = """() => {
  if (window.__clicks) return;
  window.__clicks = [];
  let pending = null;
  document.addEventListener("click", () => {
    pending = { at: performance.now(), drawn: null, version: document.body.dataset.version };
    window.__clicks.push(pending);
  }, true);
  new MutationObserver(() => {
    if (pending && pending.drawn === null) pending.drawn = performance.now() - pending.at;
    if (pending && document.body.dataset.version !== pending.version) {
      pending.stored = performance.now() - pending.at;
      pending = null;
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def save(person: Person, folder: Path, name: str) -> Path:
    path = folder / f"{name}-{person.size}.png"
    person.page.wait_for_timeout(400)  # the newest play's fade-in is over
    person.page.screenshot(path=str(path))
    image = Image.open(path).convert("RGB")
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(path, optimize=True)
    return path


def times(person: Person) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = person.page.evaluate("() => window.__clicks || []")
    return found


def act_until(person: Person, done: Any, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if not person.act():
            person.page.wait_for_timeout(20)
        assert time.monotonic() < deadline, "the table did not get there"


async def stacked(app: Any) -> Table:
    bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
    table = await lobby_of(app).create("standard", None, bots)
    table.start_bots = lambda: None  # type: ignore[method-assign]
    table.game = start_play(HANDS)
    return table


async def one_bot_action(table: Table) -> None:
    asked = await table._bot_action()
    assert asked is not None
    action, unchanged = asked
    await table.commit(action, check=unchanged)


def shoot(browser: Any, url: str, app: Any, viewport: dict[str, int], folder: Path) -> list[Any]:
    clicks: list[Any] = []
    # The lobby, with a finished match listed.
    eve = Person(browser, url, "Eve", viewport)
    eve.open(url)
    eve.page.locator("#records tr[data-record]").first.wait_for(timeout=20_000)
    eve.page.fill("#name", "Eve")
    save(eve, folder, "lobby")
    # A standard table against medium bots: the exchange, a trick, the score sheet.
    ann = Person(browser, url, "Ann", viewport)
    create_table(ann, url, "standard", fill="medium")
    ann.page.evaluate(TIMER)
    page = ann.page
    act_until(ann, lambda: page.locator("#mine [data-target]").count() > 0)
    save(ann, folder, "exchange")
    act_until(
        ann,
        lambda: (
            page.locator("#trick .entry.play").count() >= 3
            and page.evaluate("() => document.body.dataset.myTurn") == "yes"
        ),
    )
    save(ann, folder, "trick")
    act_until(ann, lambda: page.locator("#sheet[open]").count() > 0, seconds=180)
    save(ann, folder, "score-sheet")
    clicks += times(ann)
    # A bomb out of turn (a stacked deal: the person holds two bombs).
    table = on_loop(app, stacked(app))
    bob = Person(browser, url, "Bob", viewport)
    bob.open(f"{url}/#table={table.id}")
    bob.page.fill("#join-name", "Bob")
    bob.page.click('#places [data-take="0"]')
    bob.page.wait_for_selector("#mine [data-my-seat='0'] [data-hand] .card")
    on_loop(app, one_bot_action(table))
    bob.page.wait_for_selector('#mine button[data-kind="bomb"]')
    save(bob, folder, "bomb-out-of-turn")
    # Twelve seats: Grand Seigneur against medium bots, in play.
    cid = Person(browser, url, "Cid", viewport)
    create_table(cid, url, "grand_seigneur", fill="medium", players=12)
    cid.page.evaluate(TIMER)
    act_until(cid, lambda: cid.page.locator("#trick .entry.play").count() >= 2, seconds=180)
    save(cid, folder, "twelve-seats")
    clicks += times(cid)
    for person in (eve, ann, bob, cid):
        person.context.close()
    return clicks


def summary(clicks: list[dict[str, Any]]) -> dict[str, Any]:
    drawn = [c["drawn"] for c in clicks if c.get("drawn") is not None]
    stored = [c["stored"] for c in clicks if c.get("stored") is not None]

    def figures(values: list[float]) -> dict[str, float]:
        if not values:
            return {}
        ordered = sorted(values)
        return {
            "count": len(values),
            "median_ms": round(statistics.median(values), 1),
            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
            "max_ms": round(ordered[-1], 1),
        }

    return {"click_to_drawn": figures(drawn), "click_to_stored_state": figures(stored)}


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory() as tmp,
        chromium() as browser,
        serving(Path(tmp) / "tables.db", bot_delay=0.05) as (url, app),
    ):
        bots = {str(p): "greedy" for p in range(4)}
        done = on_loop(app, lobby_of(app).create("standard", {"game.hands": 1}, bots))
        while done.status != "over":
            time.sleep(0.05)
        for viewport in (DESKTOP, PHONE):
            size = f"{viewport['width']}x{viewport['height']}"
            report[size] = summary(shoot(browser, url, app, viewport, folder))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    asyncio.set_event_loop_policy(None)
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/web"))
