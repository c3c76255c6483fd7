"""Browser test (issue 24): a tile the rules doubt, held by the real live pipeline (its
ConfirmQueue, on pictures through the motion gate), is on the Russian operator page as a tile to
confirm within a second, and one click resolves it: Подтвердить, Исправить (the picker), Не фишка.
Playwright drives Debian's chromium as in test_browser.py."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from tests.chromium import BROWSER_MARKS
from tests.webui.conftest import TOKEN, wait_for
from tests.webui.doubtful import doubtful_pipeline

pytestmark = BROWSER_MARKS


def record(url: str) -> list[dict]:
    body = urllib.request.urlopen(url + "/api/record", timeout=5).read().decode()
    return [json.loads(line) for line in body.splitlines()]


@pytest.mark.parametrize("action", ["confirm", "correct", "dismiss"])
def test_a_doubtful_tile_is_to_confirm_within_a_second_and_one_click_resolves_it(make_app, serve, browser, action):
    gate = threading.Event()
    pipe = doubtful_pipeline(tail_s=30.0, realtime=True, gate=gate)
    server = serve(make_app(PIPELINE=pipe))
    context = browser.new_context(viewport={"width": 1600, "height": 900})
    try:
        op = context.new_page()
        op.goto(f"{server.url}/operator?token={TOKEN}&video=0")  # Russian, the default
        op.wait_for_selector("#link[data-state='up']", timeout=5000)
        assert op.locator("#confirm-card").is_hidden()
        gate.set()  # the camera starts: Anna opens with 0-0, Boris lays a tile read as 1-2 against it
        wait_for(pipe.to_confirm, timeout=30, interval=0.01)
        held_at = time.monotonic()
        op.wait_for_selector("#to-confirm li[data-tile='1-2']", timeout=1000)
        assert time.monotonic() - held_at < 1.0
        item = op.locator("#to-confirm li")
        assert item.count() == 1
        text = item.inner_text()
        assert "не подходит ни к одному открытому концу" in text and "BYK-1.6" in text
        assert "Boris" in text and "к 0-0" in text
        op.wait_for_function("() => document.querySelector('#to-confirm img').naturalWidth > 0", timeout=5000)
        assert [e["tile"] for e in record(server.url) if e["event"] == "play"] == ["0-0"]

        if action == "confirm":
            item.locator("button", has_text="Подтвердить").click()
        elif action == "correct":
            item.locator("button", has_text="Исправить").click()
            item.locator(".picker-row[data-half='0'] button[data-value='0']").click()
            item.locator("button", has_text="Записать 0-2").click()
        else:
            item.locator("button", has_text="Не фишка").click()
        op.wait_for_selector("#to-confirm li", state="detached", timeout=1000)
        expected = {"confirm": ["0-0", "1-2"], "correct": ["0-0", "0-2"], "dismiss": ["0-0"]}[action]
        op.wait_for_function(f"() => document.querySelectorAll('#moves li.move-play').length === {len(expected)}",
                             timeout=1000)
        newest = op.locator("#moves li.move-play").first.inner_text().replace("\n", " ")
        assert ("Boris" in newest) == (action != "dismiss")
        plays = [e for e in record(server.url) if e["event"] == "play"]
        assert [e["tile"] for e in plays] == expected
        if action != "dismiss":
            assert plays[-1] == {"event": "play", "player": "Boris", "tile": expected[-1], "to": "0-0"}
        said = op.locator("#message").inner_text()
        assert said.startswith("Не фишка: 1-2") if action == "dismiss" else f"{expected[-1]} записана" in said
        time.sleep(0.5)  # the tile still lies there: it must not come back as a new one
        assert op.locator("#to-confirm li").count() == 0 and op.locator("#confirm-card").is_hidden()
        assert pipe.to_confirm() == []
    finally:
        gate.set()
        context.close()
