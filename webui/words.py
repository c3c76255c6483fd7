"""The words the pages show for the game's data: variant names, banners, deal ends, camera states,
the camera's flags. English msgids, marked for the catalogs; translated where they are shown."""

from __future__ import annotations

from webui.i18n import N_

# Variant id (engine) -> the name players use (RULES.md; the Russian seeds win).
VARIANT_NAMES = {
    "bykovo": N_("Bykovo"),
    "sport": N_("Sport (pairs)"),
    "traditional": N_("Traditional"),
    "blitz": N_("Blitz"),
    "blitz-blind": N_("Blind blitz"),
    "dark": N_("In the dark"),
    "sevastopol": N_("Sevastopol"),
    "spider": N_("Spider"),
    "baltic": N_("Kozel / Baltic Rally"),
}

# Banner kind -> (title, text). Texts take %(winner)s, %(loser)s, %(names)s, %(points)s.
BANNERS = {
    "out": (N_("DOMINO!"), N_("%(winner)s is out")),
    "fish": (N_("FISH"), N_("Every open end shows a value whose seven tiles are all on the table")),
    "sortir": (N_("SORTIR"), N_("No one can play, and it is not a fish")),
    "eggs": (N_("EGGS"), N_("Equal top sums: %(points)s points hang between %(names)s")),
    "game_over": (N_("GAME OVER"), N_("%(loser)s loses the game")),
}
LAID_LAST = N_("%(winner)s laid the last tile and wins")
GAME_OVER_PLAIN = N_("The game is over")
EGGS_PLAIN = N_("Equal top sums: the points hang")

# How a deal ended (engine's `end`), for headlines and the recount.
DEAL_ENDS = {
    "out": N_("a player went out"),
    "fish": N_("fish"),
    "sortir": N_("sortir (blocked)"),
    "blocked": N_("blocked"),
    "stopped": N_("stopped after three circles of passes"),
    "unfinished": N_("not finished"),
}

CAMERA_STATES = {
    "live": N_("● LIVE"),
    "starting": N_("camera starting"),
    "reconnecting": N_("camera lost · reconnecting"),
    "missing": N_("no camera there · looking again"),
    "lost": N_("camera lost"),
    "stalled": N_("camera stalled"),
    "ended": N_("recording ended"),
    "none": N_("no camera"),
}
CAMERA_HINTS = {
    "starting": N_("The camera is starting."),
    "reconnecting": N_("The picture is gone; trying again. The game so far is safe."),
    "missing": N_("No camera at %(where)s: plug it in or start with another --source. The game so far is safe."),
    "lost": N_("The camera is gone. The referee can go on entering moves by hand."),
    "stalled": N_("No picture for a few seconds: check the camera cable. The game so far is safe."),
    "ended": N_("The recording has ended."),
    "none": N_("No camera at this table: the moves come from the referee."),
}

# The camera's flags (vision/live: take-back, misread...): spectators see the public ones.
LIVE_FLAGS_PUBLIC = {
    "take-back": N_("%(player)s took back %(tile)s: the referee will decide whether the move stands."),
    "returned": N_("%(tile)s is back on the table."),
    "duplicate": N_("%(tile)s is seen twice on the table: the referee will check."),
}
LIVE_FLAGS_OPERATOR = {
    "take-back": N_("%(player)s took back %(tile)s: undo the move or leave it"),
    "returned": N_("%(tile)s was put back on the table"),
    "misread": N_("%(tile)s was read unsurely: check it on the picture and fix the move if wrong"),
    "no-attachment": N_("%(tile)s touches no open end: check where it lies and fix the move"),
    "duplicate": N_("%(tile)s is seen twice: one of them is misread; fix the wrong move"),
    "recount": N_("hands laid out for the recount: upload a photo or type the tiles"),
    "refused": N_("the journal refused a camera move: enter the move by hand if it was made"),
    "unseen": N_("%(tile)s not seen in the recount: given to %(player)s as the only tiles left; check the reveal"),
    "seat": N_("the hands shown say %(tile)s was %(player)s's: the move was corrected; check it"),
}
LIVE_FLAG_OTHER = N_("the camera noticed something: look at the picture")
SOMEONE = N_("A player")
A_TILE = N_("a tile")
