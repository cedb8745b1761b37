"""The ASGI app `jingsuan app` serves: `st.App` for app/main.py with the access gate in front.

Started as `python -m streamlit run app/server/asgi.py ...` (Streamlit finds `app` and serves it
with uvicorn).  `JINGSUAN_ACCESS_CODE` set → every request needs the gate's cookie (app/gate.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402

from app.gate import GateMiddleware  # noqa: E402
from app.server.setup import build_gate, log_script_error  # noqa: E402

MAIN = ROOT / "app" / "main.py"

app = st.App(MAIN, middleware=[Middleware(GateMiddleware, gate=build_gate())], on_script_error=log_script_error)
