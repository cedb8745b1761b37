"""A writer process for the durability test: confirms rounds forever, printing each confirmed id."""

from __future__ import annotations

import sys

from app.ledger import Ledger
from scoring.settlement import SEATS, Settlement


def settlement_for(i: int) -> dict:
    """A real Settlement: seat i%4 wins 3 from each other seat, plus a 精 payment."""
    s = Settlement(rules="xingguo")
    winner = SEATS[i % 4]
    for other in SEATS:
        s.pay(other, winner, 3, "hu")
    s.pay(SEATS[(i + 1) % 4], SEATS[(i + 2) % 4], i % 5, "jing")
    s.win = {"seat": winner, "names": ["平胡"]}
    return s.to_dict()


def main() -> None:
    ledger = Ledger(sys.argv[1])
    tid = int(sys.argv[2])
    i = 0
    while True:
        rid = ledger.add_round(tid, {"rules": "xingguo", "dealer": "E", "n": i}, settlement_for(i))
        print(rid, flush=True)
        i += 1


if __name__ == "__main__":
    main()
