"""Russian and English: every string the code marks is in both catalogs, the committed .mo files
are the .po files compiled, pages switch with ?lang= and remember it, Russian by default."""

from __future__ import annotations

import re

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tests.webui.conftest import BEARER
from webui.catalogs import extract
from webui.i18n import CATALOGS, LANGS, gettext_for
from webui.phrases import ERROR_PHRASES, FLAG_PHRASES, error_text, flag_text


def extracted() -> set[str]:
    """Every marked message in the code, found as `make i18n` finds them."""
    return set(extract())


def catalog(lang: str):
    with open(CATALOGS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


@pytest.fixture(scope="module")
def messages() -> set[str]:
    found = extracted()
    assert len(found) > 200, "the extractor found too few messages: is babel.cfg's layout still right?"
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_translated(messages, lang):
    po = catalog(lang)
    missing = sorted(m for m in messages if not (po.get(m) and po.get(m).string))
    assert not missing, f"{lang} catalog lacks {len(missing)} string(s); run `make i18n` and translate: {missing[:5]}"
    fuzzy = sorted(m.id for m in po if m.id and m.fuzzy)
    assert not fuzzy, f"{lang} catalog has fuzzy entries (not used): {fuzzy[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_committed_mo_is_the_po_compiled(lang):
    po = {m.id: m.string for m in catalog(lang) if m.id}
    with open(CATALOGS / lang / "LC_MESSAGES" / "messages.mo", "rb") as f:
        mo = {m.id: m.string for m in read_mo(f) if m.id}
    assert mo == po, "the .mo is stale: run `make i18n` (pybabel compile)"


def test_russian_translations_keep_their_placeholders():
    for m in catalog("ru"):
        if m.id and isinstance(m.id, str):
            assert sorted(re.findall(r"%\(\w+\)s", m.id)) == sorted(re.findall(r"%\(\w+\)s", m.string)), m.id


def test_the_engines_sentences_are_translated_with_their_names_and_tiles():
    ru = gettext_for("ru")
    flag = {"rule": "BYK-1.8", "message": "Vera passed holding 3-5, which fits 5"}
    assert flag_text(flag, ru) == "Vera пропустил, имея 3-5, которая подходит к 5"
    unknown = {"rule": "XYZ-1", "message": "something the table does not know"}
    assert flag_text(unknown, ru) == "см. правило XYZ-1"
    message = '<events>:2: play before any deal event; add {"event": "deal"} first'
    assert "Следующая раздача" in error_text(message, ru)
    assert "press Next deal" in error_text(message, gettext_for("en"))
    assert len({p for p, _ in FLAG_PHRASES}) == len(FLAG_PHRASES) and ERROR_PHRASES


def test_pages_are_russian_by_default_and_switch_with_lang_remembered(client):
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="ru">' in page and "<h2>Ходы</h2>" in page
    english = client.get("/?lang=en")
    assert "lang=en" in english.headers["Set-Cookie"]
    assert "<h2>Moves</h2>" in english.get_data(as_text=True)
    again = client.get("/").get_data(as_text=True)  # the cookie remembers it
    assert '<html lang="en">' in again and "<h2>Moves</h2>" in again
    assert "<h2>Ходы</h2>" in client.get("/?lang=ru").get_data(as_text=True)


def test_serve_lang_sets_the_default(make_app):
    client = make_app(LANG="en").test_client()
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    with pytest.raises(ValueError, match="unknown language 'de'"):
        make_app(LANG="de")


def test_state_words_and_errors_follow_the_language(client):
    client.post("/api/op/event", headers=BEARER, json={"event": "deal"})
    ru = client.get("/api/state?lang=ru").get_json()
    en = client.get("/api/state?lang=en").get_json()
    assert (ru["variant_name"], en["variant_name"]) == ("Быковское", "Bykovo")
    assert (ru["camera"]["text"], en["camera"]["text"]) == ("нет камеры", "no camera")
    bad = client.post("/api/op/play?lang=ru", headers=BEARER, json={"player": "Nobody", "tile": "1-1"})
    assert bad.status_code == 400
    assert bad.get_json()["error"] == "Nobody не играет в этой партии: выберите игрока из списка."


def test_an_error_before_the_first_deal_says_to_press_next_deal(make_app):
    client = make_app().test_client()
    for lang, words in (("ru", "«Следующая раздача»"), ("en", "press Next deal")):
        r = client.post(f"/api/op/play?lang={lang}", headers=BEARER, json={"player": "Anna", "tile": "1-1"})
        assert r.status_code == 400 and words in r.get_json()["error"]


def test_every_flag_the_engine_raises_in_played_games_has_its_words():
    """Engine-played games of every variant, each with one event altered (another player, another
    tile, a slow move): every flag sentence the engine writes is known to the phrase table."""
    import random

    from engine.replay import replay_events
    from engine.rules import VARIANTS
    from engine.simulate import random_game
    from webui.phrases import say

    rng = random.Random(1)
    ru = gettext_for("ru")
    unknown, seen = set(), 0
    for variant in VARIANTS:
        for seed in range(3):
            events = random_game(variant, seed=seed, deals=2, camera=bool(seed % 2))
            for _ in range(6):
                altered = [dict(e) for e in events]
                i = rng.randrange(2, len(altered))
                e = altered[i]
                if e.get("player"):
                    e["player"] = rng.choice(altered[0]["players"])
                if e["event"] == "play":
                    if rng.random() < 0.5:
                        e["tile"] = f"{rng.randrange(7)}-{rng.randrange(7)}"
                    e["time"] = 100.0 * i
                try:
                    flags = replay_events(altered)["flags"]
                except ValueError:  # an altered event the record refuses outright (not a flag)
                    continue
                seen += len(flags)
                unknown |= {f["message"] for f in flags if say(FLAG_PHRASES, f["message"], ru) is None}
    assert seen > 100
    assert not unknown, f"flag sentences without words in webui/phrases.py: {sorted(unknown)[:5]}"
