"""Take docs/spectator.png: the spectator page during the demo, with the browser tests' tooling.

    .venv/bin/python -m tests.webui.screenshot [--out docs/spectator.png] [--moves 14]
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from pathlib import Path

from tests.webui.conftest import ServerThread
from tests.webui.test_browser import ARGS, CHROMIUM
from webui.app import create_app
from webui.sources import open_source


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="docs/spectator.png")
    ap.add_argument("--moves", type=int, default=14, help="wait until this many moves are on the page")
    ap.add_argument("--timeout", type=float, default=240.0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        pipeline = open_source("demo", variant="bykovo", players=["North", "East", "South", "West"],
                               pace_s=0.4)
        app = create_app({"DB_PATH": f"{tmp}/demo.db", "PIPELINE": pipeline})
        server = ServerThread(app)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1600, "height": 900})
                page.goto(server.url + "/")
                page.wait_for_function("() => document.getElementById('video').naturalWidth > 0",
                                       timeout=args.timeout * 1000)
                page.wait_for_function(f"() => document.querySelectorAll('#moves li').length >= {args.moves}",
                                       timeout=args.timeout * 1000)
                time.sleep(1.0)
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=args.out)
                browser.close()
        finally:
            server.stop()
            app.extensions["dominocam"].close()
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
