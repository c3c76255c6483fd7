"""The big screen from across the room, in a real browser: the spectator page in Russian by
default and in English with ?lang=en, every visible word from the catalogs, and at 1920x1080,
1280x720 and on a phone, with 20 referee flags and 20 camera flags raised, the move list still
shows at least the last six moves while the flag panels stay bounded and scroll."""

from __future__ import annotations

import re

import pytest

from tests.chromium import BROWSER_MARKS
from tests.webui.conftest import BEARER, FakePipeline, engine_game, wait_for

SIZES = {"1920x1080": (1920, 1080, False), "1280x720": (1280, 720, False), "phone": (390, 844, True)}
FLAGS = 20

pytestmark = BROWSER_MARKS


def flagged_game(players: list[str]) -> list[dict]:
    """A sport deal (SPT-9: 15 s a move) where every move took 20 s: the first events that raise
    FLAGS referee flags."""
    from engine.replay import replay_events

    events, t = [], 0
    for e in engine_game(seed=5, deals=1, variant="sport"):
        e = dict(e)
        rename = dict(zip(["Anna", "Boris", "Vera", "Gleb"], players, strict=True))
        if e["event"] == "game":
            e["players"] = players
            if e.get("pairs"):
                e["pairs"] = [[rename[p] for p in pair] for pair in e["pairs"]]
        elif e["event"] == "deal" and e.get("hands"):
            e["hands"] = {rename[p]: tiles for p, tiles in e["hands"].items()}
        elif e.get("player"):
            e["player"] = rename[e["player"]]
        if e["event"] in ("play", "pass"):
            t += 20
            e["time"] = t
        events.append(e)
        if e["event"] != "game" and len(replay_events(events)["flags"]) >= FLAGS:
            return events
    raise AssertionError("the deal raised too few flags")


def busy_table(make_app, serve, players: list[str]):
    fake = FakePipeline(auto_fps=4)
    app = make_app(PIPELINE=fake, PLAYERS=players)
    client = app.test_client()
    events = flagged_game(players)
    for e in events:
        assert client.post("/api/op/event", headers=BEARER, json=e).status_code == 200
    server = serve(app)
    for k in range(FLAGS):
        a, b = sorted((k % 7, 6 - k % 7))
        tile = f"{a}-{b}"
        fake.raise_flag("take-back" if k % 2 else "duplicate", f"camera flag {k}", "TAKE-BACK", tile, players[k % 4])
    return server, events


def visible_moves(page) -> int:
    """Rows of the move list wholly inside both the list's visible box and the window."""
    return page.evaluate("""() => {
        const ol = document.getElementById('moves'), box = ol.getBoundingClientRect();
        return [...ol.children].filter((li) => {
            const r = li.getBoundingClientRect();
            return r.height > 0 && r.top >= Math.max(box.top, 0) - 1 && r.bottom <= Math.min(box.bottom, innerHeight) + 1;
        }).length;
    }""")


@pytest.mark.parametrize("size", SIZES)
def test_the_move_list_shows_six_moves_with_twenty_flags_raised(make_app, serve, browser, size, tmp_path):
    width, height, phone = SIZES[size]
    server, events = busy_table(make_app, serve, ["Anna", "Boris", "Vera", "Gleb"])
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                                  device_scale_factor=2 if phone else 1)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        wait_for(lambda: page.locator("#moves li").count() == len(events) - 1)
        page.wait_for_selector("#flags-card:not([hidden])")
        page.wait_for_function("() => document.querySelectorAll('#live-flags li').length >= 10")
        assert page.locator("#flags li").count() == FLAGS
        if phone:
            page.locator(".moves-card").scroll_into_view_if_needed()
        else:  # the big screen does not scroll: everything is on it at once
            assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")
        shown = visible_moves(page)
        page.screenshot(path=str(tmp_path / f"spectator-{size}.png"))
        assert shown >= 6, f"only {shown} moves visible at {size}"
        newest = page.locator("#moves li").first.get_attribute("data-id")
        assert int(newest) == max(int(i) for i in page.locator("#moves li").evaluate_all("els => els.map(e => e.dataset.id)"))
        for card in ("#flags-card", "#live-flags-card"):
            box = page.locator(card).bounding_box()
            assert box["height"] <= 0.41 * height, f"{card} is {box['height']:.0f} px high at {size}"
            ul = page.locator(card + " ul")
            assert ul.evaluate("u => u.scrollHeight > u.clientHeight"), f"{card} should scroll at {size}"
    finally:
        context.close()


LATIN_ALLOWED = re.compile(r"^(dominocam|English|https?|[A-Z]+(-[A-Z0-9.]+)*)$")


def test_the_spectator_page_is_russian_by_default_every_word_from_the_catalog(make_app, serve, browser):
    server, _ = busy_table(make_app, serve, ["Анна", "Борис", "Вера", "Глеб"])
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#flags li")
        page.wait_for_selector("#live-flags li")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator(".moves-card h2").inner_text().lower() == "ходы"
        assert "Спортивное" in page.locator("#headline").inner_text()
        text = page.locator("body").inner_text()
        latin = {w for w in re.findall(r"[A-Za-z][A-Za-z0-9.\-]*", text) if not LATIN_ALLOWED.match(w)}
        url_words = set(re.findall(r"[A-Za-z][A-Za-z0-9.\-]*", server.url))
        assert latin <= url_words, f"English words on the Russian page: {sorted(latin - url_words)}"
        assert "SPT-9" in page.locator("#flags").inner_text()  # rule IDs stay as they are

        page.goto(server.url + "/?lang=en")
        page.wait_for_selector("#flags li")
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.locator(".moves-card h2").inner_text().lower() == "moves"
        assert "Sport (pairs)" in page.locator("#headline").inner_text()
        page.goto(server.url + "/")  # remembered
        page.wait_for_selector("#flags li")
        assert page.locator(".moves-card h2").inner_text().lower() == "moves"
    finally:
        context.close()


def test_the_english_page_has_no_russian_left(make_app, serve, browser):
    server, _ = busy_table(make_app, serve, ["Anna", "Boris", "Vera", "Gleb"])
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(server.url + "/?lang=en")
        page.wait_for_selector("#flags li")
        page.wait_for_selector("#live-flags li")
        text = page.locator("body").inner_text()
        russian = re.findall(r"[А-Яа-яЁё]+", text)
        assert russian == ["Русский"], f"Russian words on the English page: {russian}"  # only the switch
    finally:
        context.close()


def test_no_camera_shows_a_placeholder_not_a_broken_image(make_app, serve, browser):
    server = serve(make_app())  # served without a camera
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#video-off:not([hidden])")
        assert page.locator("#video-off-title").inner_text().lower() == "нет камеры"
        assert "судья" in page.locator("#video-off-text").inner_text()
        assert page.locator("#video").evaluate("img => getComputedStyle(img).visibility") == "hidden"
    finally:
        context.close()


def test_a_hand_not_counted_says_waiting_for_the_recount(make_app, serve, browser):
    app = make_app()
    client = app.test_client()
    events = engine_game(seed=3, deals=1, camera=True)
    for e in events:
        if e["event"] != "reveal":
            assert client.post("/api/op/event", headers=BEARER, json=e).status_code == 200
    waiting = client.get("/api/state").get_json()["waiting"]
    server = serve(app)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#scores li.waiting")
        for name in waiting:
            row = page.locator(f'#scores [data-player="{name}"]')
            assert row.locator(".deal-pts").inner_text().lower() == "ждём подсчёта"
            assert row.locator(".total").inner_text() == "?"
        assert page.locator("#scores li.waiting").count() == len(waiting)
    finally:
        context.close()


def test_the_referees_error_says_what_to_do_next_in_the_pages_language(make_app, serve, browser):
    from tests.webui.conftest import TOKEN

    server = serve(make_app())  # a game, no deal yet
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        op = context.new_page()
        op.goto(f"{server.url}/operator?token={TOKEN}&video=0")
        op.wait_for_selector("#link[data-state='up']")
        op.locator("#play-form [name=tile]").fill("3-5")
        op.locator("#play-form button[value=play]").click()
        op.wait_for_selector("#message.bad")
        assert "сначала нажмите «Следующая раздача»" in op.locator("#message").inner_text()
        op.goto(f"{server.url}/operator?lang=en&video=0")
        op.wait_for_selector("#link[data-state='up']")
        op.locator("#play-form [name=tile]").fill("3-5")
        op.locator("#play-form button[value=play]").click()
        op.wait_for_selector("#message.bad")
        assert "press Next deal first" in op.locator("#message").inner_text()
    finally:
        context.close()
