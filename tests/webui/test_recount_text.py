"""recount's words: who won and why, points only when every hand is known, impossible counts
refused in plain words, Russian by default and English on request."""

from __future__ import annotations

import json

import pytest

from engine.replay import replay_events
from engine.simulate import random_game
from engine.tiles import Tile
from vision.read.recount import Recount, SeatHand
from webui.recount_text import recount_report

SEATS = ["south", "west", "north", "east"]


def ended_deal(end: str) -> tuple[list[dict], dict[str, list[str]]]:
    """An engine-played bykovo deal that ended in `end`: its record without reveals, and the hands."""
    for seed in range(200):
        events = random_game("bykovo", seed=seed, deals=1, camera=True)
        if replay_events(events)["deals"][0]["end"] == end:
            hands = {e["player"]: e["tiles"] for e in events if e["event"] == "reveal"}
            return [e for e in events if e["event"] != "reveal"], hands
    raise AssertionError(f"no engine deal ended in {end}")


def recount_of(record, hands: dict[str, list[str]], unread: dict[str, int] | None = None) -> Recount:
    """What vision.read.recount returns for these hands (the engine scores the reveals)."""
    players = record[0]["players"]
    seat_hands = [SeatHand(seat, p, [Tile.parse(t) for t in hands.get(p, [])], unread=(unread or {}).get(p, 0))
                  for seat, p in zip(SEATS, players, strict=True)]
    events = record + [{"event": "reveal", "player": h.player, "tiles": [str(t) for t in h.tiles]} for h in seat_hands]
    result = replay_events(events)
    return Recount(seat_hands, result, result["deals"][-1])


def test_a_fish_names_the_winner_and_the_points_follow():
    record, hands = ended_deal("fish")
    rc = recount_of(record, hands)
    players = record[0]["players"]
    report = recount_report(rc, "bykovo", players, record, sum(map(len, hands.values())), lang="ru")
    text = "\n".join(report.lines)
    winner = rc.deal["winner"]
    assert f"рыба: {winner} положил последнюю кость и выиграл" in text
    assert "победитель получает 0" in text
    assert report.final and "Очки: " in text
    for player, points in rc.deal["points"].items():
        assert f"{player} {points}" in text


def test_a_hand_not_seen_is_waiting_for_the_recount_never_zero():
    record, hands = ended_deal("out")
    players = record[0]["players"]
    holder = next(p for p in players if hands[p])  # a player still holding tiles, hidden under an arm
    hands = dict(hands, **{holder: []})
    report = recount_report(recount_of(record, hands), "bykovo", players, record, 10, lang="ru")
    text = "\n".join(report.lines)
    assert report.waiting == [holder] and not report.final
    line = next(x for x in report.lines if f" {holder}:" in x)
    assert "ждём подсчёта" in line and "0" not in line.split(":", 1)[1]
    assert "Очки: ждём подсчёта" in text
    winner = next(p for p in players if not hands[p] and p != holder)
    assert f"{winner}: пустая рука = 0 очков" in text  # the one who went out is known to hold nothing


def test_impossible_counts_are_refused_in_plain_words():
    record, hands = ended_deal("out")
    players = record[0]["players"]
    big = [f"{a}-{b}" for a in range(7) for b in range(a, 7)][:11]
    hands = {players[0]: big, players[1]: ["2-6", "2-6"]}
    report = recount_report(recount_of(record, hands), "bykovo", players, record, 33, lang="en")
    text = "\n".join(report.lines)
    assert not report.final and "no points are given" in text and "Points:" not in text
    assert f"{players[0]} has 11 tiles, but a hand holds at most 7 here" in text
    assert "33 tiles are on the photo, but a set has only 28" in text
    assert f"2-6 is read twice in {players[1]}'s hand" in text
    assert f"{players[1]}'s and {players[1]}'s" not in text


def test_without_a_record_the_end_is_said_to_be_unknown():
    players = ["South", "West", "North", "East"]
    hands = {"South": ["1-2"], "West": ["3-3"], "North": ["0-1"], "East": ["4-5"]}
    record = [{"event": "game", "variant": "bykovo", "players": players, "options": {}}, {"event": "deal"}]
    rc = recount_of(record, hands)
    english = recount_report(rc, "bykovo", players, None, 4, lang="en")
    text = "\n".join(english.lines)
    assert "not known without the game record" in text
    assert "  south South: 1-2 = 3 pips" in english.lines
    assert not english.final and "the points are not given" in text  # no winner: no made-up 0
    assert "North 0" not in text


@pytest.mark.parametrize("lang,word", [("ru", "не прочитано"), ("en", "not read")])
def test_unread_tiles_make_a_hand_wait(lang, word):
    players = ["South", "West", "North", "East"]
    record = [{"event": "game", "variant": "bykovo", "players": players, "options": {}}, {"event": "deal"}]
    hands = {"South": ["1-2"], "West": ["3-3"], "North": ["0-1"], "East": ["4-5"]}
    report = recount_report(recount_of(record, hands, unread={"West": 2}), "bykovo", players, None, 6, lang=lang)
    assert report.waiting == ["West"]
    assert word in next(x for x in report.lines if " West:" in x)


def test_the_recount_command_prints_the_words_and_refuses_an_impossible_count(tmp_path, capsys):
    """`dominocam recount` on a rendered recount photo (the renderer's boxes): Russian by default,
    every hand with its pips, no points without the record; a second copy of the photo side by side
    (every tile twice, more than 28) is refused with exit status 1."""
    import cv2
    import numpy as np

    from dominocam.cli import main
    from vision.synth.camera import encode_jpeg
    from vision.synth.dataset import image_rng
    from vision.synth.scene import render_scene

    r = render_scene(image_rng(6, 59), (1280, 960))
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(encode_jpeg(r.image, r.jpeg_quality))
    (tmp_path / "photo.json").write_text(json.dumps(r.truth("photo.jpg")))
    assert main(["recount", str(photo), "--truth-boxes", "--players", "Анна,Борис,Вера,Глеб"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Подсчёт · Быковское\n")
    assert len([line for line in out.splitlines() if line.endswith(" очков")]) == 4
    assert "неизвестно, кто выиграл, поэтому очки не даются" in out

    truth = r.truth("twice.jpg")
    w = truth["size"][0]
    both = np.concatenate([r.image, r.image], axis=1)
    for t in list(truth["tiles"]):  # the same tiles again in the right half
        copy = json.loads(json.dumps(t))
        for key in ("halves", "corners", "quad", "box"):
            if key in copy and isinstance(copy[key], list):
                copy[key] = [[x + w, y] for x, y in copy[key]]
        truth["tiles"].append(copy)
    truth["size"] = [2 * w, truth["size"][1]]
    twice = tmp_path / "twice.jpg"
    cv2.imwrite(str(twice), both)
    (tmp_path / "twice.json").write_text(json.dumps(truth))
    code = main(["recount", str(twice), "--truth-boxes", "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "This count cannot be right, so no points are given:" in out
    assert "a set has only 28" in out
