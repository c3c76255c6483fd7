"""`dominocam eval --matrix`: one row per look, each look's scenes rendered once and reused."""

from __future__ import annotations

import json

from dominocam.cli import main


def test_the_matrix_prints_a_row_per_look_and_reuses_its_scenes(tmp_path, capsys):
    argv = ["eval", "--matrix", "--looks", "baseline,six_across", "--matrix-images", "2", "--matrix-size", "640x480",
            "--truth-boxes", "--matrix-root", str(tmp_path / "m"), "--out", str(tmp_path / "out")]
    assert main(argv) == 0
    table = capsys.readouterr().out
    assert "| baseline | 2 |" in table and "| six_across | 2 |" in table
    rows = json.loads((tmp_path / "out" / "matrix.json").read_text())["rows"]
    assert [r["look"] for r in rows] == ["baseline", "six_across"]
    assert all(0 <= r["recall"] <= 100 and r["phantom_tiles_per_image"] is not None for r in rows)
    stamp = tmp_path / "m" / "640x480" / "six_across" / "look.json"
    before = stamp.stat().st_mtime_ns
    assert main(argv) == 0  # the second run renders nothing
    assert stamp.stat().st_mtime_ns == before


def test_an_unknown_look_is_refused_with_the_names(capsys):
    assert main(["eval", "--matrix", "--looks", "chrome"]) == 2
    err = capsys.readouterr().err
    assert "chrome" in err and "six_across" in err


def test_eval_needs_data_or_the_matrix(capsys):
    assert main(["eval"]) == 2
    assert "--matrix" in capsys.readouterr().err
