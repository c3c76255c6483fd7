"""Keep the gettext catalogs in step with the code: `python -m webui.catalogs` (or `make i18n`).

Extracts every marked message (`_()`, `gettext()`, `N_()` in Python and templates, `t()` in the
pages' scripts), adds new ones to webui/translations/<lang>/LC_MESSAGES/messages.po (English
msgstr = msgid; Russian left empty, to translate), drops obsolete ones, and compiles the .mo files
the app loads. tests/webui/test_i18n.py fails while a Russian msgstr is empty or a .mo is stale.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from webui.i18n import CATALOGS, LANGS

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
PY_KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}
# (folder, pattern, method, keywords). webui/event/ is the event hub's (it marks nothing yet).
SOURCES = [
    ("webui", "*.py", "python", PY_KEYWORDS),
    ("webui", "templates/**.html", "jinja2", PY_KEYWORDS),
    ("webui", "static/**.js", "javascript", {"t": None}),
    ("dominocam", "**.py", "python", PY_KEYWORDS),
]


def extract() -> dict[str, set[str]]:
    """msgid -> the files that use it."""
    found: dict[str, set[str]] = {}
    for folder, pattern, method, keywords in SOURCES:
        for path, _lineno, message, _comments, _context in extract_from_dir(
                str(ROOT / folder), [(pattern, method)], keywords=keywords):
            for m in [message] if isinstance(message, str) else [m for m in message if m]:
                found.setdefault(m, set()).add(f"{folder}/{path}")
    return found


def po_path(lang: str) -> Path:
    return CATALOGS / lang / "LC_MESSAGES" / "messages.po"


def load(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, project="dominocam", domain="messages")
    with open(path, "rb") as f:
        return read_po(f, locale=lang)


def update(lang: str, messages: dict[str, set[str]]) -> list[str]:
    """Bring `lang`'s .po in line with `messages` and compile its .mo. Returns the untranslated."""
    old = {m.id: m.string for m in load(lang) if m.id}
    cat = Catalog(locale=lang, project="dominocam", domain="messages")
    untranslated = []
    for msgid in sorted(messages):
        string = old.get(msgid) or (msgid if lang == "en" else "")
        if not string:
            untranslated.append(msgid)
        cat.add(msgid, string, flags=("python-format",) if "%(" in msgid else ())
    po_path(lang).parent.mkdir(parents=True, exist_ok=True)
    with open(po_path(lang), "wb") as f:
        write_po(f, cat, sort_output=True, width=100)
    with open(po_path(lang).with_suffix(".mo"), "wb") as f:
        write_mo(f, cat)
    return untranslated


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    messages = extract()
    status = 0
    for lang in LANGS:
        missing = update(lang, messages)
        log.info("%s: %d messages, %d to translate", lang, len(messages), len(missing))
        for m in missing:
            log.info("  %s", m)
        status = status or (1 if missing else 0)
    return status


if __name__ == "__main__":
    sys.exit(main())
