"""Shared parts of the browser tests: start the app in a subprocess, and drive Streamlit widgets by key."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def app_server(data_dir: Path, env: Mapping[str, str] | None = None, start_timeout: float = 60) -> Iterator[str]:
    """Run `jingsuan app` on a free port with its ledger in `data_dir` (plus `env`); yields the base URL."""
    port = free_port()
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    full_env.pop("JINGSUAN_ACCESS_CODE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "app", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir), "--no-qr"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=full_env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError(f"the app did not start within {start_timeout:.0f} s")
        yield f"http://127.0.0.1:{port}/"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def tap(page: object, key: str) -> None:
    """Click the Streamlit button with widget key `key`."""
    page.locator(f".st-key-{key} button").first.click()  # type: ignore[attr-defined]


def choose(page: object, key: str, text: str) -> None:
    """Pick an option of a Streamlit selectbox by typing it."""
    box = page.locator(f".st-key-{key} input")  # type: ignore[attr-defined]
    box.click()
    box.fill(text)
    page.keyboard.press("Enter")  # type: ignore[attr-defined]


def wait_for_rerun(page: object, timeout_ms: int = 20000) -> None:
    """Wait until Streamlit's 'running' indicator is gone."""
    page.wait_for_timeout(150)  # type: ignore[attr-defined]
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=timeout_ms)  # type: ignore[attr-defined]
