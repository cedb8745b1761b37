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

import pytest

from app.commands.serve import access_code, app_url, make_self_signed_cert, needs_access_code, streamlit_command
from app.gate import AccessCodeError

ROOT = Path(__file__).resolve().parents[2]


def test_access_code_only_beyond_localhost() -> None:
    assert not needs_access_code("127.0.0.1")
    assert not needs_access_code("localhost")
    assert needs_access_code("0.0.0.0")
    assert needs_access_code("192.168.1.20")


def test_access_code_is_kept_across_restarts_and_private(tmp_path: Path) -> None:
    first = access_code(tmp_path, None)
    assert len(first) >= 8
    assert access_code(tmp_path, None) == first
    assert (tmp_path / "access_code.txt").stat().st_mode & 0o077 == 0
    assert access_code(tmp_path, "abcdefgh") == "abcdefgh"


def test_weak_codes_are_refused_at_start(tmp_path: Path) -> None:
    for weak in ["2468", "麻将麻将麻将麻将麻将"]:
        with pytest.raises(AccessCodeError):
            access_code(tmp_path, weak)
    (tmp_path / "access_code.txt").write_text("2468\n")
    assert len(access_code(tmp_path, None)) >= 8  # a weak saved code is replaced
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "app", "--access-code", "2468", "--data-dir", str(tmp_path), "--no-qr"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "8" in result.stderr and not result.stdout


def test_link_carries_the_code_and_scheme() -> None:
    assert app_url("192.168.1.5", 8501, False, "xyz-code") == "http://192.168.1.5:8501/gate?code=xyz-code"
    assert app_url("192.168.1.5", 8501, False, "a+b/c&d=") == "http://192.168.1.5:8501/gate?code=a%2Bb%2Fc%26d%3D"
    assert app_url("127.0.0.1", 9000, True, None) == "https://127.0.0.1:9000/"


def test_streamlit_runs_offline_headless_behind_the_gate() -> None:
    cmd = streamlit_command("0.0.0.0", 8501, None)
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    assert cmd[cmd.index("--server.headless") + 1] == "true"
    assert cmd[cmd.index("--client.showErrorDetails") + 1] == "none"
    assert cmd[cmd.index("run") + 1].endswith("asgi.py")


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
    root = ROOT
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
        assert "手机打不开" in proc.stdout.readline() + proc.stdout.readline()  # no QR a phone cannot open
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


@pytest.mark.parametrize("port", ["99999", "-5", "0", "http"])
def test_a_port_outside_1_to_65535_is_refused_with_its_value_not_a_streamlit_traceback(port, capsys) -> None:
    from app.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["app", "--port", port, "--no-qr"])
    assert exit_.value.code == 2
    assert f"端口应是 1 到 65535 之间的整数：{port}" in capsys.readouterr().err


def test_a_models_folder_without_the_detector_is_refused_before_the_app_starts(tmp_path: Path, capsys) -> None:
    from app.cli import main

    assert main(["app", "--models", str(tmp_path), "--data-dir", str(tmp_path / "data"), "--no-qr"]) == 2
    captured = capsys.readouterr()
    assert f"找不到识别模型：{tmp_path / 'tiles.onnx'}" in captured.err and "jingsuan is running" not in captured.out
