"""`dominocam tournament replay FILE`: the issue's contract and its error paths."""

from __future__ import annotations

import json

import pytest

DECL = {"event": "tournament", "format": "bykovo-micro",
        "players": ["P1", "P2", "P3", "P4", "P5", "P6", "P7"], "first": ["P1", "P2", "P3", "P4"], "seed": 7}
RESULT = {"event": "result", "points": {"P1": 0, "P2": 12, "P3": 7, "P4": 20},
          "places": {"P1": 1, "P2": 3, "P3": 2, "P4": 4}}


def test_replay_prints_the_contract_keys(tmp_path, cli, write_record):
    path = write_record(tmp_path / "event.jsonl", [DECL, RESULT])
    code, out, err = cli("tournament", "replay", str(path))
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "bykovo-micro" and data["limit"] == 50
    (deal,) = data["deals"]
    assert deal["number"] == 1
    assert deal["seated"] == ["P1", "P2", "P3", "P4"]
    assert deal["sitting_out"] == ["P5", "P6", "P7"]
    assert deal["totals"] == {"P1": 0, "P2": 12, "P3": 7, "P4": 20, "P5": 0, "P6": 0, "P7": 0}
    assert deal["eliminated"] == []
    assert data["next_seated"] == ["P4", "P5", "P6", "P7"]
    assert data["finished"] is False and data["places"] == {}


def test_replay_without_first_draws_by_lot_from_the_seed(tmp_path, cli, write_record):
    decl = {k: v for k, v in DECL.items() if k != "first"}
    path = write_record(tmp_path / "event.jsonl", [decl])
    outs = {cli("tournament", "replay", str(path))[1] for _ in range(2)}
    assert len(outs) == 1
    data = json.loads(outs.pop())
    assert data["lots"][0]["rule"] == "BYK-2.3"
    assert sorted(data["next_seated"]) == sorted(data["lots"][0]["drawn"])


@pytest.mark.parametrize(
    ("lines", "where", "message"),
    [
        ([DECL, {"event": "result", "points": {"P1": 0, "P2": 1, "P3": 2, "P9": 3}}], ":2:", "unknown player 'P9'"),
        ([DECL, {"event": "result", "points": {"P1": 0, "P2": 1, "P3": 2, "P5": 3}}], ":2:", "P5 sits out"),
        ([DECL, RESULT, RESULT], ":3:", "P1 sits out"),
        ([DECL, '{"event": "result", "points": '], ":2:", "not valid JSON"),
        ([DECL, "[1, 2]"], ":2:", "JSON object"),
        ([{**DECL, "players": DECL["players"] + ["P8"]}], ":1:", "4 to 7 players"),
        ([{**DECL, "format": "swiss"}], ":1:", "unknown tournament format"),
        ([{**DECL, "seed": "x"}], ":1:", '"seed" must be an integer'),
        ([RESULT], ":1:", "first line must declare the event"),
        ([{"event": "tournament", "format": "baltic-rally", "players": [f"B{i}" for i in range(16)], "seed": 1},
          {"event": "result", "table": "S-1", "points": {"B1": 3}}], ":2:", "no table 'S-1'"),
        ([{"event": "tournament", "format": "sport-pairs", "tables": {"1": ["A", "B", "C", "D"]}, "deals": 2},
          {"event": "result", "table": "2", "penalty": "A"}], ":2:", "no table '2'"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_file_and_line(tmp_path, cli, write_record, lines, where, message):
    path = write_record(tmp_path / "bad.jsonl", lines)
    code, out, err = cli("tournament", "replay", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}{where}" in err and message in err


def test_missing_file_exits_2(tmp_path, cli):
    code, out, err = cli("tournament", "replay", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1


def test_start_and_add_drive_an_event_from_the_command_line(tmp_path, cli):
    path = tmp_path / "club.jsonl"
    code, out, _ = cli("tournament", "start", str(path), json.dumps(DECL))
    assert code == 0 and json.loads(out)["next_seated"] == ["P1", "P2", "P3", "P4"]
    code, out, _ = cli("tournament", "add", str(path), json.dumps(RESULT))
    assert code == 0 and json.loads(out)["next_seated"] == ["P4", "P5", "P6", "P7"]
    before = path.read_bytes()
    code, _, err = cli("tournament", "add", str(path), json.dumps(RESULT))
    assert code == 2 and ":3: P1 sits out" in err
    assert path.read_bytes() == before  # a rejected line is never written
    code, _, err = cli("tournament", "start", str(path), json.dumps(DECL))
    assert code == 2 and "already exists" in err


def test_sport_replay_with_now_shows_the_timer(tmp_path, cli, write_record):
    path = write_record(tmp_path / "sport.jsonl", [
        {"event": "tournament", "format": "sport-pairs", "tables": {"1": ["A", "B", "C", "D"]}, "deals": 2},
        {"event": "turn", "table": "1", "player": "A", "at": 50.0},
    ])
    code, out, _ = cli("tournament", "replay", str(path), "--now", "66")
    assert code == 0 and json.loads(out)["tables"][0]["timer"]["alert"] is True
