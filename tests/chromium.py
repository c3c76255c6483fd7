"""Debian's chromium for the browser tests: its path, its flags on this closed network, the skip
that says what to install, and one module-scoped browser (never `playwright install`)."""
from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
# without the background-networking flags chromium's own connections are refused by the closed network
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-quic", "--no-first-run"]

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason="BROWSER TESTS NOT RUN: Debian's chromium is missing; run `make browser` "
                              "(apt-get install chromium) first"),
]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
