"""The pages' language: Russian by default, English on request; gettext catalogs through Flask-Babel.

- Catalogs: webui/translations/<lang>/LC_MESSAGES/messages.po, compiled to the committed .mo
  (`make i18n` extracts, updates and compiles; tests/webui/test_i18n.py fails when a catalog lacks
  a string or its .mo is stale).
- Which language a page gets: `?lang=ru|en` (then remembered in the `lang` cookie), else the
  cookie, else the server's `LANG` (`dominocam serve --lang`).
- `translations(lang)` works without a request (the live stream's generator, the CLI).
- `js_catalog(lang)`: the words of the pages' scripts (webui/static/*.js call `t("...")`), found in
  the scripts with Babel's JavaScript extractor (the keyword `make i18n` extracts), so a new
  `t("...")` needs no list here.
"""

from __future__ import annotations

import functools
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, has_app_context, has_request_context, request
from flask_babel import Babel
from flask_babel import gettext as babel_gettext

LANGS = ("ru", "en")
DEFAULT_LANG = "ru"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
CATALOGS = Path(__file__).resolve().parent / "translations"
STATIC = Path(__file__).resolve().parent / "static"
KEYWORDS = {"t": None}  # the scripts' gettext: t("...")


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional name for "mark for extraction"
    """Mark a string for the catalogs without translating it here (it is translated where shown)."""
    return message


def gettext(message: str, **params: object) -> str:
    """The request's translation of `message` with its %(name)s placeholders filled; the English
    message outside a request or in an app without Flask-Babel (a blueprint tested alone)."""
    if has_app_context() and "babel" in current_app.extensions:
        return babel_gettext(message, **params)
    return message % params if params else message


def check_lang(lang: str) -> str:
    """`lang` if it is one of LANGS. Raises ValueError naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return lang


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalog of `lang` (English is the source language: its catalog only repeats it)."""
    found = Translations.load(str(CATALOGS), [lang], domain="messages")
    return found if isinstance(found, Translations) else NullTranslations()


def gettext_for(lang: str):
    """A `_(message, **params)` that translates into `lang` and fills %(name)s placeholders."""
    tr = translations(lang)

    def _(message: str, **params: object) -> str:
        text = tr.gettext(message)
        return text % params if params else text

    return _


def ngettext_for(lang: str):
    tr = translations(lang)

    def n_(singular: str, plural: str, n: int, **params: object) -> str:
        return tr.ngettext(singular, plural, n) % ({"num": n} | params)

    return n_


def request_lang() -> str:
    """The language of the current request (no request: the server's default)."""
    default = current_app.config.get("LANG", DEFAULT_LANG) if current_app else DEFAULT_LANG
    if not has_request_context():
        return default
    asked = request.args.get("lang")
    if asked in LANGS:
        return asked
    kept = request.cookies.get(COOKIE)
    if kept in LANGS:
        return kept
    return default


def _remember_lang(response):
    asked = request.args.get("lang")
    if asked in LANGS and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=False)
    return response


def init_i18n(app: Flask) -> None:
    """Flask-Babel on `app` with the selector above; templates get `lang` and `other_lang`."""
    check_lang(app.config.get("LANG", DEFAULT_LANG))
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(CATALOGS)
    app.config["BABEL_DEFAULT_LOCALE"] = app.config.get("LANG", DEFAULT_LANG)
    Babel(app, locale_selector=request_lang)
    app.after_request(_remember_lang)
    app.jinja_env.globals["js_catalog"] = js_catalog

    @app.context_processor
    def _lang_vars():
        lang = request_lang()
        return {"lang": lang, "other_lang": "en" if lang == "ru" else "ru"}


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
