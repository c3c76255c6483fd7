"""Take the README's screenshots: the spectator page during the demo, in Russian, at 1920x1080,
1280x720 and on a phone (390x844), with the browser tests' tooling.

    .venv/bin/python -m tests.webui.screenshot [--out-dir docs] [--moves 14] [--lang ru]
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
from webui.source_pipeline import pipeline_for_source

SIZES = {"1920x1080": (1920, 1080, False), "1280x720": (1280, 720, False), "phone": (390, 844, True)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", default="docs")
    ap.add_argument("--moves", type=int, default=14, help="wait until this many moves are on the page")
    ap.add_argument("--lang", default="ru", choices=("ru", "en"))
    ap.add_argument("--timeout", type=float, default=240.0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    from playwright.sync_api import sync_playwright

    log = logging.getLogger("screenshot")
    with tempfile.TemporaryDirectory() as tmp:
        pipeline = pipeline_for_source("demo", variant="bykovo", players=["Анна", "Борис", "Вера", "Глеб"], pace_s=0.4)
        app = create_app({"DB_PATH": f"{tmp}/demo.db", "PIPELINE": pipeline, "LANG": args.lang})
        server = ServerThread(app)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                pages = {}
                for name, (w, h, phone) in SIZES.items():
                    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=phone,
                                                  device_scale_factor=2 if phone else 1)
                    pages[name] = context.new_page()
                    pages[name].goto(server.url + "/")
                first = pages["1920x1080"]
                first.wait_for_function("() => document.getElementById('video').naturalWidth > 0",
                                        timeout=args.timeout * 1000)
                first.wait_for_function(f"() => document.querySelectorAll('#moves li').length >= {args.moves}",
                                        timeout=args.timeout * 1000)
                time.sleep(1.0)
                Path(args.out_dir).mkdir(parents=True, exist_ok=True)
                for name, page in pages.items():
                    out = Path(args.out_dir) / f"spectator-{name}.png"
                    page.screenshot(path=str(out))
                    log.info("%s", out)
                browser.close()
        finally:
            server.stop()
            app.extensions["dominocam"].close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
