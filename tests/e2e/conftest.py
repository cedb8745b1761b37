"""Fixtures of the browser tests (helpers in tests/e2e/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's headless chromium through Playwright (no browser download)."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is missing: run scripts/install_test_system_deps.sh (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
