"""Every error a page or the operator sees, in the request's language, saying what to do next."""

from __future__ import annotations

from werkzeug.exceptions import HTTPException

from webui.i18n import N_, gettext_for, request_lang
from webui.journal import JournalError
from webui.phrases import error_text

# Werkzeug's own English descriptions are replaced by these (our abort() calls pass translated ones).
GENERIC = {
    400: N_("The request was not understood: reload the page and try again."),
    401: N_("The operator's token is needed: open the operator link printed by dominocam serve."),
    403: N_("Not allowed: reload the operator page and try again."),
    404: N_("No such page: go back to the spectator display."),
    405: N_("This address does not take that request: use the page's buttons."),
    413: N_("The photo is too large: send one under 16 MB."),
    500: N_("Something went wrong on the server: try again; if it repeats, restart dominocam serve."),
}


def http_error_text(exc: HTTPException) -> str:
    if exc.description and exc.description != type(exc).description:
        return exc.description
    message = GENERIC.get(exc.code or 500)
    return gettext_for(request_lang())(message) if message else str(exc.description)


def journal_error_text(exc: JournalError) -> str:
    if getattr(exc, "engine", False):
        return error_text(str(exc), gettext_for(request_lang()))
    return str(exc)
