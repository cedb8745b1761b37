"""Time classification + settlement of random winning 冲关 rounds (pure Python).

    python bench/scoring_speed.py [N]

Prints the median and the worst time per round over N (default 10,000) random winning rounds,
and the time of the hardest hands (7 wild 精 in the hand).  Targets (issue #7): median ≤ 1 ms,
worst ≤ 20 ms on a laptop core.  Caches are cleared before each round so every round pays for
its own decomposition.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from scoring import RoundError, settle
from scoring.shapes.decompose import _dfs
from scoring.tiles import CODES

SUITED = [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]
HONOR = [(27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30), (31, 32, 33)]


def random_round(rng: random.Random) -> dict[str, Any]:
    """A round whose winner holds four random melds + a pair, a random indicator and win."""
    while True:
        tiles: list[int] = []
        for _ in range(4):
            r = rng.random()
            tiles += list(rng.choice(SUITED)) if r < 0.6 else list(rng.choice(HONOR)) if r < 0.7 else [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        if max(tiles.count(t) for t in set(tiles)) <= 4:
            break
    rng.shuffle(tiles)
    seat = rng.choice("ESWN")
    players: dict[str, Any] = {s: {"jing": {"zheng": rng.randrange(3), "fu": rng.randrange(4)}} for s in "ESWN"}
    players[seat] = {"hand": "".join(CODES[t] for t in tiles[:13])}
    return {"rules": rng.choice(["xingguo", "nanchang", "jian_laok"]), "dealer": "E",
            "indicator": CODES[rng.randrange(34)], "players": players, "options": {"indicator_drawable": True},
            "win": {"seat": seat, "tile": CODES[tiles[13]], "from": "self"}}


def seven_jing_round(rng: random.Random) -> dict[str, Any]:
    """Indicator 1m: three 正精 + four 副精 in the hand (all wild), 7 random naturals."""
    nat = rng.sample([t for t in range(2, 34)], 7)
    hand = ["1m"] * 3 + ["2m"] * 4 + [CODES[t] for t in nat[:6]]
    players: dict[str, Any] = {s: {"jing": {"zheng": 0, "fu": 0}} for s in "ESWN"}
    players["S"] = {"hand": "".join(hand)}
    return {"rules": "xingguo", "dealer": "E", "indicator": "1m", "players": players,
            "win": {"seat": "S", "tile": CODES[nat[6]], "from": "self"}}


def timed(doc: dict[str, Any]) -> float | None:
    _dfs.cache_clear()
    t0 = time.perf_counter()
    try:
        settle(doc)
    except RoundError:
        return None
    return time.perf_counter() - t0


def main(n: int = 10_000) -> None:
    rng = random.Random(7)
    timed(random_round(random.Random(0)))  # warm-up: imports and lazily built tables
    times: list[float] = []
    while len(times) < n:
        t = timed(random_round(rng))
        if t is not None:
            times.append(t)
    hard = [t for t in (timed(seven_jing_round(rng)) for _ in range(200)) if t is not None]
    print(f"random winning rounds: {len(times)}")
    print(f"  median {statistics.median(times) * 1e3:.3f} ms   worst {max(times) * 1e3:.3f} ms   (target ≤ 1 ms / ≤ 20 ms)")
    slow = sorted(times)[-5:]
    print("  slowest five: " + ", ".join(f"{t * 1e3:.2f}" for t in slow) + " ms")
    print(f"7 wild 精 in the hand: {len(hard)} rounds, median {statistics.median(hard) * 1e3:.3f} ms, "
          f"worst {max(hard) * 1e3:.3f} ms")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000, help="how many (default %(default)s)")
    main(parser.parse_args().n)
