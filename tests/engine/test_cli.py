"""`dominocam replay` and `dominocam demo` through the CLI: the output contract and bad input
(exit 2, one stderr line naming the file and line, no traceback)."""

import json
import subprocess
import sys

import pytest

from dominocam.cli import main
from engine.record import dumps_event, parse_event, read_record
from engine.simulate import random_game

GAME = '{"event": "game", "variant": "bykovo", "players": ["Anna", "Boris", "Vera", "Gleb"], "options": {}}'
GOOD = [GAME, '{"event": "deal"}', '{"event": "play", "player": "Anna", "tile": "0-0"}',
        '{"event": "play", "player": "Boris", "tile": "5-3", "to": "0-0"}']


def write(tmp_path, lines, name="game.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_prints_the_contract_keys_and_flags_with_line_numbers(tmp_path, capsys):
    path = write(tmp_path, GOOD)
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("variant", "flags", "deals", "totals", "finished", "loser", "standings", "layout", "to_move"):
        assert key in out
    assert out["flags"] == [{"event": 3, "rule": "BYK-1.6", "player": "Boris", "message": "5-3 does not fit 0"}]
    deal = out["deals"][0]
    assert set(deal) >= {"number", "opener", "end", "winner", "places", "pips", "points"}
    assert deal["opener"] == "Anna" and deal["end"] == "unfinished"


BAD = [
    ('{"event": "play", "player": "Anna", "tile": "0-0"', "not JSON"),
    ('{"event": "play", "player": "Anna", "tile": "7-2"}', "unknown tile '7-2'"),
    ('{"event": "play", "player": "Zoe", "tile": "0-0"}', "unknown player 'Zoe'"),
    ('{"event": "jump", "player": "Anna"}', "unknown event 'jump'"),
    ('{"event": "play", "player": "Anna"}', "lacks tile"),
    ('{"event": "play", "player": "Anna", "tile": "0-0", "too": "1-1"}', "unknown key(s) too"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_bad_line_exits_2_naming_file_and_line(tmp_path, capsys, line, message):
    lines = GOOD[:3] + [line] + GOOD[3:]
    path = write(tmp_path, lines)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing is printed past a bad line
    err = captured.err.strip()
    assert "\n" not in err and f"{path}:4:" in err and message in err


def test_unknown_variant_and_option_exit_2_on_line_1(tmp_path, capsys):
    path = write(tmp_path, [GAME.replace("bykovo", "poker")])
    assert main(["replay", str(path)]) == 2
    assert f"{path}:1: unknown variant 'poker'" in capsys.readouterr().err
    path = write(tmp_path, [GAME.replace('"options": {}', '"options": {"targte": 5}')])
    assert main(["replay", str(path)]) == 2
    assert "unknown option 'targte'" in capsys.readouterr().err


def test_missing_file_and_empty_file_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl: no such file" in capsys.readouterr().err
    assert main(["replay", str(write(tmp_path, [""]))]) == 2
    assert "empty record" in capsys.readouterr().err


def test_blank_line_in_the_middle_is_bad_input(tmp_path, capsys):
    assert main(["replay", str(write(tmp_path, GOOD[:2] + [""] + GOOD[2:]))]) == 2
    assert ":3: blank line" in capsys.readouterr().err


def test_strict_mode_rejects_the_first_broken_rule_with_exit_1(tmp_path, capsys):
    path = write(tmp_path, GOOD)
    assert main(["replay", "--strict", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"{path}:4: BYK-1.6: 5-3 does not fit 0")


def test_bad_input_through_the_console_script_has_no_traceback(tmp_path):
    path = write(tmp_path, GOOD[:2] + ['{"event": "play", "player": "Anna", "tile": "7-2"}'])
    proc = subprocess.run([sys.executable, "-m", "dominocam", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_demo_replays_the_bundled_sample(capsys):
    assert main(["demo"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "bykovo" and out["flags"] == [] and len(out["deals"]) == 2
    assert all(d["end"] in ("out", "fish", "sortir") for d in out["deals"])


def test_record_round_trips_through_text(tmp_path):
    events = random_game("spider", seed=5, players=3, deals=1)
    lines = [dumps_event(e) for e in events]
    assert [parse_event(line, i) for i, line in enumerate(lines)] == events
    assert read_record(write(tmp_path, lines)) == events
