"""Browser tests: Playwright for Python driving Debian's chromium (headless; `make browser`
installs it). Pages are served by waitress exactly as `dominocam serve` does."""

from __future__ import annotations

import time

import pytest

from engine.replay import replay_events
from tests.chromium import BROWSER_MARKS
from tests.webui.conftest import BEARER, TOKEN, FakePipeline, engine_game, wait_for
from webui.record_source import RecordPipeline

pytestmark = BROWSER_MARKS


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 900})
    yield context.new_page()
    context.close()


def moves_on(page) -> int:
    return page.locator("#moves li").count()


def test_spectator_page_shows_video_and_follows_a_whole_deal(make_app, serve, page):
    events = engine_game(seed=31, deals=1)
    # 0.25 s a move: the deal lasts about 7 s, so a page that takes a few seconds to load on a
    # busy machine still sees the list grow (at 0.08 s a move, a clean clone's run beside two
    # evaluations saw only 19, 21, 24 and 27 moves)
    pipe = RecordPipeline(events, pace_s=0.25, fps=12, name="test deal")
    server = serve(make_app(PIPELINE=pipe))
    page.goto(server.url + "/?lang=en")
    page.wait_for_function("() => document.getElementById('video').naturalWidth > 0", timeout=5000)
    seen = set()
    end = time.monotonic() + 20
    while time.monotonic() < end and page.locator("#banner").is_hidden():
        seen.add(moves_on(page))
        time.sleep(0.1)
    assert len(seen) >= 5, f"the move list never grew step by step: {sorted(seen)}"
    expected = replay_events(events)
    wait_for(lambda: moves_on(page) == len(events) - 1)
    for player, total in expected["totals"].items():
        assert page.locator(f'#scores [data-player="{player}"] .total').inner_text() == str(total)
    assert any(expected["totals"].values()), "the deal should change the scores"
    assert page.locator("#camera").get_attribute("data-state") in ("live", "ended")
    assert page.locator("#banner-title").inner_text()  # DOMINO! / РЫБА / СОРТИР


def test_an_operator_correction_reaches_a_spectator_page_within_a_second(make_app, serve, browser, page):
    app = make_app()
    events = engine_game(seed=32, deals=1)
    client = app.test_client()
    ids = [client.post("/api/op/event", headers=BEARER, json=e).get_json()["id"] for e in events[:6]]
    server = serve(app)
    page.goto(server.url + "/?video=0&lang=en")
    wait_for(lambda: moves_on(page) == 5)

    operator_context = browser.new_context()
    try:
        op = operator_context.new_page()
        op.goto(f"{server.url}/operator?token={TOKEN}&lang=en")
        op.locator(f'#moves li[data-id="{ids[4]}"] button:has-text("Fix")').click()
        op.fill("#correct-form [name=tile]", "6-6")
        started = time.monotonic()
        op.click("#correct-form button[type=submit]")
        page.wait_for_selector(f'#moves li[data-id="{ids[4]}"] .badge-fix', timeout=1000)
        elapsed = time.monotonic() - started
        assert elapsed < 1.0
        assert "6 6" in page.locator(f'#moves li[data-id="{ids[4]}"]').inner_text().replace("\n", " ")
        op.click("#undo-last")
        page.wait_for_function("() => document.querySelectorAll('#moves li').length === 4", timeout=1000)
    finally:
        operator_context.close()


def test_a_take_back_flag_reaches_operator_and_spectator_pages_within_a_second(make_app, serve, browser, page):
    """pipeline.flags() pushed over SSE: the operator sees every flag with its ID, spectators the
    take-back in plain words; a misread is for the operator only."""
    fake = FakePipeline(auto_fps=None)
    app = make_app(PIPELINE=fake)
    events = engine_game(seed=35, deals=1)
    client = app.test_client()
    for e in events[:5]:
        client.post("/api/op/event", headers=BEARER, json=e)
    played = next(e for e in events[:5] if e["event"] == "play")
    server = serve(app)
    page.goto(server.url + "/?video=0&lang=en")
    wait_for(lambda: moves_on(page) == 4)
    operator_context = browser.new_context()
    try:
        op = operator_context.new_page()
        op.goto(f"{server.url}/operator?token={TOKEN}&video=0&lang=en")
        op.wait_for_selector("#link[data-state='up']", timeout=5000)
        page.wait_for_selector("#link[data-state='up']", timeout=5000)
        started = time.monotonic()
        fake.raise_flag("take-back", f"{played['tile']} (played by {played['player']}) has left the layout: "
                        "a take-back? Undo the move on /operator, or put the tile back.", "TAKE-BACK",
                        played["tile"], played["player"])
        page.wait_for_selector("#live-flags li[data-kind='take-back']", timeout=1000)
        op.wait_for_selector("#live-flags li[data-kind='take-back']", timeout=1000)
        assert time.monotonic() - started < 1.0
        shown = page.locator("#live-flags li").inner_text()
        assert shown.startswith("TAKE-BACK")
        assert f"{played['player']} took back {played['tile']}" in shown
        assert "undo the move or leave it" in op.locator("#live-flags li").inner_text()
        assert "Undo the move on /operator" in op.locator("#live-flags li").get_attribute("title")

        fake.raise_flag("misread", "3-4 is read where 3-5 was played", "MISREAD", "3-4", played["player"])
        op.wait_for_selector("#live-flags li[data-kind='misread']", timeout=1000)
        time.sleep(0.3)  # the spectator page had the same state push: it must still show one flag
        assert page.locator("#live-flags li").count() == 1
    finally:
        operator_context.close()


def test_a_page_that_reconnects_gets_the_events_it_missed(make_app, serve, page, tmp_path):
    first_app = make_app()
    client = first_app.test_client()
    events = engine_game(seed=33, deals=1)
    for e in events[:4]:
        client.post("/api/op/event", headers=BEARER, json=e)
    first = serve(first_app)
    port = first.port
    page.goto(first.url + "/?video=0&lang=en")
    wait_for(lambda: moves_on(page) == 3)
    first.stop()  # the server goes away (restart, network cut)
    page.wait_for_selector('#link[data-state="down"]', timeout=5000)
    first_app.extensions["dominocam"].close()

    second_app = make_app()  # the same journal file, as after a restart
    missed = [second_app.extensions["dominocam"].hub.append(e, "camera").id for e in events[4:7]]
    serve(second_app, port=port)
    page.wait_for_selector('#link[data-state="up"]', timeout=10000)
    wait_for(lambda: moves_on(page) == 6, timeout=5)
    received = page.evaluate("() => DominoLive.received")
    assert received[-3:] == missed
    assert page.locator("#toast").inner_text() == "Reconnected: events caught up: 3"


def test_stepping_back_and_returning_to_live(make_app, serve, page):
    app = make_app()
    client = app.test_client()
    events = engine_game(seed=34, deals=1)
    for e in events[:8]:
        client.post("/api/op/event", headers=BEARER, json=e)
    server = serve(app)
    page.goto(server.url + "/?video=0&lang=en")
    wait_for(lambda: moves_on(page) == 7)
    for player in events[0]["players"]:  # tiles still in hand: 7 (BYK-1.3) minus the plays so far
        plays = sum(1 for e in events[:8] if e["event"] == "play" and e["player"] == player)
        assert page.locator(f'#scores [data-player="{player}"] .hand i').count() == 7 - plays
    page.click("#prev")
    page.click("#prev")
    page.wait_for_selector("#history-bar:not([hidden])")
    # Each step fetches the past state; the bar shows after the first one has come back.
    page.wait_for_function("() => document.querySelectorAll('#moves li.future').length === 2",
                           timeout=2000)
    expected = replay_events(events[:6])
    assert page.locator("#deal-state").inner_text().endswith(f"{expected['to_move']} to play")
    page.click("#back-to-live")
    page.wait_for_selector("#history-bar[hidden]", state="attached")
    assert page.locator("#moves li.future").count() == 0


@pytest.mark.slow
def test_the_demo_source_plays_a_whole_deal_on_the_spectator_page(make_app, serve, page, caplog):
    """`dominocam serve`'s default source: the live pipeline on the rendered demo deal (rendered
    once into datasets/cache/demo, about a minute on a fresh clone), or its recorded fallback."""
    import json
    import urllib.request

    from webui.source_pipeline import pipeline_for_source

    pipeline = pipeline_for_source("demo", variant="bykovo", players=["North", "East", "South", "West"], pace_s=0.3)
    server = serve(make_app(PIPELINE=pipeline))
    page.goto(server.url + "/?lang=en")
    page.wait_for_function("() => document.getElementById('video').naturalWidth > 0", timeout=15000)
    def scored() -> bool:  # the deal is over and the recount has been read
        state = json.loads(urllib.request.urlopen(server.url + "/api/state", timeout=5).read())
        return any((state.get("totals") or {}).values())

    seen = set()
    end = time.monotonic() + 150
    while time.monotonic() < end and not scored():
        seen.add(moves_on(page))
        time.sleep(0.2)
    assert scored(), "the demo deal was not played and scored within 150 s"
    assert len(seen) >= 5, f"the move list never grew step by step: {sorted(seen)}"
    assert page.locator("#banner").is_visible()  # DOMINO! / РЫБА / СОРТИР
    record = [json.loads(line) for line in
              urllib.request.urlopen(server.url + "/api/record", timeout=5).read().decode().splitlines()]
    expected = replay_events(record)
    wait_for(lambda: all(
        page.locator(f'#scores [data-player="{p}"] .total').inner_text() == str(t)
        for p, t in expected["totals"].items()))


def test_a_recount_photo_fills_the_hands_and_shows_what_to_check(make_app, serve, browser, monkeypatch, tmp_path):
    """The reader's warnings (a face-down tile to turn up) and the boneyard it left out reach the
    operator, who confirms the hands."""
    import cv2
    import numpy as np

    import webui.recount_photo as recount

    def reader(image, players, variant, record=None, seats=None):
        return {"hands": {players[0]: ["6-6", "2-4"], players[1]: ["0-1"]}, "pips": {},
                "warnings": [f"north ({players[1]}): 1 tile(s) lie face down; turn them up"], "boneyard": 5}

    monkeypatch.setattr(recount, "_reader", lambda: reader)
    app = make_app()
    events = engine_game(seed=32, deals=1)
    client = app.test_client()
    for e in events[:2]:
        client.post("/api/op/event", headers=BEARER, json=e)
    players = events[0]["players"]
    photo = tmp_path / "hands.png"
    cv2.imwrite(str(photo), np.full((40, 60, 3), 200, np.uint8))
    server = serve(app)
    context = browser.new_context()
    try:
        op = context.new_page()
        op.goto(f"{server.url}/operator?token={TOKEN}&lang=en")
        op.set_input_files("#recount-photo", str(photo))
        op.wait_for_function("() => !document.getElementById('message').hidden", timeout=5000)
        message = op.locator("#message").inner_text()
        assert "turn them up" in message and "taken for the boneyard: 5" in message and "boneyard" in message
        assert "bad" in op.locator("#message").get_attribute("class")
        # (the hands are filled after the message shows: under load, a moment later)
        op.wait_for_function(f"() => document.querySelector('[name=\"hand:{players[0]}\"]').value !== ''",
                             timeout=5000)
        assert op.input_value(f'[name="hand:{players[0]}"]') == "6-6 2-4"
        assert op.input_value(f'[name="hand:{players[1]}"]') == "0-1"
    finally:
        context.close()
