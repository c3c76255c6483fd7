"""Rule sets: one per variant, composed from options; every option names the rule it comes from.

`ruleset("bykovo", target=150)` returns the bykovo rules with one house rule changed. Options a
club may change are the fields of `RuleSet`; `OPTIONS` describes each one and the values it takes.
Rule IDs are those of RULES.md; `TRAD` marks a default from its "Traditional scoring" section.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

VARIANTS = ("bykovo", "sport", "traditional", "blitz", "blitz-blind", "dark", "sevastopol", "spider", "baltic")

# option -> (allowed values or a type, what it means)
OPTIONS: dict[str, tuple[object, str]] = {
    "players": ("[min, max]", "number of players"),
    "hand_size": ("{players: tiles}", "tiles dealt to each player, by number of players"),
    "boneyard": ((True, False), "undealt tiles can be drawn (else they are out of play)"),
    "removed": (int, "tiles taken out of a non-empty boneyard unseen"),
    "draw": (("until_fits", "one_after_miss"), "how a player draws: until a tile fits, or one tile after a miss"),
    "opening": (("0-0", "1-1", "6-6", "lowest", "highest", "any"), "the first deal's opening tile"),
    "later_opening": (("same", "winner", "left_of_opener"), "who opens later deals (with any tile unless 'same')"),
    "passing": (("voluntary", "forced"), "may a player pass while holding a fitting tile"),
    "pass_circles": (int, "full circles of passes that end a deal when passes prove nothing"),
    "multi": (("one", "any", "doubles", "all_or_one", "revealed"), "tiles a player may lay in one turn"),
    "rows": ((True, False), "hands are face-down rows played from the right end"),
    "reveal_at": (int, "a row of this many tiles is turned face up"),
    "arms": (("line", "cross_opening", "cross_first_closed"), "two arms, four from the opening double, or a cross at the first closed double"),
    "face_down": ((True, False), "a double may be laid face down, closing its arm"),
    "new_arm_first_circle": ((True, False), "on the first circle each player starts a new arm of the cross"),
    "play_out_circle": ((True, False), "after a player goes out the circle is played out to the seat before the opener"),
    "redeal": ((None, "doubles5", "value6"), "hand that forces a redeal: 5+ doubles, or 6+ tiles of one value"),
    "scoring": (("own", "pairs", "max_loser"), "who is written what: own pips, pair totals, or all to the worst loser"),
    "blocked_winner": (("last_tile", "lowest"), "winner of a blocked deal: who laid the last tile, or the lowest hand"),
    "lone_00": ((None, int), "value of a lone 0-0 left in hand"),
    "special": ("{hand: points}", "a hand of exactly these tiles loses the deal with these points"),
    "eggs": ((True, False), "equal top pip sums hang the points until one of those players loses"),
    "target": ((None, int), "a total at or above this ends the game (that player loses)"),
    "deals": ((None, int), "the game is a fixed number of deals"),
    "pairs": ((True, False), "players play in two fixed pairs (seats 1+3 and 2+4 unless the game names them)"),
    "move_seconds": ((None, int), "seconds allowed per move, checked when events carry a 'time'"),
}


@dataclass(frozen=True)
class RuleSet:
    """The rules of one variant. Fields are options; `ids` maps each concept to its rule ID."""

    name: str
    players: tuple[int, int] = (4, 4)
    hand_size: dict = field(default_factory=lambda: {2: 7, 3: 7, 4: 7})
    boneyard: bool = True
    removed: int = 0
    draw: str = "until_fits"
    opening: str = "1-1"
    later_opening: str = "winner"
    passing: str = "forced"
    pass_circles: int = 1
    multi: str = "one"
    rows: bool = False
    reveal_at: int = 0
    arms: str = "line"
    face_down: bool = False
    new_arm_first_circle: bool = False
    play_out_circle: bool = False
    redeal: str | None = None
    scoring: str = "own"
    blocked_winner: str = "lowest"
    lone_00: int | None = None
    special: dict = field(default_factory=dict)
    eggs: bool = False
    target: int | None = 100
    deals: int | None = None
    pairs: bool = False
    move_seconds: int | None = None
    ids: dict = field(default_factory=dict, compare=False)

    def rule(self, concept: str) -> str:
        """The rule ID this variant cites for a concept (`match`, `pass`, `opening`, ...)."""
        return self.ids.get(concept, _TRAD_IDS.get(concept, "TRAD"))

    def hand_for(self, n_players: int) -> int:
        return self.hand_size[n_players]

    def undealt(self, n_players: int) -> int:
        """Tiles a deal leaves on the table to draw from (0 where the undealt are out of play)."""
        return max(0, 28 - self.hand_for(n_players) * n_players) if self.boneyard else 0

    @property
    def higher_is_better(self) -> bool:
        """Pairs (SPT-8) are credited points; everyone else collects penalty points."""
        return self.scoring == "pairs"

    def options(self) -> dict:
        """The options as JSON-friendly values (what a game event's `options` may override)."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name in ("name", "ids"):
                continue
            value = getattr(self, f.name)
            if f.name == "hand_size":
                value = {str(k): v for k, v in value.items()}
            elif f.name == "players":
                value = list(value)
            out[f.name] = value
        return out


# Concepts that every variant shares unless it says otherwise.
_TRAD_IDS = {
    "match": "BYK-1.6",  # touching halves carry the same value (layout vocabulary)
    "set": "SET-DUP",
    "turn": "TURN",
}

_BASE: dict[str, dict] = {
    "bykovo": dict(
        players=(4, 4), hand_size={4: 7}, boneyard=False, opening="0-0", later_opening="same",
        passing="voluntary", pass_circles=3, play_out_circle=True, redeal="doubles5",
        blocked_winner="last_tile", target=100,
        ids={"players": "BYK-1.1", "hand": "BYK-1.3", "draw": "BYK-1.3", "redeal": "BYK-1.3",
             "opening": "BYK-1.5", "arms": "BYK-1.6", "multi": "BYK-1.6", "pass": "BYK-1.8",
             "out": "BYK-1.9", "pass_end": "BYK-1.10", "fish": "BYK-1.11", "places": "BYK-1.12",
             "scoring": "BYK-2.5", "target": "BYK-2.5"},
    ),
    "sport": dict(
        players=(4, 4), hand_size={4: 7}, boneyard=False, opening="1-1", later_opening="left_of_opener",
        passing="forced", scoring="pairs", blocked_winner="lowest", lone_00=10, target=None, pairs=True,
        move_seconds=15,
        ids={"players": "SPT-8", "hand": "SPT-8", "draw": "SPT-8", "pass": "SPT-11", "scoring": "SPT-8", "fish": "SPT-8",
             "lone_00": "SPT-8", "time": "SPT-9"},
    ),
    "traditional": dict(
        players=(2, 4), hand_size={2: 7, 3: 7, 4: 7}, opening="1-1", later_opening="winner",
        passing="forced", blocked_winner="lowest", target=100,
    ),
    "blitz": dict(
        players=(4, 8), hand_size={4: 7, 5: 5, 6: 4, 7: 4, 8: 3}, boneyard=False, opening="lowest",
        later_opening="same", passing="forced", multi="any", target=100,
        ids={"players": "BLZ-1", "hand": "BLZ-1", "draw": "BLZ-1", "opening": "BLZ-2",
             "multi": "BLZ-3", "out": "BLZ-3", "scoring": "BLZ-3"},
    ),
    "blitz-blind": dict(
        players=(2, 4), hand_size={2: 8, 3: 8, 4: 7}, opening="lowest", later_opening="same",
        draw="one_after_miss", passing="forced", multi="all_or_one", rows=True, reveal_at=3, target=100,
        ids={"players": "BLB-1", "hand": "BLB-1", "opening": "BLB-1", "rows": "BLB-2", "draw": "BLB-2",
             "pass": "BLB-2", "multi": "BLB-3", "reveal": "BLB-3", "scoring": "BLB-3", "out": "BLB-3"},
    ),
    "dark": dict(
        players=(2, 4), hand_size={2: 7, 3: 7, 4: 7}, opening="any", later_opening="same",
        draw="one_after_miss", passing="forced", multi="revealed", rows=True, reveal_at=3, target=100,
        ids={"players": "DRK-1", "opening": "DRK-1", "rows": "DRK-2", "draw": "DRK-2", "pass": "DRK-2",
             "multi": "DRK-3", "reveal": "DRK-3"},
    ),
    "sevastopol": dict(
        players=(4, 4), hand_size={4: 7}, boneyard=False, opening="6-6", later_opening="same",
        passing="forced", arms="cross_opening", new_arm_first_circle=True, target=100,
        ids={"players": "SEV-1", "hand": "SEV-1", "draw": "SEV-1", "opening": "SEV-1", "arms": "SEV-1",
             "new_arm": "SEV-2", "out": "SEV-3", "scoring": "SEV-3", "target": "SEV-3"},
    ),
    "spider": dict(
        players=(2, 4), hand_size={2: 7, 3: 7, 4: 7}, removed=1, opening="1-1", later_opening="same",
        passing="forced", arms="cross_opening", face_down=True, target=100,
        ids={"players": "SPI-1", "hand": "SPI-1", "removed": "SPI-1", "draw": "SPI-1", "opening": "SPI-2",
             "arms": "SPI-2", "closed": "SPI-4", "out": "SPI-4"},
    ),
    "baltic": dict(
        players=(4, 4), hand_size={4: 7}, boneyard=False, opening="1-1", later_opening="winner",
        passing="forced", multi="doubles", arms="cross_first_closed", face_down=True, redeal="value6",
        scoring="max_loser", blocked_winner="last_tile",
        special={"0-0": 50, "6-6": 75, "0-0 6-6": 150}, eggs=True, target=151,
        ids={"players": "BAL-1", "hand": "BAL-1", "draw": "BAL-1", "redeal": "BAL-3", "opening": "BAL-4",
             "pass": "BAL-5", "target": "BAL-6", "scoring": "BAL-7", "special": "BAL-8",
             "arms": "BAL-9", "closed": "BAL-12", "multi": "BAL-13", "fish": "BAL-14",
             "eggs": "BAL-15", "places": "BAL-17"},
    ),
}


def ruleset(variant: str, **overrides) -> RuleSet:
    """The rule set of a variant with house rules applied.

    Raises `ValueError` for an unknown variant, option or option value (the message lists the
    choices).
    """
    if variant not in _BASE:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    base = dict(_BASE[variant])
    for name, value in overrides.items():
        base[name] = _check_option(name, value)
    return RuleSet(name=variant, **base)


def _check_option(name: str, value):
    if name not in OPTIONS:
        raise ValueError(f"unknown option {name!r}; options are {', '.join(OPTIONS)}")
    allowed, _ = OPTIONS[name]
    if name == "players":
        if (not isinstance(value, list | tuple) or len(value) != 2
                or not all(isinstance(v, int) and 2 <= v <= 8 for v in value) or value[0] > value[1]):
            raise ValueError(f"option players must be [min, max] with 2 <= min <= max <= 8, got {value!r}")
        return tuple(value)
    if name == "hand_size":
        try:
            sizes = {int(k): int(v) for k, v in dict(value).items()}
        except (TypeError, ValueError):
            raise ValueError(f"option hand_size must map players to tiles, e.g. {{\"4\": 7}}, got {value!r}") from None
        if any(n * s > 28 or s < 1 for n, s in sizes.items()):
            raise ValueError(f"option hand_size deals more than 28 tiles: {value!r}")
        return sizes
    if name == "special":
        if not isinstance(value, dict) or not all(isinstance(v, int) for v in value.values()):
            raise ValueError(f"option special must map hands to points, e.g. {{\"0-0\": 50}}, got {value!r}")
        from engine.tiles import Tile  # local: rules stays importable on its own

        for hand in value:
            for text in hand.split():
                Tile.parse(text)
        return dict(value)
    if isinstance(allowed, tuple):
        ok = value in allowed or (int in allowed and isinstance(value, int) and not isinstance(value, bool))
        if not ok:
            raise ValueError(f"option {name} must be one of {allowed}, got {value!r}")
        return value
    if allowed is int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"option {name} must be a whole number >= 0, got {value!r}")
        return value
    return value


# option -> the concept whose rule ID a variant cites for it (see RuleSet.ids)
OPTION_RULE = {
    "players": "players", "hand_size": "hand", "boneyard": "draw", "removed": "removed", "draw": "draw",
    "opening": "opening", "later_opening": "opening", "passing": "pass", "pass_circles": "pass_end",
    "multi": "multi", "rows": "rows", "reveal_at": "reveal", "arms": "arms", "face_down": "closed",
    "new_arm_first_circle": "new_arm", "play_out_circle": "out", "redeal": "redeal", "scoring": "scoring",
    "blocked_winner": "fish", "lone_00": "lone_00", "special": "special", "eggs": "eggs",
    "target": "target", "deals": "deals", "pairs": "scoring", "move_seconds": "time",
}


def options_markdown() -> str:
    """The README table: every option, its default in each variant and the rule it comes from."""
    import json

    sets = [ruleset(v) for v in VARIANTS]
    head = "| option | meaning | " + " | ".join(VARIANTS) + " |"
    lines = [head, "|" + "---|" * (len(VARIANTS) + 2)]
    for name, (_, meaning) in OPTIONS.items():
        cells = []
        for rs in sets:
            value = rs.options()[name]
            text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
            cells.append(f"`{text}` {rs.rule(OPTION_RULE[name])}")
        lines.append(f"| `{name}` | {meaning} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
