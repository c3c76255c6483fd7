"""`dominocam serve`: the live assistant and its pages (spectator, overlay, operator), on waitress."""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sqlite3
import sys

log = logging.getLogger("dominocam.serve")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default="demo",
                        help="demo (default), a camera index (0), /dev/videoN, a video file, rtsp://..., "
                             "a folder of frames, a game record FILE.jsonl to play back, or none")
    parser.add_argument("--variant", default="bykovo", help="rule set of a new game (default bykovo)")
    parser.add_argument("--players", default="North,East,South,West",
                        help="players of a new game in clockwise seat order, comma-separated")
    parser.add_argument("--db", default="dominocam.db", help="SQLite journal (default dominocam.db)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones in the room open the pages)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free port)")
    parser.add_argument("--token", default=None,
                        help="operator token for /operator and every write (default: the one kept with the "
                             "journal, so the referee's link survives a restart; a random one the first time)")
    parser.add_argument("--new-token", action="store_true",
                        help="replace the kept operator token with a new random one (old links stop working)")
    parser.add_argument("--lang", choices=("ru", "en"), default="ru",
                        help="language of the pages unless a page asks with ?lang= (default ru)")
    parser.add_argument("--public-url", default=None, help="address shown in the QR code")
    parser.add_argument("--allowed-host", action="append", default=[],
                        help="extra host name accepted in the Host header (repeatable)")
    parser.add_argument("--model", default=None,
                        help="tile detector (ONNX) for a camera or video source (default: models/tiles-obb.int8.onnx, "
                             "the int8 copy; models/tiles-obb.onnx for the float model)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between moves when playing a record back (default 1.0)")
    parser.add_argument("--moves", type=int, default=None,
                        help="play back only the first N events of a record")
    event = parser.add_argument_group("event of many tables (issue 27; see the README)")
    event.add_argument("--event", default=None, metavar="mqtt://HOST[:PORT]/EVENT",
                       help="publish this table's journal and state to the event's MQTT broker")
    event.add_argument("--table", type=int, default=None, help="this table's number in the event (1, 2, ...)")
    event.add_argument("--event-user", default=None, help="the broker's user name")
    event.add_argument("--event-password-file", default=None,
                       help="file whose first line is the broker's password "
                            "(or set DOMINOCAM_EVENT_PASSWORD)")


def _check_port(host: str, port: int) -> None:
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))


def _event_args(args: argparse.Namespace):
    """(address, table, credentials) for --event, None without it, or a message saying what to fix."""
    if args.event is None:
        if args.table is not None or args.event_user or args.event_password_file:
            return "--table, --event-user and --event-password-file need --event mqtt://HOST/EVENT"
        return None
    from webui.event.credentials import CredentialsError, load_credentials
    from webui.event.topics import EventAddress, EventAddressError

    try:
        address = EventAddress.parse(args.event)
        if args.table is None or args.table < 1:
            return "--event needs this table's number: pass --table N (1, 2, ...)"
        return address, args.table, load_credentials(args.event_user, args.event_password_file)
    except (EventAddressError, CredentialsError) as exc:
        return str(exc)


def kept_token(db: str, given: str | None, new: bool) -> str:
    """The operator token kept with the journal (webui/token.py)."""
    from webui.store import EventStore
    from webui.token import operator_token

    store = EventStore(db)
    try:
        return operator_token(store, given, new)
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    from webui.app import create_app
    from webui.server import (
        lan_urls,
        limit_malloc_arenas,
        make_server,
        serve_until_signalled,
        server_url,
    )
    from webui.source_pipeline import pipeline_for_source

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    try:
        token = kept_token(args.db, args.token, args.new_token)
    except (OSError, sqlite3.Error) as exc:
        print(f"dominocam serve: cannot open the journal {args.db}: {exc}", file=sys.stderr)
        return 2
    event_args = _event_args(args)
    if isinstance(event_args, str):
        print(f"dominocam serve: {event_args}", file=sys.stderr)
        return 2
    limit_malloc_arenas()
    from webui.child_guard import install as guard_children

    guard_children()  # the reading workers die with the server, whatever kills it
    try:
        _check_port(args.host, args.port)  # before a demo spends time starting its pipeline
        pipeline = pipeline_for_source(args.source, variant=args.variant, players=players, pace_s=args.pace,
                                       moves=args.moves, model=args.model)
        app = create_app({
            "DB_PATH": args.db, "VARIANT": args.variant, "PLAYERS": players, "OPERATOR_TOKEN": token,
            "BIND_HOST": args.host, "PORT": args.port, "PIPELINE": pipeline,
            "PUBLIC_URL": args.public_url, "ALLOWED_HOSTS": args.allowed_host, "LANG": args.lang,
        })
        server = make_server(app, args.host, args.port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            print(f"dominocam serve: port {args.port} on {args.host} is busy (another dominocam?): "
                  "stop it or pass --port N", file=sys.stderr)
        else:
            print(f"dominocam serve: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # vision.live.sources.SourceError among them: the message says what to do
        print(f"dominocam serve: {exc}", file=sys.stderr)
        return 2
    url = server_url(server, args.host)
    app.config["PORT"] = server.effective_port
    others = lan_urls(server, args.host)[1:]

    def print_urls() -> None:
        # The URLs go to stdout (what the command is asked to print); logs go to stderr. Printed
        # once Ctrl-C is caught: a script that stops the server as soon as it reads them (the
        # lifecycle test) found it still starting, and it hung.
        print(f"spectators: {url}", flush=True)
        print(f"overlay:    {url}overlay", flush=True)
        print(f"operator:   {url}operator?token={token}", flush=True)
        for other in others:
            print(f"also:       {other}", flush=True)

    publisher = None
    if event_args is not None:
        from webui.event.table import attach_publisher

        address, table, credentials = event_args
        publisher = attach_publisher(app, address, table, credentials, args.public_url or url)

    try:
        # Ctrl-C / SIGTERM: open pages are ended, then the server, within about 2 s, quietly
        serve_until_signalled(server, app.extensions["dominocam"].stop_streams, ready=print_urls)
    finally:
        if publisher is not None:
            publisher.stop()
        app.extensions["dominocam"].close()
    return 0
