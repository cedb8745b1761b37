"""The access gate: codes, back-off, cookie; and a LAN test against a running `jingsuan app` on loopback.

The live part serves on 127.0.0.2 (loopback, but not "localhost", so the gate is on) and checks
that without the cookie nothing of Streamlit answers (pages, WebSocket, upload, media, static),
that a 40 MB upload leaves the server's memory where it was, that guessing is slowed, and that
no connection or name lookup leaves the machine while the app runs (issue 21, bug 9).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.gate import (
    AccessCodeError,
    Gate,
    GateMiddleware,
    Limiter,
    check_access_code,
    load_secret,
    safe_next,
)

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.2"
CODE = "table-Code-7"


# ----------------------------------------------------------------------------- units


def test_weak_or_foreign_codes_are_refused() -> None:
    assert check_access_code("abcdefgh") == "abcdefgh"
    for bad in ["2468", "short7!", "麻将麻将麻将麻将", "with space in", "ab\tcdefgh"]:
        with pytest.raises(AccessCodeError):
            check_access_code(bad)


def test_back_off_grows_and_locks_out() -> None:
    lim = Limiter(free=10, lock_at=20, lock_s=900)
    for i in range(10):
        assert lim.wait("a", 100.0 + i) == 0
        lim.failed("a", 100.0 + i)
    assert lim.wait("a", 109.5) > 0  # the 11th within a minute waits
    assert lim.wait("b", 109.5) == 0  # another client does not
    for i in range(10):
        lim.failed("a", 200.0 + i)
    assert lim.wait("a", 300.0) > 500  # locked out
    assert lim.wait("a", 209.0 + 901) == 0  # and let in again after the lockout


def test_right_code_during_a_wait_is_not_looked_at() -> None:
    now = [1000.0]
    gate = Gate(code=CODE, secret=b"s" * 32, clock=lambda: now[0])
    for _ in range(10):
        assert gate.try_code("1.2.3.4", "wrong-guess")[0] == "wrong"
    verdict, wait = gate.try_code("1.2.3.4", CODE)
    assert verdict == "wait" and wait > 0
    now[0] += wait + 0.01
    assert gate.try_code("1.2.3.4", CODE)[0] == "ok"


def test_cookie_is_signed_and_expires() -> None:
    gate = Gate(code=CODE, secret=b"k" * 32)
    value = gate.make_cookie(1000.0)
    assert gate.cookie_ok(value, 1001.0)
    assert not gate.cookie_ok(value, 1000.0 + 31 * 86400)
    expiry, _, sig = value.partition(".")
    assert not gate.cookie_ok(f"{int(expiry) + 1}.{sig}", 1001.0)
    assert not Gate(code="another-code", secret=b"k" * 32).cookie_ok(value, 1001.0)
    assert "HttpOnly" in gate.set_cookie_header(1000.0)


def test_next_never_leaves_the_site() -> None:
    assert safe_next("/ledger") == "/ledger"
    for bad in ["//evil.example/", "https://evil.example/", "/\\evil", "/gate?code=x"]:
        assert safe_next(bad) == "/"


def test_secret_is_private_and_kept(tmp_path: Path) -> None:
    first = load_secret(tmp_path / "gate_secret")
    assert (tmp_path / "gate_secret").stat().st_mode & 0o077 == 0
    assert load_secret(tmp_path / "gate_secret") == first


def test_cross_origin_websocket_is_refused_before_streamlit() -> None:
    import asyncio

    reached: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "websocket",
        "path": "/_stcore/stream",
        "headers": [(b"host", b"192.168.1.5:8501"), (b"origin", b"http://evil.example")],
    }
    asyncio.run(GateMiddleware(inner, None)(scope, None, send))
    assert not reached and sent[0]["type"] == "websocket.close"


# ----------------------------------------------------------------------------- bug 9: no outside request


def test_streamlit_banner_never_looks_up_the_external_ip(monkeypatch: pytest.MonkeyPatch) -> None:
    """With our flags the banner is off; without them, Streamlit on 0.0.0.0 asks the internet (the control)."""
    from streamlit import config, net_util
    from streamlit.web import bootstrap

    from app.commands.serve import streamlit_command

    cmd = streamlit_command("0.0.0.0", 8501, None)
    flags = {cmd[i][2:]: cmd[i + 1] for i in range(len(cmd)) if cmd[i].startswith("--")}
    assert flags["logger.hideWelcomeMessage"] == "true"

    def lookup() -> str:
        raise AssertionError("external IP looked up")

    monkeypatch.setattr(net_util, "get_external_ip", lookup)
    monkeypatch.setattr(net_util, "get_internal_ip", lambda: "192.168.1.5")
    original = config.get_option
    values = {"logger.hideWelcomeMessage": True, "server.headless": True, "server.address": "0.0.0.0"}
    monkeypatch.setattr(config, "get_option", lambda key: values.get(key, original(key)))
    monkeypatch.setattr(config, "is_manually_set", lambda key: key == "server.address")
    bootstrap._print_url(is_running_hello=False)  # our configuration: no lookup
    values["logger.hideWelcomeMessage"] = False
    with pytest.raises(AssertionError, match="external IP"):
        bootstrap._print_url(is_running_hello=False)


# ----------------------------------------------------------------------------- live server

RECORDER = r"""
import os, socket
_LOG = os.environ["JINGSUAN_NET_LOG"]
_LOCAL = ("127.", "::1", "localhost", "0.0.0.0")
with open(_LOG + ".loaded", "a") as _fh:
    _fh.write(f"{os.getpid()}\n")

def _note(what):
    with open(_LOG, "a") as fh:
        fh.write(what + "\n")

def _local(host):
    return not host or str(host).startswith(_LOCAL)

def _note_remote_streams(name):
    original = getattr(socket.socket, name)
    def watched(self, address):
        if self.type == socket.SOCK_STREAM and isinstance(address, tuple) and not _local(address[0]):
            _note(f"{name} {address}")
        return original(self, address)
    setattr(socket.socket, name, watched)

_note_remote_streams("connect")
_note_remote_streams("connect_ex")

_sendto = socket.socket.sendto
def sendto(self, data, *args):
    if not _local(args[-1][0]):
        _note(f"sendto {args[-1]}")
    return _sendto(self, data, *args)
socket.socket.sendto = sendto

_getaddrinfo = socket.getaddrinfo
def getaddrinfo(host, *args, **kwargs):
    name = host.decode() if isinstance(host, bytes) else str(host)
    if not _local(name) and not name.replace(".", "").isdigit():
        _note(f"lookup {name}")
    return _getaddrinfo(host, *args, **kwargs)
socket.getaddrinfo = getaddrinfo
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def child_pids(pid: int) -> list[int]:
    """All descendants of `pid` (Linux /proc)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            out += [kid, *child_pids(kid)]
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


class Server:
    """A running `jingsuan app --host 127.0.0.2` and a raw HTTP client for it."""

    def __init__(self, proc: subprocess.Popen[str], port: int, net_log: Path) -> None:
        self.proc, self.port, self.net_log = proc, port, net_log

    def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=20)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()

    def websocket_status(self, cookie: str = "", origin: str | None = None) -> int:
        """The status line's code of a WebSocket handshake on Streamlit's stream."""
        lines = [
            "GET /_stcore/stream HTTP/1.1",
            f"Host: {HOST}:{self.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Protocol: streamlit",
        ]
        if origin:
            lines.append(f"Origin: {origin}")
        if cookie:
            lines.append(f"Cookie: {cookie}")
        with socket.create_connection((HOST, self.port), timeout=20) as s:
            s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
            first = s.recv(4096).split(b"\r\n", 1)[0].decode()
        return int(first.split()[1])

    def server_pid(self) -> int:
        """The process that serves (the child `jingsuan app` starts)."""
        kids = child_pids(self.proc.pid)
        return kids[-1] if kids else self.proc.pid


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("lan")
    (tmp / "site").mkdir()
    (tmp / "site" / "sitecustomize.py").write_text(textwrap.dedent(RECORDER))
    net_log = tmp / "net.log"
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": f"{tmp / 'site'}{os.pathsep}{ROOT}",
        "JINGSUAN_NET_LOG": str(net_log),
        "XDG_CONFIG_HOME": str(tmp / "config"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "app", "--host", HOST, "--port", str(port), "--data-dir", str(tmp / "data"),
         "--access-code", CODE, "--no-qr"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True,
    )  # fmt: skip
    srv = Server(proc, port, net_log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if srv.request("GET", "/gate")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise AssertionError("the app did not start within 60 s")
            time.sleep(0.5)
        yield srv
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def login(server: Server) -> str:
    """The cookie the QR link sets."""
    status, headers, _ = server.request("GET", f"/gate?code={CODE}")
    assert status == 303 and headers["location"] == "/"
    return headers["set-cookie"].split(";", 1)[0]


def test_without_the_cookie_nothing_of_streamlit_answers(server: Server) -> None:
    html = {"Accept": "text/html"}
    status, headers, body = server.request("GET", "/", html)
    assert status == 303 and headers["location"].startswith("/gate") and b"streamlit" not in body.lower()
    assert server.request("GET", "/ledger", html)[0] == 303
    for method, path in [
        ("GET", "/"),
        ("GET", "/_stcore/health"),
        ("GET", "/_stcore/host-config"),
        ("GET", "/media/0123456789abcdef.csv"),
        ("GET", "/media/0123456789abcdef.jpg"),
        ("GET", "/static/js/index.js"),
        ("GET", "/favicon.png"),
        ("PUT", "/_stcore/upload_file/some-session/some-file"),
    ]:
        assert server.request(method, path, body=b"x" if method == "PUT" else None)[0] == 401, path
    assert server.websocket_status() == 403
    assert server.websocket_status(cookie="jingsuan_gate=99999999999.forged") == 403


def test_a_40_mb_upload_without_the_cookie_is_not_kept(server: Server) -> None:
    pid = server.server_pid()
    before = rss_mb(pid)
    chunk = b"\0" * (1 << 20)
    for _ in range(3):
        with socket.create_connection((HOST, server.port), timeout=20) as s:
            head = (
                f"PUT /_stcore/upload_file/sess/file HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n"
                f"Content-Type: application/octet-stream\r\nContent-Length: {40 << 20}\r\n\r\n"
            )
            s.sendall(head.encode())
            try:
                for _ in range(40):
                    s.sendall(chunk)
            except OSError:
                pass  # the server answered 401 and closed: it did not wait for the body
            reply = s.recv(64)
        assert reply.startswith(b"HTTP/1.1 401"), reply
    time.sleep(0.5)
    assert rss_mb(pid) - before < 15


def test_the_qr_link_lets_in_and_a_reload_keeps_the_session(server: Server) -> None:
    cookie = login(server)
    for _ in range(2):  # a reload
        status, _, body = server.request("GET", "/", {"Cookie": cookie, "Accept": "text/html"})
        assert status == 200 and b"<html" in body.lower()
    assert server.request("GET", "/_stcore/health", {"Cookie": cookie})[0] == 200
    assert server.websocket_status(cookie=cookie, origin=f"http://{HOST}:{server.port}") == 101
    assert server.websocket_status(cookie=cookie, origin="http://evil.example") == 403


def test_guessing_is_slowed_and_the_right_code_waits_too(server: Server) -> None:
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for i in range(10):
        assert server.request("POST", "/gate", form, f"code=guess{i:04d}".encode())[0] == 401
    status, headers, body = server.request("POST", "/gate", form, b"code=guess9999")
    assert status == 429 and int(headers["retry-after"]) >= 1
    status, headers, _ = server.request("POST", "/gate", form, f"code={CODE}".encode())
    assert status == 429 and "set-cookie" not in headers
    time.sleep(int(headers["retry-after"]) + 0.2)
    status, headers, _ = server.request("POST", "/gate", form, f"code={CODE}&next=/ledger".encode())
    assert status == 303 and headers["location"] == "/ledger" and "HttpOnly" in headers["set-cookie"]


def test_nothing_left_the_machine(server: Server) -> None:
    """Bug 9: no connection and no name lookup beyond loopback while the app started and served."""
    cookie = login(server)
    server.websocket_status(cookie=cookie, origin="http://laptop.example:8501")
    time.sleep(0.5)
    loaded = Path(f"{server.net_log}.loaded").read_text().split()
    assert len(loaded) >= 2  # the recorder watched both `jingsuan app` and the server it starts
    log = server.net_log.read_text() if server.net_log.exists() else ""
    assert not re.search(r"\S", log), log


def test_a_forged_x_forwarded_for_does_not_buy_more_guesses(server: Server) -> None:
    """Uvicorn believes X-Forwarded-For from loopback by default: each forged address got 10 fresh guesses.

    Last in this file: it leaves this client waiting.
    """
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    for i in range(10):
        headers = {**form, "X-Forwarded-For": "10.9.9.9", "X-Forwarded-Proto": "https"}
        assert server.request("POST", "/gate", headers, f"code=xff{i:04d}".encode())[0] == 401
    assert server.request("POST", "/gate", {**form, "X-Forwarded-For": "10.9.9.10"}, b"code=xff9999")[0] == 429
