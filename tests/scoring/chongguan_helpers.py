"""Small builders of 冲关 round documents for the hand-level tests."""

from __future__ import annotations

from typing import Any


def round_doc(hand: str, tile: str, *, seat: str = "S", frm: str = "self", indicator: str = "1m",
              melds: list[dict[str, Any]] | None = None, others: dict[str, Any] | None = None,
              rules: str = "xingguo", options: dict[str, Any] | None = None, **win: Any) -> dict[str, Any]:
    """A round where `seat` wins with `hand` + `tile`; the other seats give 精 counts only
    (N holds one 副精 so that no test wins 霸胡 by accident)."""
    players: dict[str, Any] = {s: {"jing": {"zheng": 0, "fu": 1 if s == "N" else 0}} for s in "ESWN"}
    if seat == "N":
        players["E"] = {"jing": {"zheng": 0, "fu": 1}}
    players[seat] = {"hand": hand, "melds": melds or []}
    players.update(others or {})
    return {
        "rules": rules, "options": options or {}, "dealer": "E", "indicator": indicator, "players": players,
        "win": {"seat": seat, "tile": tile, "from": frm, **win},
    }


def hu_paid(settlement: dict[str, Any]) -> dict[str, int]:
    """What each loser paid for the hand (胡计子)."""
    return {p: -v for p, v in settlement["deltas"]["hu"].items() if v < 0}
