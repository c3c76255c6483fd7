"""The state of /api/state in one language: words added beside the data, never replacing it.

`build_state` (webui/state.py) is language-neutral data (ids, names, numbers, the engine's English
messages); `localize(state, lang)` adds what a page shows: the banner's title and text, each
flag's `text`, the camera's words, the variant's name. Rule IDs and the data stay as they are.
"""

from __future__ import annotations

from typing import Any

from webui import words
from webui.i18n import gettext_for
from webui.phrases import error_text, flag_text


def _banner(banner: dict[str, Any], _) -> dict[str, Any]:
    kind = banner.get("kind")
    if kind not in words.BANNERS:
        return banner
    title, text = words.BANNERS[kind]
    out = dict(banner, title=_(title))
    if kind in ("fish", "sortir"):
        out["text"] = _(words.LAID_LAST, winner=banner["winner"]) if banner.get("winner") else _(text)
    elif kind == "game_over":
        out["text"] = _(text, loser=banner["loser"]) if banner.get("loser") else _(words.GAME_OVER_PLAIN)
    elif kind == "eggs":
        names = banner.get("names") or []
        out["text"] = (_(text, points=banner.get("points"), names=", ".join(names)) if names
                       else _(words.EGGS_PLAIN))
    else:
        out["text"] = _(text, winner=banner.get("winner") or "")
    return out


def _live_flag(flag: dict[str, Any], _) -> dict[str, Any]:
    kind = flag.get("kind")
    params = {"tile": flag.get("tile") or _(words.A_TILE), "player": flag.get("player") or _(words.SOMEONE)}
    public = words.LIVE_FLAGS_PUBLIC.get(kind)
    operator = words.LIVE_FLAGS_OPERATOR.get(kind, words.LIVE_FLAG_OTHER)
    return dict(flag, text=_(public, **params) if public else "", op_text=_(operator, **params))


def camera_words(camera: dict[str, Any], _) -> dict[str, Any]:
    state = camera.get("state", "none")
    label = words.CAMERA_STATES.get(state, state)
    hint = words.CAMERA_HINTS.get(state, "")
    message = str(camera.get("message") or "")
    where = message.split("no camera at ", 1)[1] if "no camera at " in message else message
    return dict(camera, text=_(label), hint=_(hint, where=where) if hint else "")


def localize(state: dict[str, Any], lang: str) -> dict[str, Any]:
    """A copy of `state` with the words of `lang` added (see the module's docstring)."""
    _ = gettext_for(lang)
    out = dict(state)
    out["lang"] = lang
    game = state.get("game") or {}
    variant = game.get("variant")
    out["variant_name"] = _(words.VARIANT_NAMES[variant]) if variant in words.VARIANT_NAMES else variant
    if state.get("banner"):
        out["banner"] = _banner(state["banner"], _)
    out["flags"] = [dict(f, text=flag_text(f, _)) for f in state.get("flags") or []]
    out["live_flags"] = [_live_flag(f, _) for f in state.get("live_flags") or []]
    if state.get("camera"):
        out["camera"] = camera_words(state["camera"], _)
    if state.get("error"):
        out["error_text"] = error_text(state["error"], _)
    out["end_words"] = {k: _(v) for k, v in words.DEAL_ENDS.items()}
    return out
