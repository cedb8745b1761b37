"""精计子 (chongguan.md §8): 精 points, 冲关 n×(n−3), 霸精, 包精, 杠精 — independent of who won."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.round import Round
from scoring.settlement import SEAT_ZH, SEATS, Settlement
from scoring.tiles import Tile, jing_of

CHONGGUAN_THRESHOLD = 5


@dataclass
class JingTally:
    """One seat's 精 in the §8 scope and what they are worth."""

    seat: str
    zheng: int = 0
    fu: int = 0
    claimed_from: dict[str, list[int]] = field(default_factory=dict)  # provider -> [zheng, fu], in claim order
    claims_known: bool = True
    value: int = 0
    bajing: bool = False

    @property
    def points(self) -> int:
        """s = 2·正精 + 1·副精 ("正精算两个精，副精算一个精")."""
        return 2 * self.zheng + self.fu

    @property
    def chongguan(self) -> bool:
        return self.points >= CHONGGUAN_THRESHOLD

    def points_from(self, provider: str) -> int:
        z, f = self.claimed_from.get(provider, (0, 0))
        return 2 * z + f

    def to_dict(self) -> dict[str, object]:
        return {"zheng": self.zheng, "fu": self.fu, "points": self.points, "value": self.value,
                "chongguan": self.chongguan, "bajing": self.bajing}


def jing_value(points: int, full_jing_value: int | None = None) -> int:
    """v = s for s < 5, 冲关 s·(s−3) for s ≥ 5 (5→10, 6→18 … 10→70); 满精 override for s = 10."""
    if points == 10 and full_jing_value is not None:
        return full_jing_value
    return points if points < CHONGGUAN_THRESHOLD else points * (points - 3)


def _claim(t: JingTally, provider: str, tile: Tile, zheng: Tile, fu: Tile) -> None:
    if tile != zheng and tile != fu:
        return
    entry = t.claimed_from.setdefault(provider, [0, 0])
    entry[0 if tile == zheng else 1] += 1


def count_jing(r: Round, indicator: Tile | None = None, with_claims: bool = True) -> dict[str, JingTally]:
    """Each seat's 精 over hand + melds + unclaimed own discards (+ the winning tile for the winner)."""
    zheng, fu = jing_of(indicator or r.indicator)
    main = indicator is None
    scope_discards = r.options.jing_scope == "hand_melds_discards"
    out: dict[str, JingTally] = {}
    for seat in SEATS:
        p = r.players[seat]
        t = JingTally(seat)
        if main and p.jing is not None:
            t.zheng, t.fu = p.jing.zheng, p.jing.fu
            t.claimed_from = {k: [z, f] for k, (z, f) in p.jing.claimed_from.items()}
            t.claims_known = p.jing.claims_known
        else:
            tiles = [*p.hand, *(x for m in p.melds for x in m.tiles)]
            if scope_discards:
                tiles += p.discards
            if r.win and r.win.seat == seat:
                tiles.append(r.win.tile)
            t.zheng = sum(1 for x in tiles if x == zheng)
            t.fu = sum(1 for x in tiles if x == fu)
            if with_claims:
                for m in p.melds:
                    c = m.claimed_tile()
                    if c is not None and m.from_seat:
                        _claim(t, m.from_seat, c, zheng, fu)
                win = r.win
                if win and win.seat == seat and win.from_seat and r.options.bao_on_hu:
                    _claim(t, win.from_seat, win.tile, zheng, fu)
        out[seat] = t
    return out


def value_jing(tallies: dict[str, JingTally], full_jing_value: int | None) -> str | None:
    """Fill in each value; 霸精 (exactly one holder) doubles it. Returns the 霸精 seat or None."""
    holders = [s for s, t in tallies.items() if t.points > 0]
    bajing = holders[0] if len(holders) == 1 else None
    for s, t in tallies.items():
        t.value = jing_value(t.points, full_jing_value)
        if s == bajing:
            t.bajing = True
            t.value *= 2  # "霸精：精数X2" doubles the value, not the count
    return bajing


def bao_providers(t: JingTally, condition: str) -> list[str]:
    """Who 包 this seat's 精: a provider whose 精 made it 冲关 (any / caused) or made it 霸精."""
    out = []
    for provider in t.claimed_from:
        pts = t.points_from(provider)
        if pts <= 0:
            continue
        chong = t.chongguan and (condition == "any" or t.points - pts < CHONGGUAN_THRESHOLD)
        if chong or t.bajing:
            out.append(provider)
    return out


def _split(amount: int, weights: dict[str, int]) -> dict[str, int]:
    """Split an integer amount in proportion to weights; the remainder goes to the largest weights."""
    total = sum(weights.values())
    shares = {k: amount * w // total for k, w in weights.items()}
    rest = amount - sum(shares.values())
    for k in sorted(weights, key=lambda k: -weights[k])[:rest]:
        shares[k] += 1
    return shares


def settle_jing(r: Round, s: Settlement, tallies: dict[str, JingTally], include_gangjing: bool = True,
                label: str = "jing") -> list[str]:
    """Book the 精计子 payments (gross: each other seat pays v_i to i, or the 包 provider alone)."""
    opts = r.options
    notes: list[str] = []
    for seat, t in tallies.items():
        if t.value <= 0:
            continue
        providers = bao_providers(t, opts.bao_condition) if label == "jing" else []
        if not t.claims_known and (t.chongguan or t.bajing):
            s.warnings.append(f"没说{SEAT_ZH[seat]}家的精里有几张是吃碰别家打出的，无法判断包精")
        if providers:
            amount = 3 * t.value
            if opts.bao_split == "by_points":
                shares = _split(amount, {p: t.points_from(p) for p in providers})
            else:
                shares = {providers[-1]: amount}
            for payer, share in shares.items():
                s.pay(payer, seat, share, "jing", "bao")
                notes.append(f"包精：{SEAT_ZH[payer]}家打出的精被{SEAT_ZH[seat]}家吃碰杠胡，{SEAT_ZH[payer]}家一人包付 {share}")
        else:
            for payer in SEATS:
                if payer != seat:
                    s.pay(payer, seat, t.value, "jing", label)
    if include_gangjing and label == "jing":
        notes += settle_gangjing(r, s, tallies)
    return notes


def gangjing_kongs(r: Round) -> list[tuple[str, object]]:
    """Every kong of four identical 精 (暗杠, kong on a discard, 补杠) as (seat, meld)."""
    out = []
    for seat in SEATS:
        for m in r.players[seat].kongs:
            if r.is_jing(m.kind):
                out.append((seat, m))
    return out


def settle_gangjing(r: Round, s: Settlement, tallies: dict[str, JingTally]) -> list[str]:
    """杠精: each other player pays 20 (南昌 14, ×2 under 霸); 碰杠精 is paid by the discarder alone."""
    opts = r.options
    notes = []
    for seat, m in gangjing_kongs(r):
        t = tallies[seat]
        value = opts.gangjing_value * (2 if opts.bajing_doubles_gangjing and t.bajing else 1)
        sole = None
        if m.type == "gang" and opts.bao_penggang_jing:  # type: ignore[attr-defined]
            sole = m.from_seat  # type: ignore[attr-defined]
        elif opts.bao_includes_gangjing:
            providers = bao_providers(t, opts.bao_condition)
            sole = providers[-1] if providers else None
        if sole:
            s.pay(sole, seat, 3 * value, "jing", "gangjing")
            notes.append(f"杠精：{SEAT_ZH[sole]}家一人包付 {3 * value}")
        else:
            for payer in SEATS:
                if payer != seat:
                    s.pay(payer, seat, value, "jing", "gangjing")
            notes.append(f"杠精：{SEAT_ZH[seat]}家 每家付 {value}")
    return notes
