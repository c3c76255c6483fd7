"""The multi-board `/event` in Debian's chromium (Playwright): four tables live through a real
mosquitto, one goes offline and comes back; a click opens that table's spectator page."""

from __future__ import annotations

import pytest

from tests.chromium import ARGS, CHROMIUM
from tests.event.conftest import baltic_game, wait_for
from tests.event.tables import Table, serve_hub, start_hub

pytestmark = pytest.mark.browser


def card(page, n: int):
    return page.locator(f'article.table[data-table="{n}"]')


def test_event_board_shows_four_live_tables_and_one_going_offline_and_back(broker, credentials, tmp_path):
    from playwright.sync_api import sync_playwright

    hub = start_hub(tmp_path, broker.url, credentials)
    site = serve_hub(hub)
    players = [[f"T{n}P{i}" for i in range(1, 5)] for n in range(1, 5)]
    records = [baltic_game(p, seed=60 + n) for n, p in enumerate(players)]
    tables = {n: Table(tmp_path, n, broker.url, credentials, records[n - 1], pace_s=0.3, serve=(n == 1))
              for n in range(1, 5)}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
            page.goto(site.url + "event")
            page.wait_for_function("() => document.querySelectorAll('article.table[data-online=true]').length == 4",
                                   timeout=15000)
            for n in range(1, 5):
                c = card(page, n)
                assert c.locator(".status").inner_text() == "online"
                assert c.locator(".players li").all_inner_texts()[0].startswith(f"T{n}P1")
            page.wait_for_function("() => [...document.querySelectorAll('article.table')].every("
                                   "a => a.querySelectorAll('.chain .tile').length >= 2)", timeout=15000)
            page.wait_for_function("() => [...document.querySelectorAll('img.thumb')].filter("
                                   "i => i.naturalWidth > 0).length == 4", timeout=15000)

            tables[3].close()  # table 3 goes away
            page.wait_for_function("() => document.querySelector('article.table[data-table=\"3\"]')"
                                   ".dataset.online == 'false'", timeout=5000)
            assert card(page, 3).locator(".status").inner_text() == "offline"
            assert card(page, 2).get_attribute("data-online") == "true"
            shown = int(card(page, 3).get_attribute("data-last-id"))

            tables[3] = Table(tmp_path, 3, broker.url, credentials, records[2], pace_s=0.3)  # and back
            page.wait_for_function("() => document.querySelector('article.table[data-table=\"3\"]')"
                                   ".dataset.online == 'true'", timeout=10000)
            wait_for(lambda: int(card(page, 3).get_attribute("data-last-id")) > shown, 10,
                     what="table 3's moves moving on after it came back")

            with page.context.expect_page() as opened:
                card(page, 1).click()
            spectator = opened.value
            spectator.wait_for_load_state()
            assert spectator.url == tables[1].served.url
            browser.close()
    finally:
        for t in tables.values():
            t.close()
        site.stop()
        hub.stop()
