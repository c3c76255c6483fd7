"""Who may do what: Host-header allow-list, the operator token, CSRF.

- Every request: the Host header must name this server (else 400), which stops DNS-rebinding pages
  from reading or writing through a spectator's browser.
- Spectator pages and the read API are GET only.
- Every write (POST) needs the operator: either the session cookie set by logging in with the token
  plus the CSRF token of that session (header `X-CSRF-Token` or form field `csrf_token`), or the
  header `Authorization: Bearer <token>` (scripts; a cross-site page cannot set that header).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from functools import wraps

from flask import abort, current_app, request, session

from webui.i18n import gettext as _

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses (best effort, no packets sent)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET: picks the outgoing interface, sends nothing
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [a for i, a in enumerate(found) if a not in found[:i] and not is_loopback(a)]


def allowed_hosts(config: dict) -> set[str]:
    bind = config["BIND_HOST"]
    hosts = set(LOOPBACK_NAMES) if is_loopback(bind) or bind in ("0.0.0.0", "::", "") else set()
    if bind in ("0.0.0.0", "::", ""):
        hosts.update(lan_addresses())
        hosts.add(socket.gethostname().lower())
    else:
        hosts.add(bind.lower())
    hosts.update(h.lower() for h in config.get("ALLOWED_HOSTS") or [])
    return hosts


def host_name(header: str) -> str:
    """'[::1]:8000' -> '::1', 'Example.org:80' -> 'example.org'."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def check_host() -> None:
    """before_request: refuse a Host header that does not name this server."""
    header = request.headers.get("Host", "")
    if host_name(header) not in current_app.config["_ALLOWED_HOSTS"]:
        abort(400, description=_("Unknown address %(host)s: open this page by the address the server printed.",
                                  host=repr(header)))


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def _token_ok(given: str | None) -> bool:
    token = current_app.config["OPERATOR_TOKEN"]
    return bool(token and given) and hmac.compare_digest(given.encode(), token.encode())


def is_operator() -> bool:
    return bool(session.get("operator")) and session.get("token_hash") == current_app.config["_TOKEN_HASH"]


def login(given: str | None) -> bool:
    if not _token_ok(given):
        return False
    session.clear()
    session["operator"] = True
    session["token_hash"] = current_app.config["_TOKEN_HASH"]
    csrf_token()
    return True


def operator_required(view):
    """A write: bearer token, or the operator session plus its CSRF token. Else 401/403."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            if not _token_ok(auth[7:].strip()):
                abort(401, description=_("Wrong operator token: copy the link printed by dominocam serve."))
            return view(*args, **kwargs)
        if not is_operator():
            abort(401, description=_("Log in first: open the operator link printed by dominocam serve."))
        given = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
        expected = session.get("csrf", "")
        if not (given and expected and hmac.compare_digest(given.encode(), expected.encode())):
            abort(403, description=_("The page is out of date: reload the operator page and try again."))
        return view(*args, **kwargs)

    return wrapped
