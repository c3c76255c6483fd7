"""`dominocam hub`: the event hub of many tables (issue 27). It subscribes to the event on an MQTT
broker, keeps every table's journal in its own SQLite, runs the tournament from the games the
tables finish and serves /event, /standings, /calls and /operator on waitress."""

from __future__ import annotations

import argparse
import errno
import logging
import secrets
import signal
import sys

log = logging.getLogger("dominocam.hub")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, metavar="mqtt://HOST[:PORT]", help="the event's MQTT broker")
    parser.add_argument("--event", required=True, help="the event's name (the tables' --event mqtt://HOST/EVENT)")
    parser.add_argument("--db", default="hub.db", help="the hub's SQLite (default hub.db)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs --token)")
    parser.add_argument("--port", type=int, default=8100, help="port (default 8100; 0 = any free port)")
    parser.add_argument("--token", default=None, help="operator token for /operator and every write (default: random)")
    parser.add_argument("--allowed-host", action="append", default=[],
                        help="extra host name accepted in the Host header (repeatable)")
    parser.add_argument("--event-user", default=None, help="the broker's user name")
    parser.add_argument("--event-password-file", default=None,
                        help="file whose first line is the broker's password (or set DOMINOCAM_EVENT_PASSWORD)")


def run(args: argparse.Namespace) -> int:
    from webui.event.app import create_hub_app
    from webui.event.credentials import CredentialsError, load_credentials
    from webui.event.hubstore import HubStore
    from webui.event.service import EventHub
    from webui.event.topics import Broker, EventAddressError, check_event_name
    from webui.security import is_loopback
    from webui.server import limit_malloc_arenas, make_server, server_url

    if not is_loopback(args.host) and not args.token:
        print(f"dominocam hub: listening on {args.host} lets other machines in; pass --token SECRET "
              "(the operator's password) or keep --host 127.0.0.1", file=sys.stderr)
        return 2
    try:
        broker = Broker.parse(args.broker)
        event = check_event_name(args.event)
        credentials = load_credentials(args.event_user, args.event_password_file)
        store = HubStore(args.db)
    except (EventAddressError, CredentialsError, ValueError) as exc:
        print(f"dominocam hub: {exc}", file=sys.stderr)
        return 2
    token = args.token or secrets.token_urlsafe(12)
    limit_malloc_arenas()  # as serve: a thread per page spreads freed buffers over many arenas
    hub = EventHub(store, broker, event, credentials)
    try:
        app = create_hub_app({"HUB": hub, "OPERATOR_TOKEN": token, "BIND_HOST": args.host, "PORT": args.port,
                              "ALLOWED_HOSTS": args.allowed_host})
        server = make_server(app, args.host, args.port)
    except OSError as exc:
        store.close()
        if exc.errno == errno.EADDRINUSE:
            print(f"dominocam hub: port {args.port} on {args.host} is busy: stop the other server or pass --port N",
                  file=sys.stderr)
        else:
            print(f"dominocam hub: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        store.close()
        print(f"dominocam hub: {exc}", file=sys.stderr)
        return 2
    hub.start()
    url = server_url(server, args.host)
    print(f"tables:     {url}event", flush=True)
    print(f"standings:  {url}standings", flush=True)
    print(f"call list:  {url}calls", flush=True)
    print(f"operator:   {url}operator?token={token}", flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        hub.stop()
        server.close()
        store.close()
    return 0
