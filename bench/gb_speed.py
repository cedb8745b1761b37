"""Time per hand of our 国标 fan calculator next to pymahjonggb's C++ one, on the same hands.

    python bench/gb_speed.py [N]        (default 10000; prints figures, never gates CI)

Also counts agreement on the same sample, so a large N doubles as a long differential run.
"""

from __future__ import annotations

import random
import time

from scoring.gb.calculator import NotWinning, calculate, fan_list
from scoring.gb.random_hands import random_hand, reference_fans


def main(n: int) -> None:
    rng = random.Random(1)
    hands = [random_hand(rng) for _ in range(n)]
    t0 = time.perf_counter()
    ours = []
    for h in hands:
        try:
            ours.append(fan_list(calculate(h)))
        except NotWinning:
            ours.append(None)
    t1 = time.perf_counter()
    ref = [reference_fans(h) for h in hands]  # includes building the call arguments in Python
    t2 = time.perf_counter()
    agree = sum(a == b for a, b in zip(ours, ref))
    print(f"hands: {n}")
    print(f"jingsuan scoring.gb (Python): {(t1 - t0) / n * 1e6:8.1f} µs/hand")
    print(f"pymahjonggb (C++ + binding): {(t2 - t1) / n * 1e6:8.1f} µs/hand")
    print(f"agreement: {agree}/{n}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000, help="how many (default %(default)s)")
    main(parser.parse_args().n)
