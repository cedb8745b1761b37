"""The settlement of one round: payments, per-component deltas, explanation (round-format.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEATS: tuple[str, ...] = ("E", "S", "W", "N")
SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
COMPONENTS: tuple[str, ...] = ("hu", "jing", "gang", "follow", "penalty")
COMPONENT_ZH = {"hu": "胡", "jing": "精", "gang": "杠", "follow": "跟庄", "penalty": "罚"}


def zero() -> dict[str, int]:
    """A per-seat table of zeros."""
    return {s: 0 for s in SEATS}


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of `amount` 子 from `payer` to `payee` for one component."""

    payer: str
    payee: str
    amount: int
    reason: str  # one of COMPONENTS
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}
        if self.note:
            d["note"] = self.note
        return d


@dataclass
class Settlement:
    """Result of settling a round; `to_dict()` is the settlement document of round-format.md."""

    rules: str
    win: dict[str, Any] | None = None
    jing: dict[str, dict[str, Any]] = field(default_factory=dict)
    payments: list[Payment] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)
    unit: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def pay(self, payer: str, payee: str, amount: int, reason: str, note: str = "") -> None:
        """Book a transfer (ignored when zero; a negative amount flips the direction)."""
        if amount == 0 or payer == payee:
            return
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        self.payments.append(Payment(payer, payee, amount * self.unit, reason, note))

    @property
    def deltas(self) -> dict[str, dict[str, int]]:
        out = {c: zero() for c in COMPONENTS}
        for p in self.payments:
            comp = out.setdefault(p.reason, zero())
            comp[p.payer] -= p.amount
            comp[p.payee] += p.amount
        return out

    @property
    def total(self) -> dict[str, int]:
        t = zero()
        for comp in self.deltas.values():
            for s, v in comp.items():
                t[s] += v
        return t

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rules": self.rules,
            "win": self.win,
            "jing": self.jing,
            "payments": [p.to_dict() for p in self.payments],
            "deltas": self.deltas,
            "total": self.total,
            "warnings": list(self.warnings),
            "explanation": list(self.explanation),
        }
        if self.unit != 1:
            d["unit"] = self.unit
        d.update(self.extra)
        return d
