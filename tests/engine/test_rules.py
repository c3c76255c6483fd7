"""Rule sets: nine variants, overrides, and the options table of docs/guides/replay.md kept in sync with the code."""

from pathlib import Path

import pytest

from engine.rules import OPTIONS, VARIANTS, options_markdown, ruleset


def test_nine_variants_each_with_every_option():
    assert len(VARIANTS) == 9
    for v in VARIANTS:
        assert set(ruleset(v).options()) == set(OPTIONS)


def test_overrides_replace_one_option_and_check_values():
    assert ruleset("bykovo", target=150).target == 150
    assert ruleset("bykovo").target == 100
    with pytest.raises(ValueError, match="unknown option"):
        ruleset("bykovo", tagret=1)
    with pytest.raises(ValueError, match="must be one of"):
        ruleset("bykovo", passing="sometimes")
    with pytest.raises(ValueError, match="unknown variant"):
        ruleset("poker")


def test_replay_guide_table_lists_every_option_with_its_defaults():
    doc = (Path(__file__).parents[2] / "docs" / "guides" / "replay.md").read_text(encoding="utf-8")
    assert options_markdown() in doc


def test_undealt_tiles_are_what_the_deal_leaves_to_draw_from():
    assert ruleset("traditional").undealt(2) == 14  # TRAD: 7 each, the rest is the boneyard
    assert ruleset("traditional").undealt(4) == 0
    assert ruleset("blitz-blind").undealt(3) == 4  # BLB-1: 2-3 players get 8 tiles
    assert ruleset("bykovo").undealt(4) == 0  # BYK: all 28 dealt
    assert ruleset("blitz").undealt(5) == 0  # BLZ-1: the rest are out of play, no boneyard
    assert ruleset("traditional", hand_size={"2": 5}).undealt(2) == 18
