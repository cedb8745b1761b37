"""The 冲关 round pipeline (chongguan.md §11): 胡计子 + 精计子 + 杠分 + 跟庄 + 诈胡, all zero-sum.

Among the legal readings of the winner's hand the one that pays the winner most is taken (§4.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.chongguan import hu
from scoring.chongguan.extras import DRAW_SETTLES, settle_false_wins, settle_follow, settle_kongs
from scoring.chongguan.hand import CONCEALED_ONLY, HandFacts, Reading, hand_facts
from scoring.chongguan.jing import JingTally, count_jing, settle_gangjing, settle_jing, value_jing
from scoring.chongguan.presets import resolve_options
from scoring.errors import RoundError
from scoring.explain import describe_jing, describe_win
from scoring.round import Round, parse_round
from scoring.settlement import SEAT_ZH, SEATS, Settlement
from scoring.shapes import SHAPE_ZH
from scoring.tiles import format_tiles_zh, jing_of

METHOD_ZH = {"zimo": "自摸", "dianpao": "点炮", "qianggang": "抢杠"}
SPECIAL_ZH = {"tianhu": "天胡", "dihu": "地胡"}


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal reading with what each loser pays for it."""

    reading: Reading
    gangshanghua: bool
    payments: dict[str, int]
    flat: bool = False

    @property
    def total(self) -> int:
        return sum(self.payments.values())

    def rank(self) -> tuple[int, int, bool, bool]:
        return (self.total, hu.HAND_BASE[self.reading.shape], self.reading.german, self.reading.jingdiao)


def win_method(r: Round) -> str:
    """自摸, 点炮 or 抢杠."""
    assert r.win is not None
    if r.win.robbed_kong:
        return "qianggang"
    return "zimo" if r.win.self_drawn else "dianpao"


def forbidden_reason(r: Round, facts: HandFacts, rd: Reading) -> str | None:
    """Why a reading may not win here (§5), or None if it may."""
    assert r.win is not None
    opts = r.options
    method = win_method(r)
    ron_like = method == "dianpao" or (method == "qianggang" and opts.qianggang == "ron_x2_bonus_once")
    if r.win.after_kong and rd.shape in CONCEALED_ONLY:
        return f"{SHAPE_ZH[rd.shape]}不能杠上花（规则6：要有杠就不是门清）"
    if method != "zimo":
        where = "抢杠" if method == "qianggang" else "接炮（胡别人打出的牌）"
        if rd.jingdiao:
            return f"精吊只能自摸，不能{where}"
        if facts.jingdiao_structure and (opts.jingdiao_structure_ron == "forbid_all" or rd.german):
            return f"已构成精吊结构，不能{where}（规则2：不能抓德国点炮或抢杠）"
    if ron_like and rd.shape == "pinghu" and not rd.german and not opts.allow_ron_pinghu_with_jing:
        what = "抢杠（抢杠按点炮算）" if method == "qianggang" else "抓点炮"
        return f"有精平胡不能{what}（规则1）"
    return None


def score_reading(r: Round, rd: Reading, bahu: bool) -> Scored:
    """What each loser pays for one legal reading (§6, §6.2)."""
    assert r.win is not None
    win, opts = r.win, r.options
    gsh = win.after_kong
    h = hu.hand_base(rd.shape, rd.german, opts)
    m = hu.multiplier(rd.jingdiao, gsh, bahu)
    if win.robbed_kong:
        assert win.from_seat is not None
        pays = {win.from_seat: hu.robbed_kong_payment(h, m, rd.german, win.seat, r.dealer, win.from_seat, opts)}
    else:
        pays = hu.ordinary_payments(h, m, rd.german, rd.jingdiao, win.seat, r.dealer, win.from_seat, opts)
    flat = False
    if win.special in SPECIAL_ZH:
        each = hu.flat_payment(rd.jingdiao, bahu, rd.german, opts)
        if 3 * each > sum(pays.values()):
            pays, flat = {p: each for p in SEATS if p != win.seat}, True
    if opts.lianhua_discard_jing_multiplier:
        pays = {p: a * _discard_multiplier(r, p) * _discard_multiplier(r, win.seat) for p, a in pays.items()}
    return Scored(rd, gsh, pays, flat)


def _discard_multiplier(r: Round, seat: str) -> int:
    d = r.players[seat].discards
    return hu.lianhua_discard_multiplier(sum(1 for t in d if t == r.zheng), sum(1 for t in d if t == r.fu))


def best_win(r: Round, bahu: bool) -> Scored:
    """The legal reading that pays the winner most; refuses with the reason when none is legal."""
    assert r.win is not None
    win = r.win
    p = r.players[win.seat]
    _check_piao(r)
    facts = hand_facts(r)
    if not facts.readings:
        tiles = format_tiles_zh(sorted(p.hand))
        melds = "".join(f" [{''.join(t.zh for t in m.tiles)}]" for m in p.melds)
        raise RoundError(
            f"这手牌不能胡：{tiles}{melds} + {win.tile.zh} 组不成平胡、小七对、大七对、十三烂或七星十三烂",
            f"not a winning hand: {''.join(t.code for t in p.hand)} + {win.tile.code}",
        )
    legal, reasons = [], []
    for rd in facts.readings:
        why = forbidden_reason(r, facts, rd)
        (reasons if why else legal).append((rd, why))
    if not legal:
        best_refused = max(reasons, key=lambda x: score_reading(r, x[0], bahu).rank())
        raise RoundError(f"不能胡：{best_refused[1]}", f"forbidden win: {best_refused[1]}")
    return max((score_reading(r, rd, bahu) for rd, _ in legal), key=Scored.rank)


def _check_piao(r: Round) -> None:
    """吉安老K 吃精必飘: "吃了精，本局至少飘精一个，飘不够不能胡"."""
    assert r.win is not None
    if not r.options.must_piao_after_chi_jing:
        return
    p = r.players[r.win.seat]
    chi_jing = sum(1 for m in p.melds if m.type == "chi" and m.claimed_tile() is not None and r.is_jing(m.claimed_tile()))  # type: ignore[arg-type]
    piao = sum(1 for t in p.discards if r.is_jing(t))
    if chi_jing and piao < chi_jing:
        raise RoundError("不能胡：吃了精，本局至少要飘（打出）一个精", "chowed a 精 but discarded none (吃精必飘)")


def win_names(sc: Scored, bahu: bool, special: str, method: str) -> list[str]:
    """The Chinese names shown to players: shape, 德国/有精, 精吊, 杠上花/杠吊, 抢杠, 天胡/地胡, 霸胡."""
    rd = sc.reading
    names = [SHAPE_ZH[rd.shape], "德国" if rd.german else "有精"]
    if rd.jingdiao and sc.gangshanghua:
        names.append("杠吊")
    elif rd.jingdiao:
        names.append("精吊")
    elif sc.gangshanghua:
        names.append("杠上花")
    if method == "qianggang":
        names.append("抢杠")
    if special in SPECIAL_ZH:
        names.append(SPECIAL_ZH[special])
    if bahu:
        names.append("霸胡")
    return names


def settle_round(r: Round) -> Settlement:
    """Settle a validated round: every component, the explanation, the warnings."""
    opts = r.options
    s = Settlement(rules=r.rules, unit=r.unit)
    tallies = count_jing(r)
    bajing = value_jing(tallies, opts.full_jing_value)
    bahu = all(t.points == 0 for t in tallies.values())
    zheng, fu = jing_of(r.indicator)
    s.explanation.append(f"翻精 {r.indicator.zh}：正精 {zheng.zh}（2分），副精 {fu.zh}（1分）")
    if r.false_win and opts.false_win_ends_round and r.win:
        raise RoundError("诈胡后本局已结束（false_win_ends_round），不能再有人胡牌", "a false win ended the round")
    if r.win:
        sc = best_win(r, bahu)
        win = r.win
        for payer, amount in sc.payments.items():
            s.pay(payer, win.seat, amount, "hu")
        method = win_method(r)
        s.win = {
            "seat": win.seat, "tile": win.tile.code, "from": win.from_seat or "self", "method": method,
            "shape": sc.reading.shape, "german": sc.reading.german, "jingdiao": sc.reading.jingdiao,
            "gangshanghua": sc.gangshanghua, "bahu": bahu, "special": win.special,
            "robbed_kong": win.robbed_kong, "flat": sc.flat,
            "names": win_names(sc, bahu, win.special, method),
            "H": hu.hand_base(sc.reading.shape, sc.reading.german, opts),
            "M": hu.multiplier(sc.reading.jingdiao, sc.gangshanghua, bahu),
        }
        s.explanation += describe_win(s.win, sc.payments, METHOD_ZH[method])
        settles = {"jing", "gangjing", "gang", "follow"}
    else:
        settles = set(DRAW_SETTLES[opts.draw_settlement])
        if r.false_win and opts.false_win_ends_round:
            settles = set()
        s.explanation.append(f"流局：{_DRAW_ZH[opts.draw_settlement]}")
    s.jing = {seat: t.to_dict() for seat, t in tallies.items()}
    s.explanation += describe_jing(tallies, bajing, bahu)
    if "jing" in settles:
        s.explanation += settle_jing(r, s, tallies, include_gangjing=False)
        s.explanation += _extra_sets(r, s)
    if "gangjing" in settles:
        s.explanation += settle_gangjing(r, s, tallies)
    if "gang" in settles:
        s.explanation += settle_kongs(r, s)
    if "follow" in settles:
        s.explanation += settle_follow(r, s)
    s.explanation += settle_false_wins(r, s)
    s.extra["bajing"] = bajing
    s.extra["next_dealer"] = next_dealer(r)
    return s


_DRAW_ZH = {
    "void_all": "此局全作废（精、杠、跟庄都不算）",
    "jing_only": "只算精（含霸精、包精），杠分、杠精、跟庄不算",
    "non_hu": "除胡分外，精、杠、跟庄照常计算",
    "jing_and_gang": "算精和杠，跟庄不算",
}


def _extra_sets(r: Round, s: Settlement) -> list[str]:
    """暗精 (莲花) and extra 精 sets: scored like 精 (§8) from the tiles, each set on its own."""
    sets = [(t, "extra") for t, _ in r.extra_indicators]
    if r.dark_indicator is not None and r.options.lianhua_dark_jing:
        sets.append((r.dark_indicator, "dark"))
    notes = []
    for ind, label in sets:
        tallies: dict[str, JingTally] = count_jing(r, indicator=ind, with_claims=False)
        for seat in SEATS:
            p = r.players[seat]
            if not p.has_tiles:
                s.warnings.append(f"{SEAT_ZH[seat]}家没有给出牌，{ind.zh}这一套精按0计")
        value_jing(tallies, r.options.full_jing_value)
        name = "暗精" if label == "dark" else "另一套精"
        notes.append(f"{name}（{ind.zh}）：" + "，".join(f"{SEAT_ZH[k]}{t.points}分" for k, t in tallies.items()))
        settle_jing(r, s, tallies, include_gangjing=False, label=label)
    return notes


def next_dealer(r: Round) -> str:
    """Dealer wins or a draw → stays; otherwise the next seat deals (§10)."""
    if r.win is None or r.win.seat == r.dealer:
        return r.dealer
    return SEATS[(SEATS.index(r.dealer) + 1) % 4]


def settle(doc: dict[str, Any]) -> Settlement:
    """Settle a 冲关 round document (round-format.md) under its preset (`rules`, default xingguo)."""
    if not isinstance(doc, dict):
        raise RoundError("牌局描述必须是一个对象（JSON/YAML 映射）", "a round must be a mapping")
    preset = str(doc.get("rules") or "xingguo")
    opts = resolve_options(preset, doc.get("options"))
    return settle_round(parse_round(doc, preset, opts))
