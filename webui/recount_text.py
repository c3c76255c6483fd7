"""`dominocam recount`'s words and the operator page's recount notes, in Russian or English.

From the reader's `Recount` (vision/read/recount.py) it says, in plain words: each hand and its
pips, or *waiting for the recount* where a hand is not fully seen (unknown is never zero); how
the deal ended and who won (out / fish / сортир); how the points follow from the variant's
scoring; and what cannot be (more tiles in a hand than dealt, more than 28 tiles, a tile twice).
Points are given only when every hand is known and nothing is impossible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rules import ruleset
from webui.i18n import N_, gettext_for
from webui.phrases import flag_text
from webui.words import DEAL_ENDS, VARIANT_NAMES

SEATS = {"south": N_("south"), "west": N_("west"), "north": N_("north"), "east": N_("east")}
SCORING = {
    "own": N_("the winner scores 0; every other player scores the pips left in hand"),
    "pairs": N_("the pips left to the losing pair are credited to the winning pair"),
    "max_loser": N_("all the losers' pips are written to the loser holding the most"),
}
WAITING = N_("waiting for the recount")
ALL_TILES = 28


@dataclass
class RecountReport:
    lines: list[str]
    waiting: list[str] = field(default_factory=list)  # players whose hand is not known
    problems: list[str] = field(default_factory=list)  # what cannot be, in plain words
    notes: list[str] = field(default_factory=list)  # what the referee should check before confirming
    known_end: bool = True  # the game record said how the deal ended (so who won)

    @property
    def final(self) -> bool:
        """The deal's points can be written: every hand known, nothing impossible, the end known."""
        return self.known_end and not self.waiting and not self.problems


def _held_counts(record: list[dict[str, Any]] | None, hand_size: int, players: list[str]) -> dict[str, int] | None:
    """Tiles each player should hold at the end of the record's last deal (dealt - played + drawn)."""
    if not record:
        return None
    starts = [i for i, e in enumerate(record) if e.get("event") == "deal"]
    if not starts:
        return None
    held = dict.fromkeys(players, hand_size)
    for e in record[starts[-1] + 1:]:
        if e.get("player") in held:
            held[e["player"]] += {"play": -1, "draw": 1}.get(e.get("event"), 0)
    return held


def _hand_line(h, known: bool, _) -> str:
    seat = _(SEATS.get(h.seat, h.seat))
    tiles = " ".join(str(t) for t in h.tiles)
    if known:
        if not h.tiles:
            return _("%(seat)s %(player)s: empty hand = 0 pips", seat=seat, player=h.player)
        return _("%(seat)s %(player)s: %(tiles)s = %(pips)s pips", seat=seat, player=h.player, tiles=tiles, pips=h.pips)
    why = []
    if h.unread:
        why.append(_("tiles not read: %(num)s", num=h.unread))
    if h.face_down:
        why.append(_("tiles face down: %(num)s", num=h.face_down))
    if not h.tiles and not why:
        why.append(_("no tiles seen"))
    seen = _("seen: %(tiles)s", tiles=tiles) if h.tiles else ""
    return _("%(seat)s %(player)s: %(waiting)s (%(why)s)", seat=seat, player=h.player, waiting=_(WAITING),
             why="; ".join([*why, *([seen] if seen else [])]))


def _problems(rc, hand_size: int, most_in_hand: int, tiles_seen: int, _) -> list[str]:
    out = []
    for h in rc.hands:
        count = len(h.tiles) + h.unread + h.face_down
        if count > most_in_hand:
            out.append(_("%(player)s has %(n)s tiles, but a hand holds at most %(m)s here (%(dealt)s dealt)",
                         player=h.player, n=count, m=most_in_hand, dealt=hand_size))
    if tiles_seen > ALL_TILES:
        out.append(_("%(n)s tiles are on the photo, but a set has only 28", n=tiles_seen))
    owner: dict[str, str] = {}
    for h in rc.hands:
        for t in h.tiles:
            name = str(t)
            if name in owner:
                who = (_("twice in %(player)s's hand", player=h.player) if owner[name] == h.player
                       else _("in %(a)s's and %(b)s's hands", a=owner[name], b=h.player))
                out.append(_("%(tile)s is read %(where)s: a set has one of each tile", tile=name, where=who))
            owner[name] = h.player
    return out


def _end_line(rc, record: list[dict] | None, _) -> str:
    deal = rc.deal or {}
    if not record:
        return _("How the deal ended is not known without the game record (--record).")
    end, winner = deal.get("end"), deal.get("winner")
    if end == "out" and winner:
        return _("%(winner)s went out and wins the deal.", winner=winner)
    if end in ("fish", "sortir") and winner:
        return _("The deal ended in %(end)s: %(winner)s laid the last tile and wins.",
                 end=_(DEAL_ENDS[end]), winner=winner)
    if end in DEAL_ENDS and end != "unfinished":
        return _("The deal ended: %(end)s.", end=_(DEAL_ENDS[end]))
    return _("The record does not say how the deal ended yet.")


def recount_report(rc, variant: str, players: list[str], record: list[dict] | None, tiles_seen: int,
                   lang: str = "ru") -> RecountReport:
    """The words of one recount (see the module's docstring). `tiles_seen`: tiles on the photo."""
    _ = gettext_for(lang)
    game = record[0] if record else {"variant": variant, "options": {}}
    rules = ruleset(game["variant"], **(game.get("options") or {}))
    try:
        hand_size = rules.hand_for(len(players))
        undealt = rules.undealt(len(players))
    except KeyError:
        hand_size, undealt = 7, 0
    held = _held_counts(record, hand_size, players)
    waiting = []
    lines = [_("Recount · %(variant)s", variant=_(VARIANT_NAMES.get(game["variant"], game["variant"])))]
    notes = []
    for h in rc.hands:
        expected = held.get(h.player) if held is not None else None
        known = h.complete and (len(h.tiles) == expected if expected is not None else bool(h.tiles))
        if not known:
            waiting.append(h.player)
            notes.append(_hand_line(h, known, _))
        lines.append("  " + _hand_line(h, known, _))
    if rc.boneyard:
        lines.append("  " + _("boneyard: %(num)s tiles face down in a heap, counted in no hand", num=len(rc.boneyard)))
    if rc.apart:
        lines.append("  " + _("%(num)s box(es) apart from the hands shown, face down or boxed doubtfully, counted "
                              "for no one (a cup, a lid, a tile of another set?); if one is a tile, lay it face up "
                              "beside its hand", num=len(rc.apart)))
    problems = _problems(rc, hand_size, hand_size + undealt, tiles_seen, _)
    for h in rc.hands:
        expected = held.get(h.player) if held is not None else None
        if expected is not None and len(h.tiles) > expected:
            problems.append(_("%(player)s shows %(n)s tiles but can hold only %(m)s by the record",
                              player=h.player, n=len(h.tiles), m=expected))
    lines.append(_end_line(rc, record, _))
    lines.append(_("How the points follow: %(rule)s.", rule=_(SCORING.get(rules.scoring, SCORING["own"]))))
    points = (rc.deal or {}).get("points") or {}
    if problems:
        lines.append(_("This count cannot be right, so no points are given:"))
        lines.extend("  - " + p for p in problems)
        lines.append(_("Lay the hands out again, apart from each other and from the chain, and take a new photo."))
    elif not record:  # who won decides the points: without the record nobody can say
        lines.append(_("Points: who won is not known, so the points are not given; the pips above are "
                       "what each hand holds (give --record for the points)."))
    elif waiting:
        lines.append(_("Points: %(waiting)s (%(players)s); the deal's points are final once every hand is known.",
                       waiting=_(WAITING), players=", ".join(waiting)))
    else:
        lines.append(_("Points: %(points)s", points=", ".join(f"{p} {v}" for p, v in points.items())))
    for f in rc.flags:
        lines.append(_("Wrongful pass (%(rule)s): %(text)s", rule=f["rule"], text=flag_text(f, _)))
    for h in rc.hands:
        if h.unsure:
            lines.append(_("Check by hand: %(tiles)s in %(player)s's hand were read unsurely.",
                           tiles=" ".join(map(str, h.unsure)), player=h.player))
            notes.append(lines[-1])
    return RecountReport(lines, waiting, problems, [*problems, *notes], known_end=bool(record))
