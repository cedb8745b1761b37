"""Attacks on the access gate from the same Wi-Fi, each of which once got through or broke a request.

Driven through the ASGI middleware directly (no server): what a browser or a raw client would get.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.gate import COOKIE, Gate, GateMiddleware, safe_next

CODE = "table-Code-7"
HOST = "192.168.1.5:8501"


def call(
    method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"", query: str = ""
) -> tuple[int, dict[str, str], bool]:
    """(status, response headers, whether Streamlit was reached) for one HTTP request through the gate."""
    reached: list[str] = []
    sent: list[dict[str, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"streamlit"})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    hdrs = {"host": HOST, **(headers or {})}
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode("latin-1"),
        "headers": [(k.lower().encode(), v.encode("latin-1")) for k, v in hdrs.items()],
        "client": ("192.168.1.77", 50000),
    }
    gate = Gate(code=CODE, secret=b"s" * 32)
    asyncio.run(GateMiddleware(inner, gate)(scope, receive, send))
    start = sent[0]
    out = {bytes(k).decode(): bytes(v).decode("latin-1") for k, v in start["headers"]}
    return int(start["status"]), out, bool(reached)


def browser_resolves(location: str) -> str:
    """What a browser makes of a Location value: the URL standard drops tabs and newlines first."""
    return "".join(ch for ch in location if ch not in "\t\n\r").lstrip(" \x00")


@pytest.mark.parametrize(
    "target",
    ["/\t/evil.example/", "/\n/evil.example/", "/\r\n/evil.example/", " //evil.example/", "/\x00/evil.example"],
)
def test_next_with_a_tab_or_newline_never_sends_the_phone_to_another_site(target: str) -> None:
    """`next=/%09/evil.example/` once came back as `Location: /\\t/evil.example/`, i.e. //evil.example/."""
    assert not browser_resolves(safe_next(target)).startswith("//")
    status, headers, _ = call("POST", "/gate", body=f"code={CODE}&next={target}".encode())
    assert status == 303
    location = headers["location"]
    assert location.startswith("/") and not browser_resolves(location).startswith("//")
    assert all(33 <= ord(ch) <= 126 for ch in location)  # no header injection either


def test_a_local_path_with_chinese_comes_back_as_a_valid_header() -> None:
    status, headers, _ = call("GET", "/gate", query=f"code={CODE}&next=/%E8%B4%A6%E6%9C%AC")
    assert status == 303 and headers["location"] == "/%E8%B4%A6%E6%9C%AC"


@pytest.mark.parametrize("value", ["\u00b2\u00b3.abc", "1\u00b9.abc", "\u00bd.abc"])
def test_a_cookie_of_odd_digits_is_refused_not_a_server_error(value: str) -> None:
    """`jingsuan_gate=²³.x` (latin-1 digits `int()` rejects) once raised inside the gate: a 500 per request."""
    assert not Gate(code=CODE, secret=b"s" * 32).cookie_ok(value, 1000.0)
    status, _, reached = call("GET", "/_stcore/health", {"cookie": f"{COOKIE}={value}"})
    assert status == 401 and not reached


def test_a_form_with_many_fields_is_refused_not_a_server_error() -> None:
    """More than the form's field budget once raised ValueError (a 500) instead of a refusal."""
    body = "&".join(f"f{i}=x" for i in range(20)).encode()
    status, _, reached = call("POST", "/gate", body=body)
    assert 400 <= status < 500 and not reached


def local_only(kind: str, host: str, origin: str | None = None) -> bool:
    """Whether a request to a laptop-only server (no gate) with this Host reaches Streamlit."""
    reached: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])

    async def send(message: dict[str, Any]) -> None:
        pass

    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
    scope = {"type": kind, "method": "GET", "path": "/_stcore/stream", "headers": headers, "query_string": b""}
    asyncio.run(GateMiddleware(inner, None)(scope, None, send))
    return bool(reached)


def test_a_laptop_only_server_refuses_a_rebound_name() -> None:
    """DNS rebinding: a web page whose name now points at 127.0.0.1 is same-origin with itself, so it once
    drove the laptop-only app (no gate, no cookie) over the WebSocket; only loopback names are served."""
    assert not local_only("websocket", "evil.example:8501", "http://evil.example:8501")
    assert not local_only("http", "evil.example:8501")
    for host in ["localhost:8501", "127.0.0.1:8501", "[::1]:8501", "LOCALHOST"]:
        assert local_only("websocket", host, f"http://{host}") and local_only("http", host), host
