"""Shared helpers for the 国标 tests: build a round document from a compact description."""

from __future__ import annotations

from typing import Any

from scoring.gb.calculator import calculate, fan_list
from scoring.gb.round_input import gb_hand
from scoring.round import parse_simple_round

MELD_TYPES = {"chi", "peng", "gang", "angang", "bugang"}


def melds_of(spec: str, seat: str = "S") -> list[dict[str, Any]]:
    """``"chi:234m peng:555p angang:1111z"`` → meld mappings (chi from 上家, others from N)."""
    prev = {"E": "N", "S": "E", "W": "S", "N": "W"}[seat]
    out = []
    for item in spec.split():
        kind, tiles = item.split(":")
        assert kind in MELD_TYPES
        m: dict[str, Any] = {"type": kind, "tiles": tiles}
        if kind == "chi":
            m["from"] = prev
        elif kind != "angang":
            m["from"] = "N" if seat != "N" else "W"
        out.append(m)
    return out


def gb_doc(hand: str, win: str, melds: str = "", zimo: bool = False, **flags: Any) -> dict[str, Any]:
    """A ``rules: gb`` round where S (non-dealer; 门风 南 by default) wins on ``win``."""
    return {
        "rules": "gb",
        "dealer": "E",
        "players": {"S": {"hand": hand, "melds": melds_of(melds)}},
        "win": {"seat": "S", "tile": win, "from": "self" if zimo else "W", **flags},
    }


def fans_of(hand: str, win: str, melds: str = "", zimo: bool = False, **flags: Any) -> dict[str, int]:
    """{fan name: 番} of the winner's best reading (no 8-番 minimum here)."""
    rnd = parse_simple_round(gb_doc(hand, win, melds, zimo, **flags))
    return dict(fan_list(calculate(gb_hand(rnd))))


BAD_VALUES: list[Any] = [None, 1, -1, 3.5, True, "", "x", "9z", [], {}, ["1m"], "E", "self", [1, 2], "1m2", 10]


def mutated_docs(base: dict[str, Any], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` copies of ``base`` with one field replaced by a wrong value or deleted."""
    import copy
    import random

    def paths(d: Any, pre: tuple = ()) -> list[tuple]:
        out = [pre]
        if isinstance(d, dict):
            for k, v in d.items():
                out += paths(v, (*pre, k))
        return out

    rng = random.Random(seed)
    docs = []
    for _ in range(n):
        doc = copy.deepcopy(base)
        p = rng.choice(paths(doc)[1:])
        target = doc
        for k in p[:-1]:
            target = target[k]
        if rng.random() < 0.2:
            del target[p[-1]]
        else:
            target[p[-1]] = rng.choice(BAD_VALUES)
        docs.append(doc)
    return docs
