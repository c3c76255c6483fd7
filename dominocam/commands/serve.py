"""`dominocam serve`: the live assistant and its pages (spectator, overlay, operator), on waitress."""

from __future__ import annotations

import argparse
import errno
import logging
import secrets
import signal
import socket
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
                        help="address to listen on (default 127.0.0.1; any other needs --token)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free port)")
    parser.add_argument("--token", default=None,
                        help="operator token for /operator and every write (default: a random one)")
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


def _check_port(host: str, port: int) -> None:
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))


def run(args: argparse.Namespace) -> int:
    from webui.app import create_app
    from webui.security import is_loopback
    from webui.server import limit_malloc_arenas, make_server, server_url
    from webui.sources import SourceError, open_source

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not is_loopback(args.host) and not args.token:
        print(f"dominocam serve: listening on {args.host} lets other machines in; pass --token SECRET "
              "(the operator's password) or keep --host 127.0.0.1", file=sys.stderr)
        return 2
    token = args.token or secrets.token_urlsafe(12)
    limit_malloc_arenas()
    try:
        _check_port(args.host, args.port)  # before a demo spends time starting its pipeline
        pipeline = open_source(args.source, variant=args.variant, players=players, pace_s=args.pace,
                               moves=args.moves, model=args.model)
        app = create_app({
            "DB_PATH": args.db, "VARIANT": args.variant, "PLAYERS": players, "OPERATOR_TOKEN": token,
            "BIND_HOST": args.host, "PORT": args.port, "PIPELINE": pipeline,
            "PUBLIC_URL": args.public_url, "ALLOWED_HOSTS": args.allowed_host,
        })
        server = make_server(app, args.host, args.port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            print(f"dominocam serve: port {args.port} on {args.host} is busy (another dominocam?): "
                  "stop it or pass --port N", file=sys.stderr)
        else:
            print(f"dominocam serve: {exc}", file=sys.stderr)
        return 2
    except (SourceError, ValueError) as exc:
        print(f"dominocam serve: {exc}", file=sys.stderr)
        return 2
    url = server_url(server, args.host)
    app.config["PORT"] = server.effective_port
    # The URLs go to stdout (what the command is asked to print); logs go to stderr.
    print(f"spectators: {url}", flush=True)
    print(f"overlay:    {url}overlay", flush=True)
    print(f"operator:   {url}operator?token={token}", flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        app.extensions["dominocam"].stop_streams()
        server.close()
        app.extensions["dominocam"].close()
    return 0
