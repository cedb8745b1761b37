"""`jingsuan app`: access code beyond localhost, LAN link with the code, self-signed cert, a server that answers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from app.commands.serve import access_code, app_url, make_self_signed_cert, needs_access_code, streamlit_command


def test_access_code_only_beyond_localhost() -> None:
    assert not needs_access_code("127.0.0.1")
    assert not needs_access_code("localhost")
    assert needs_access_code("0.0.0.0")
    assert needs_access_code("192.168.1.20")


def test_access_code_is_kept_across_restarts(tmp_path: Path) -> None:
    first = access_code(tmp_path, None)
    assert len(first) >= 6
    assert access_code(tmp_path, None) == first
    assert access_code(tmp_path, "abc") == "abc"


def test_link_carries_the_code_and_scheme() -> None:
    assert app_url("192.168.1.5", 8501, False, "xyz") == "http://192.168.1.5:8501/?code=xyz"
    assert app_url("127.0.0.1", 9000, True, None) == "https://127.0.0.1:9000/"


def test_streamlit_runs_offline_and_headless() -> None:
    cmd = streamlit_command("0.0.0.0", 8501, None)
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[cmd.index("--server.headless") + 1] == "true"


def test_self_signed_certificate_is_made_once(tmp_path: Path) -> None:
    cert, key = make_self_signed_cert(tmp_path, "192.168.1.5")
    assert b"BEGIN CERTIFICATE" in cert.read_bytes()
    assert b"PRIVATE KEY" in key.read_bytes()
    before = cert.read_bytes()
    assert make_self_signed_cert(tmp_path, "192.168.1.5")[0].read_bytes() == before


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_jingsuan_app_serves_and_prints_the_address(tmp_path: Path) -> None:
    port = free_port()
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "app", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first and "code=" not in first
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    assert r.read() == b"ok"
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError("the app did not start within 60 s")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
