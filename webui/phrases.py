"""The engine's English sentences (flag messages, record errors) in the page's language.

The engine (standard library only) writes its verdicts in English with the rule ID beside them.
The pages keep the rule ID and show the sentence through this table: each pattern's named groups
fill the %(name)s placeholders of a catalog message. A sentence no pattern knows is shown with a
plain fallback ("see rule X") rather than in the wrong language.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from webui.i18n import N_

_NAME = r"(?P<player>.+?)"
_TILE = r"(?P<tile>\d-\d)"

# (pattern matched against the whole message, catalog message). Order matters: first match wins.
FLAG_PHRASES: list[tuple[str, str]] = [
    (rf"{_NAME} passed (?:holding|turned up) {_TILE}, which fits (?P<ends>[\d, ]+)",
     N_("%(player)s passed while holding %(tile)s, which fits %(ends)s")),
    (rf"{_NAME} (?:passed|a pass inferred here) holding {_TILE}, which fit (?P<ends>[\d, ]+) \(found at reveal\)",
     N_("%(player)s passed while holding %(tile)s, which fit %(ends)s (found at the recount)")),
    (rf"{_NAME} .+ but (?P<other>.+?) was to move",
     N_("%(player)s moved out of turn: %(other)s was to move")),
    (rf"{_NAME} .+ after the deal ended \((?P<end>\w+)\)",
     N_("%(player)s moved after the deal had ended")),
    (rf"(?P<other>.+?) leads this deal, not {_NAME}",
     N_("%(other)s leads this deal, not %(player)s")),
    (rf"the deal opens with (?P<need>.+), not {_TILE}",
     N_("the deal opens with %(need)s, not %(tile)s")),
    (rf"{_TILE} is already on the table", N_("%(tile)s is already on the table")),
    (rf"{_NAME} played {_TILE}, which (?P<other>.+?) holds", N_("%(player)s played %(tile)s, which %(other)s holds")),
    (rf"{_NAME} played {_TILE}, which is in the boneyard", N_("%(player)s played %(tile)s, which is in the boneyard")),
    (rf"{_NAME} played {_TILE}, which is not in their hand",
     N_("%(player)s played %(tile)s, which is not in their hand")),
    (rf"{_NAME} has no tiles left but played {_TILE}", N_("%(player)s has no tiles left but played %(tile)s")),
    (rf"{_NAME} attached {_TILE} to (?P<to>\d-\d), which is not on the table",
     N_("%(player)s attached %(tile)s to %(to)s, which is not on the table")),
    (r"(?P<to>\d-\d) lies face down: its arm is closed", N_("%(to)s lies face down: its arm is closed")),
    (r"(?P<to>\d-\d) takes no more tiles on this layout", N_("%(to)s takes no more tiles here")),
    (rf"(?P<to>\d-\d) has no free end for {_TILE}", N_("%(to)s has no free end for %(tile)s")),
    (rf"{_TILE} fits no open end \(ends: (?P<ends>.*)\)", N_("%(tile)s fits no open end (ends: %(ends)s)")),
    (rf"{_TILE} fits (?P<cands>.+); name one with \"to\"",
     N_("%(tile)s fits %(cands)s: say which tile it is attached to")),
    (r"(?P<what>.+) does not fit (?P<ends>[\d/]+)", N_("%(what)s does not fit %(ends)s")),
    (rf"{_NAME} laid (?P<n>\d+) tiles in one turn without going out",
     N_("%(player)s laid %(n)s tiles in one turn without going out")),
    (rf"{_NAME} laid a second tile \({_TILE}\) in one turn", N_("%(player)s laid a second tile (%(tile)s) in one turn")),
    (rf"{_NAME} laid {_TILE} in a turn of several tiles; only doubles may go together",
     N_("%(player)s laid %(tile)s with other tiles: only doubles may go together")),
    (rf"{_NAME} laid a second tile \({_TILE}\) before the last (?P<n>\d+) were turned up",
     N_("%(player)s laid a second tile (%(tile)s) before the last %(n)s were turned up")),
    (rf"{_NAME} must play the right-end tile {_TILE}, not (?P<other>\d-\d)",
     N_("%(player)s must play the right-end tile %(tile)s, not %(other)s")),
    (rf"{_NAME} must start a new arm from {_TILE} on the first circle",
     N_("%(player)s must start a new arm from %(tile)s on the first circle")),
    (rf"{_NAME} passed before the deal was opened", N_("%(player)s passed before the deal was opened")),
    (rf"{_NAME} must draw from the boneyard \((?P<n>\d+) left\) instead of passing",
     N_("%(player)s must draw from the boneyard (%(n)s left) instead of passing")),
    (rf"{_NAME} drew from an empty boneyard", N_("%(player)s drew from an empty boneyard")),
    (rf"{_NAME} drew holding {_TILE}, which fits", N_("%(player)s drew while holding %(tile)s, which fits")),
    (rf"{_NAME} drew {_TILE}, which (?:is on the table|is already in a hand|is not in the boneyard)",
     N_("%(player)s drew %(tile)s, which cannot be in the boneyard")),
    (rf"{_NAME} revealed {_TILE}, which is on the table", N_("%(player)s showed %(tile)s, which is on the table")),
    (rf"{_NAME} revealed {_TILE}, which (?P<other>.+?) revealed too",
     N_("%(player)s showed %(tile)s, which %(other)s showed too")),
    (rf"{_NAME} revealed the same tile twice", N_("%(player)s showed the same tile twice")),
    (rf"{_NAME} revealed (?P<n>\d+) tiles but should hold (?P<m>\d+)",
     N_("%(player)s showed %(n)s tiles but should hold %(m)s")),
    (rf"{_NAME} revealed (?P<shown>.+) but holds (?P<held>.+)",
     N_("%(player)s showed %(shown)s but holds %(held)s")),
    (rf"{_NAME} holds (?P<n>\d+) doubles: declare it and redeal",
     N_("%(player)s holds %(n)s doubles: declare it and redeal")),
    (rf"{_NAME} holds (?P<n>\d+) tiles showing (?P<v>\d): reshuffle and redeal",
     N_("%(player)s holds %(n)s tiles showing %(v)s: reshuffle and redeal")),
    (rf"{_NAME} took (?P<s>\d+) s \(limit (?P<limit>\d+) s\)",
     N_("%(player)s took %(s)s s to move (limit %(limit)s s)")),
    (rf"{_NAME} was dealt (?P<n>\d+) tiles; .+ deals (?P<m>\d+) to (?P<k>\d+) players",
     N_("%(player)s was dealt %(n)s tiles; this variant deals %(m)s to %(k)s players")),
    (rf"{_TILE} dealt to {_NAME} and to (?P<other>.+)", N_("%(tile)s dealt to %(player)s and to %(other)s")),
    (rf"{_NAME} may draw one tile only right after a miss", N_("%(player)s may draw one tile only right after a miss")),
    (rf"only a double may be laid face down, not {_TILE}", N_("only a double may be laid face down, not %(tile)s")),
    (rf"the opening tile {_TILE} cannot be laid face down", N_("the opening tile %(tile)s cannot be laid face down")),
    (r".+ does not allow face-down tiles", N_("this variant does not allow face-down tiles")),
    (r".+ has no boneyard: the undealt tiles are out of play",
     N_("this variant has no boneyard: the undealt tiles are out of play")),
    (rf"{_TILE} was dealt, nearer to (?P<end>\d-\d) than the opening tile (?P<first>\d-\d)",
     N_("%(tile)s was dealt, nearer to %(end)s than the opening tile %(first)s")),
    (r"the game is over \(a total reached (?P<n>\d+)\); start a new game",
     N_("the game is over (a total reached %(n)s): start a new game")),
]
FLAG_FALLBACK = N_("see rule %(rule)s")

# The engine's and the journal's refusals of an operator's entry, each with what to do next.
ERROR_PHRASES: list[tuple[str, str]] = [
    (r"(?P<kind>\w+) before any deal event.*",
     N_("No deal has started yet: press Next deal first, then enter the move.")),
    (r"unknown player '(?P<player>.+?)'.*",
     N_("%(player)s does not play in this game: choose a player from the list.")),
    (r"unknown tile '(?P<tile>.*?)'.*",
     N_("%(tile)s is not a domino tile: write it as two numbers from 0 to 6, like 3-5.")),
    (r"not a double-six tile.*", N_("That is not a domino tile: write two numbers from 0 to 6, like 3-5.")),
    (r"player must be a name.*", N_("Choose the player who moved.")),
    (r"play event lacks tile.*", N_("Write the tile that was laid, like 3-5.")),
    (r"(?:\w+ event lacks player|pass event lacks player).*", N_("Choose the player who moved.")),
    (r"a second game event.*", N_("Start a new game with the New game form.")),
]
ERROR_FALLBACK = N_("The entry was not saved (%(why)s): check the fields and try again.")

_COMPILED: dict[int, list[tuple[re.Pattern[str], str]]] = {}
_LOCATION = re.compile(r"^(?:<events>|[^\s:]+):\d+: ")


def _compiled(table: list[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    key = id(table)
    if key not in _COMPILED:
        _COMPILED[key] = [(re.compile(p + r"\Z"), m) for p, m in table]
    return _COMPILED[key]


def say(table: list[tuple[str, str]], text: str, _: Callable[..., str]) -> str | None:
    """`text` in the language of `_` (webui.i18n.gettext_for), or None when no pattern knows it."""
    text = _LOCATION.sub("", text.strip())
    for pattern, message in _compiled(table):
        found = pattern.match(text)
        if found:
            return _(message, **{k: v.strip() for k, v in found.groupdict().items()})
    return None


def flag_text(flag: dict, _: Callable[..., str]) -> str:
    return say(FLAG_PHRASES, str(flag.get("message") or ""), _) or _(FLAG_FALLBACK, rule=flag.get("rule", "?"))


def error_text(message: str, _: Callable[..., str]) -> str:
    return say(ERROR_PHRASES, message, _) or _(ERROR_FALLBACK, why=_LOCATION.sub("", message.strip()))
