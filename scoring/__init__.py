"""jingsuan scoring core: pure Python, standard library only (plus PyYAML for reading files).

    >>> from scoring import settle
    >>> settle({"rules": "xingguo", ...}).to_dict()
"""

from __future__ import annotations

from typing import Any

from scoring.errors import JingsuanError, RoundError, TileError
from scoring.settlement import SEATS, Payment, Settlement
from scoring.systems import settler

#: The errors a malformed field of a round document can raise inside a rule system's settle.
MALFORMED_FIELD = (TypeError, KeyError, AttributeError, IndexError, ValueError, OverflowError, RecursionError)

__all__ = ["JingsuanError", "Payment", "RoundError", "SEATS", "Settlement", "TileError", "settle"]


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle one round document (round-format.md) under its `rules`; refusals raise RoundError."""
    if not isinstance(doc, dict):
        raise RoundError("牌局描述必须是一个对象（JSON/YAML 映射）", "a round must be a JSON/YAML mapping")
    rules = doc.get("rules", "xingguo") or "xingguo"
    settle_rules = settler(str(rules))
    try:
        return settle_rules(doc)
    except JingsuanError:
        raise
    except MALFORMED_FIELD as exc:
        # A field of the wrong type or shape that the round validator let through: still a refused
        # input with a message (the CLI, the ledger's import and the app all show it), never a traceback.
        raise RoundError(
            f"牌局描述里有格式不对的字段（{type(exc).__name__}）",
            f"a field of the round is malformed ({type(exc).__name__}: {exc})",
        ) from exc
