"""The words of the pages' scripts (webui/static/*.js call `t("...")`), in one language.

The msgids are found in the scripts themselves with Babel's JavaScript extractor (the same
keyword the catalogs are extracted with: `make i18n`), so a new `t("...")` needs no list here.
"""

from __future__ import annotations

import functools
from pathlib import Path

from babel.messages.extract import extract_from_file

from webui.i18n import translations

STATIC = Path(__file__).resolve().parent / "static"
KEYWORDS = {"t": None}


@functools.cache
def js_msgids() -> tuple[str, ...]:
    found: list[str] = []
    for script in sorted(STATIC.glob("*.js")):
        for _lineno, message, _comments, _context in extract_from_file("javascript", str(script), keywords=KEYWORDS):
            if isinstance(message, str) and message not in found:
                found.append(message)
    return tuple(found)


@functools.cache
def js_catalog(lang: str) -> dict[str, str]:
    """msgid -> its translation, for the page's <script id="i18n"> block."""
    tr = translations(lang)
    return {m: tr.gettext(m) for m in js_msgids()}
