"""jingsuan scoring core: pure Python, standard library only (plus PyYAML for reading files).

    >>> from scoring import settle
    >>> settle({"rules": "xingguo", ...}).to_dict()
"""

from __future__ import annotations

from typing import Any

from scoring.errors import JingsuanError, RoundError, TileError
from scoring.settlement import SEATS, Payment, Settlement
from scoring.systems import settler

__all__ = ["JingsuanError", "Payment", "RoundError", "SEATS", "Settlement", "TileError", "settle"]


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle one round document (round-format.md) under its `rules`; refusals raise RoundError."""
    if not isinstance(doc, dict):
        raise RoundError("牌局描述必须是一个对象（JSON/YAML 映射）", "a round must be a JSON/YAML mapping")
    rules = doc.get("rules", "xingguo") or "xingguo"
    return settler(str(rules))(doc)
