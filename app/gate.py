"""The access gate in front of every request when the app is served on the LAN.

`jingsuan app` serves `app/server.py`, an `st.App` whose first middleware is `GateMiddleware`: no
request reaches Streamlit (pages, WebSocket, upload, media, static) without a signed, HttpOnly
cookie.  The cookie is set by the code form at `/gate` (the QR link is `/gate?code=...`).  Wrong
codes back off exponentially per client and lock it out after a limit; a global budget slows a
guesser that changes address.  WebSocket connections must also come from the page's own origin.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import html
import os
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from scoring.errors import JingsuanError

GATE_PATH = "/gate"
COOKIE = "jingsuan_gate"
COOKIE_DAYS = 30
MIN_CODE_LENGTH = 8
MAX_FORM_BYTES = 4096
MAX_TRACKED_CLIENTS = 10_000

Scope = dict[str, Any]


class AccessCodeError(JingsuanError):
    """An access code that is too weak or cannot be typed on every phone."""


def check_access_code(code: str) -> str:
    """`code` when it is at least 8 printable ASCII characters without spaces; else AccessCodeError."""
    if not all(33 <= ord(ch) <= 126 for ch in code):
        raise AccessCodeError(
            "访问码只能用英文字母、数字和符号（ASCII，无空格）",
            "the access code must be printable ASCII without spaces",
        )
    if len(code) < MIN_CODE_LENGTH:
        raise AccessCodeError(
            f"访问码太短：至少 {MIN_CODE_LENGTH} 个字符",
            f"the access code is too short: at least {MIN_CODE_LENGTH} characters",
        )
    return code


# ----------------------------------------------------------------------------- guessing


@dataclass
class Attempts:
    """Wrong codes one client has sent, and when the last one came."""

    failures: int = 0
    last: float = 0.0


@dataclass
class Limiter:
    """Exponential back-off after `free` wrong codes, a lockout of `lock_s` at `lock_at`."""

    free: int = 10
    lock_at: int = 20
    lock_s: float = 900.0
    forget_s: float = 900.0
    clients: OrderedDict[str, Attempts] = field(default_factory=OrderedDict)

    def delay_for(self, failures: int) -> float:
        """Seconds a client with `failures` wrong codes waits after its last one."""
        if failures < self.free:
            return 0.0
        if failures >= self.lock_at:
            return self.lock_s
        return float(min(2 ** (failures - self.free), self.lock_s))

    def wait(self, client: str, now: float) -> float:
        """Seconds `client` must wait before its next code is even looked at (0: now)."""
        att = self.clients.get(client)
        if att is None:
            return 0.0
        if now - att.last > max(self.forget_s, self.delay_for(att.failures)):
            del self.clients[client]
            return 0.0
        return max(0.0, att.last + self.delay_for(att.failures) - now)

    def failed(self, client: str, now: float) -> None:
        """Record a wrong code."""
        att = self.clients.pop(client, None) or Attempts()
        att.failures += 1
        att.last = now
        self.clients[client] = att
        while len(self.clients) > MAX_TRACKED_CLIENTS:
            self.clients.popitem(last=False)

    def succeeded(self, client: str) -> None:
        """A right code forgets the client's wrong ones."""
        self.clients.pop(client, None)


# ----------------------------------------------------------------------------- cookie


def load_secret(path: Path | None) -> bytes:
    """The cookie-signing secret kept in `path` (0600), so a restart keeps phones in; random when unsaved."""
    if path is not None:
        try:
            saved = path.read_text(encoding="ascii").strip()
            if len(saved) >= 32:
                path.chmod(0o600)
                return saved.encode()
        except (OSError, UnicodeDecodeError):
            pass
    fresh = secrets.token_hex(32)
    if path is not None:
        with contextlib.suppress(OSError):
            write_private(path, fresh + "\n")
    return fresh.encode()


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable by this user only (0600), whatever mode the old file had."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)


@dataclass
class Gate:
    """The access code, the signing key and the guess limiters of one server."""

    code: str
    secret: bytes
    https: bool = False
    per_client: Limiter = field(default_factory=Limiter)
    everyone: Limiter = field(default_factory=lambda: Limiter(free=100, lock_at=200, lock_s=300, forget_s=900))
    clock: Any = time.time

    @property
    def key(self) -> bytes:
        """Signing key: the saved secret and the code, so a new code logs every phone out."""
        return hashlib.sha256(self.secret + b"\0" + self.code.encode()).digest()

    def make_cookie(self, now: float) -> str:
        """`expiry.signature`."""
        expiry = str(int(now) + COOKIE_DAYS * 86400)
        return f"{expiry}.{hmac.new(self.key, expiry.encode(), hashlib.sha256).hexdigest()}"

    def cookie_ok(self, value: str, now: float) -> bool:
        """True for an unexpired cookie this gate signed."""
        expiry, _, sig = value.partition(".")
        if not (expiry.isascii() and expiry.isdigit()) or len(expiry) > 12 or int(expiry) < now:
            return False
        good = hmac.new(self.key, expiry.encode(), hashlib.sha256).hexdigest()
        return hmac.compare_digest(sig.encode("ascii", "replace"), good.encode())

    def set_cookie_header(self, now: float) -> str:
        """The Set-Cookie header line."""
        attrs = f"Max-Age={COOKIE_DAYS * 86400}; Path=/; HttpOnly; SameSite=Lax"
        return f"{COOKIE}={self.make_cookie(now)}; {attrs}{'; Secure' if self.https else ''}"

    def try_code(self, client: str, given: str) -> tuple[str, float]:
        """("ok" | "wrong" | "wait", seconds to wait): a code sent while the client must wait is not looked at."""
        now = float(self.clock())
        wait = max(self.per_client.wait(client, now), self.everyone.wait("*", now))
        if wait > 0:
            return "wait", wait
        if hmac.compare_digest(given.encode("utf-8", "replace"), self.code.encode()):
            self.per_client.succeeded(client)
            return "ok", 0.0
        self.per_client.failed(client, now)
        self.everyone.failed("*", now)
        return "wrong", max(self.per_client.wait(client, now), self.everyone.wait("*", now))


# ----------------------------------------------------------------------------- ASGI


def header(scope: Scope, name: bytes) -> str | None:
    """One request header, decoded as latin-1 (as HTTP defines)."""
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def cookie_value(scope: Scope) -> str:
    """Our cookie's value in the request, or ''."""
    for part in (header(scope, b"cookie") or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return ""


def same_origin(scope: Scope) -> bool:
    """True when the request has no Origin header or it names the host the request was sent to."""
    origin = header(scope, b"origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == (header(scope, b"host") or "").lower()


LOCATION_SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) not in "\\\"<>`")


def loopback_host(scope: Scope) -> bool:
    """True when the request names this laptop (localhost, 127.x, ::1) or no host at all.

    A laptop-only server has no gate: a web page whose name was rebound to 127.0.0.1 (DNS rebinding)
    would be same-origin with itself, so its Host is what tells it apart.
    """
    host = (header(scope, b"host") or "").strip().lower()
    if not host:
        return True
    name = host[1 : host.find("]")] if host.startswith("[") else host.rsplit(":", 1)[0]
    return name in ("localhost", "::1") or (name.startswith("127.") and name.replace(".", "").isdigit())


def safe_next(target: str) -> str:
    """A local path to go to after the gate (never another site), as printable ASCII for the Location header.

    Tabs, newlines and other control characters are refused: a browser drops them, so `/<TAB>/evil.example`
    would become `//evil.example`.  Other non-ASCII (a Chinese page name) is percent-encoded.
    """
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in target):
        return "/"
    if not target.startswith("/") or target.startswith("//") or "\\" in target or target.startswith(GATE_PATH):
        return "/"
    return quote(target, safe=LOCATION_SAFE)


async def send_response(send: Any, status: int, body: str, headers: list[tuple[str, str]] | None = None) -> None:
    """A small complete HTTP response."""
    data = body.encode("utf-8")
    hdrs = [
        ("content-type", "text/html; charset=utf-8"),
        ("content-length", str(len(data))),
        ("cache-control", "no-store"),
        ("x-frame-options", "DENY"),
        *(headers or []),
    ]
    await send(
        {"type": "http.response.start", "status": status, "headers": [(k.encode(), v.encode()) for k, v in hdrs]}
    )
    await send({"type": "http.response.body", "body": data})


def form_page(message: str = "", next_path: str = "/") -> str:
    """The code form (Chinese first, English under it)."""
    note = f'<p style="color:#b00">{html.escape(message)}</p>' if message else ""
    return (
        '<!doctype html><html lang="zh"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>精算</title></head>'
        '<body style="font-family:sans-serif;max-width:28em;margin:3em auto;padding:0 1em">'
        "<h1>🀄 精算</h1><p>请输入访问码（在电脑的终端里，或扫二维码）<br>Enter the access code</p>"
        f'{note}<form method="post" action="{GATE_PATH}">'
        f'<input type="hidden" name="next" value="{html.escape(next_path)}">'
        '<input name="code" type="password" autocomplete="current-password" autofocus style="font-size:1.2em">'
        ' <button type="submit" style="font-size:1.2em">进入 / Enter</button></form></body></html>'
    )


async def read_form(receive: Any) -> dict[str, str] | None:
    """The urlencoded body of a POST, or None when it is larger than MAX_FORM_BYTES."""
    body = b""
    more = True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if len(body) > MAX_FORM_BYTES:
            return None
    try:
        fields = parse_qs(body.decode("latin-1"), max_num_fields=8)
    except ValueError:  # more fields than a code form has
        return None
    return {k: v[0] for k, v in fields.items()}


class GateMiddleware:
    """Pure ASGI middleware: only requests with the gate's cookie pass; `/gate` takes the code."""

    def __init__(self, app: Any, gate: Gate | None = None) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "websocket" and not same_origin(scope):
            await send({"type": "websocket.close", "code": 1008})
            return
        gate = self.gate
        if gate is None:
            if loopback_host(scope):
                await self.app(scope, receive, send)
            elif kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await send_response(send, 403, "this laptop only / 仅限本机", [("connection", "close")])
            return
        if kind == "http" and scope.get("path") == GATE_PATH:
            await self.gate_page(gate, scope, receive, send)
            return
        if gate.cookie_ok(cookie_value(scope), float(gate.clock())):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        elif scope.get("method") in ("GET", "HEAD") and "text/html" in (header(scope, b"accept") or ""):
            target = safe_next(scope.get("path", "/"))
            await send_response(send, 303, "", [("location", f"{GATE_PATH}?{urlencode({'next': target})}")])
        else:
            await send_response(send, 401, "access code required / 需要访问码", [("connection", "close")])

    async def gate_page(self, gate: Gate, scope: Scope, receive: Any, send: Any) -> None:
        """GET: the form (or `?code=` from the QR link); POST: the typed code."""
        query = {k: v[0] for k, v in parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1")).items()}
        if scope.get("method") == "POST":
            if not same_origin(scope):
                await send_response(send, 403, "forbidden", [("connection", "close")])
                return
            fields = await read_form(receive)
            if fields is None:
                await send_response(send, 413, "too large", [("connection", "close")])
                return
        elif scope.get("method") in ("GET", "HEAD"):
            fields = query
        else:
            await send_response(send, 405, "method not allowed", [("allow", "GET, POST")])
            return
        next_path = safe_next(fields.get("next", "/"))
        given = fields.get("code")
        if given is None:
            await send_response(send, 200, form_page("", next_path))
            return
        client = (scope.get("client") or ("?", 0))[0]
        verdict, wait = gate.try_code(str(client), given)
        if verdict == "ok":
            cookie = gate.set_cookie_header(float(gate.clock()))
            await send_response(send, 303, "", [("location", next_path), ("set-cookie", cookie)])
            return
        seconds = int(wait + 0.999)
        if verdict == "wait":
            message = f"尝试太多次，请等 {seconds} 秒再试 / too many tries, wait {seconds} s"
            await send_response(send, 429, form_page(message, next_path), [("retry-after", str(seconds))])
            return
        await send_response(send, 401, form_page("访问码不对 / wrong access code", next_path))
