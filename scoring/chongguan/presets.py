"""The options of the 冲关 family as one frozen dataclass, and its six presets as instances (chongguan.md §12).

`ChongguanOptions()` is the 兴国 table (the default preset); each other preset is 兴国 with what it
changes. Every field carries its Chinese and English label, its spec section and a label for each
value (`scoring.options`), so `OPTION_INFO` and the rules page come from the fields themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from scoring import options as typed
from scoring.errors import RoundError
from scoring.options import option

JingClaim = Literal["any", "chow_only"]
JingdiaoStructureRon = Literal["forbid_all", "forbid_german_only"]
DealerMode = Literal["double_involved", "tongzhuang_x2", "none"]
TianhuMode = Literal["flat20", "factor8"]
TianhuGerman = Literal["x2_plus5", "none"]
Qianggang = Literal["ron_x2_bonus_once", "selfdraw_all_by_konger", "selfdraw_x2_all_by_konger", "konger_rate_x3"]
JingScope = Literal["hand_melds_discards", "hand_melds"]
BaoCondition = Literal["any", "caused"]
BaoSplit = Literal["last", "by_points"]
GenzhuangRounds = Literal["unlimited", "first"]
DrawTrigger = Literal["indicator", "reserve_34"]
DrawSettlement = Literal["void_all", "jing_only", "non_hu", "jing_and_gang"]


@dataclass(frozen=True, slots=True)
class KongPay:
    """杠分 each other player pays for a kong, by kind (§9; r73inc / GZCG: 明1 暗2 补1)."""

    ming: int = option(2, "明杠", "kong on a discard", "§9")
    an: int = option(2, "暗杠", "concealed kong", "§9")
    bu: int = option(2, "补杠", "added kong", "§9")


@dataclass(frozen=True, slots=True)
class ChongguanOptions:
    """Every option of chongguan.md; the defaults are the 兴国 preset."""

    # §2, §3, §4 tiles and wildcards
    indicator_drawable: bool = option(False, "翻开的精牌可以摸到（最多12分精）", "the indicator tile is drawable", "§2")
    meld_needs_natural: bool = option(False, "手中的刻子/对子至少要有一张真牌", "a concealed meld needs a natural tile", "§3")
    jing_claim: JingClaim = option("any", "别人打出的精", "claiming a discarded 精", "§3", {
        "any": ("可吃碰杠", "chow, pung or kong"), "chow_only": ("只能吃", "chow only")})
    must_piao_after_chi_jing: bool = option(False, "吃了精本局至少飘精一个", "after chowing a 精, discard one", "§3")
    honor_seq_mixed: bool = option(False, "风牌和箭牌可混成一副顺子", "honor sequences may mix winds and dragons", "§4.1")
    qixing_jing_may_fill_honor: bool = option(False, "七星中精可以当字牌", "a wild 精 may fill an honor of 七星", "§4.5")
    # §5 legality
    allow_ron_pinghu_with_jing: bool = option(False, "有精平胡可以抓点炮", "有精平胡 may win on a discard", "§5")
    jingdiao_structure_ron: JingdiaoStructureRon = option("forbid_all", "精吊结构接炮/抢杠", "精吊 structure on a discard", "§5", {
        "forbid_all": ("一律不能", "forbidden"), "forbid_german_only": ("只是不能算德国", "only its 德国 readings are forbidden")})
    pass_furiten: bool = option(False, "过手不胡（需要出牌记录）", "pass furiten (needs the play record)", "§5")
    dihu_on_dealer_discard: bool = option(False, "地胡也可胡庄家第一张打出的牌", "地胡 also on the dealer's first discard", "§5")
    # §6 胡计子
    dealer_mode: DealerMode = option("double_involved", "庄家翻倍方式", "dealer factor", "§6", {
        "double_involved": ("涉及庄家的翻倍", "×2 where the dealer is involved"),
        "tongzhuang_x2": ("通庄翻倍（底分4）", "tongzhuang ×2 (base 4)"), "none": ("不翻倍", "none")})
    jingdiao_bonus5: bool = option(False, "有精精吊每家另加5", "有精 精吊 +5 from each payer", "§6")
    german_xiaoqi_as_daqi: bool = option(False, "德国小七对按大七对算（德国7星）", "德国小七 scored as 大七", "§6")
    tianhu_mode: TianhuMode = option("flat20", "天胡/地胡底分", "天胡/地胡 base", "§6.2", {
        "flat20": ("20", "20"), "factor8": ("32（8倍）", "32 (factor 8)")})
    tianhu_german: TianhuGerman = option("x2_plus5", "德国天胡", "德国 天胡", "§6.2", {
        "x2_plus5": ("翻倍加5", "×2 + 5"), "none": ("不另加", "nothing more")})
    qianggang: Qianggang = option("ron_x2_bonus_once", "抢杠算法", "robbing a kong", "§6.2", {
        "ron_x2_bonus_once": ("按点炮翻倍，德国奖励只加一次，补杠家包付", "as a discard ×2, 德国 bonus once, the konger pays"),
        "selfdraw_all_by_konger": ("按自摸算，补杠家全包", "as a self-draw, all paid by the konger"),
        "selfdraw_x2_all_by_konger": ("按自摸翻倍，补杠家全包", "as a self-draw ×2, all paid by the konger"),
        "konger_rate_x3": ("补杠家按自己的份付三倍", "the konger pays three times his share")})
    # §8 精计子
    jing_scope: JingScope = option("hand_melds_discards", "精的计算范围", "精 counting scope", "§8", {
        "hand_melds_discards": ("手牌+吃碰杠+打出的牌", "hand, melds and discards"),
        "hand_melds": ("手牌+吃碰杠", "hand and melds")})
    full_jing_value: int | None = option(None, "满精（10分）的值", "value of a full 10-point 精", "§8", {
        None: ("70（按公式）", "70 (the formula)")})
    gangjing_value: int = option(20, "杠精每家付", "杠精 per payer", "§8")
    bajing_doubles_gangjing: bool = option(False, "霸精时杠精也翻倍", "霸精 doubles 杠精 too", "§8")
    gangjing_plus_kong_pay: bool = option(False, "杠精另计杠分", "杠精 also earns 杠分", "§8")
    bao_penggang_jing: bool = option(True, "碰杠精由丢精者包", "a kong on a discarded 精 is paid by the discarder", "§8")
    bao_condition: BaoCondition = option("any", "包精条件", "包精 condition", "§8", {
        "any": ("冲关即包", "the claimer ends in 冲关"), "caused": ("因吃碰杠导致冲关才包", "the claim caused the 冲关")})
    bao_includes_gangjing: bool = option(False, "包精包括杠精", "包精 includes 杠精", "§8")
    bao_split: BaoSplit = option("last", "多家丢精时", "several 精 providers", "§8", {
        "last": ("最后一家包", "the last one pays"), "by_points": ("按分摊", "split by points")})
    bao_on_hu: bool = option(True, "胡别人打出的精也算包精", "winning on a 精 counts for 包精", "§8")
    # §9 other payments
    kong_pay: KongPay = option(KongPay(), "杠分（每家付）", "kong payment per payer", "§9")
    direct_kong_paid_by_discarder: bool = option(False, "明杠分由放杠者一家付", "a kong on a discard is paid by the discarder", "§9")
    genzhuang_rounds: GenzhuangRounds = option("unlimited", "跟庄", "跟庄 go-arounds", "§9", {
        "unlimited": ("每轮都算", "every go-around"), "first": ("只算第一轮", "the first only")})
    false_win_ends_round: bool = option(False, "诈胡后本局结束", "a false win ends the round", "§9")
    # §10 流局
    draw_trigger: DrawTrigger = option("indicator", "流局时机", "draw trigger", "§10", {
        "indicator": ("摸到翻精处", "the wall reaches the indicator"), "reserve_34": ("留17墩", "17 stacks reserved")})
    draw_settlement: DrawSettlement = option("void_all", "流局结算", "draw settlement", "§10", {
        "void_all": ("全作废", "nothing is paid"), "jing_only": ("只算精", "精 only"),
        "non_hu": ("除胡分外照常计算", "all but the hand"), "jing_and_gang": ("算精和杠", "精 and kongs")})
    # 莲花 extras (§8)
    lianhua_discard_jing_multiplier: bool = option(False, "莲花：打出精胡分翻倍（正精×4 副精×2）", "莲花 打精 multiplier", "§8")
    lianhua_dark_jing: bool = option(False, "莲花：暗精计分", "莲花 暗精", "§8")
    # round-format.md
    assume_unknown_jing_zero: bool = option(False, "未给出的精数按0计", "a seat with unknown 精 counts 0", "round-format")


XINGGUO = ChongguanOptions()

PRESETS: dict[str, ChongguanOptions] = {
    "xingguo": XINGGUO,
    "nanchang": replace(XINGGUO, allow_ron_pinghu_with_jing=True, jingdiao_bonus5=True, german_xiaoqi_as_daqi=True,
                        gangjing_value=14, bajing_doubles_gangjing=True),
    "jian": XINGGUO,
    "jian_laok": replace(XINGGUO, tianhu_mode="factor8", gangjing_value=14, bao_condition="caused",
                         draw_settlement="jing_only", jing_claim="chow_only", must_piao_after_chi_jing=True),
    # 永丰 "正精和副精都可以杠，杠分另外计算" (gangjing_plus_kong_pay: chongguan.md §8, 2026-12-04)
    "yongfeng": replace(XINGGUO, genzhuang_rounds="first", draw_settlement="non_hu", draw_trigger="reserve_34",
                        gangjing_plus_kong_pay=True),
    "lianhua": replace(XINGGUO, indicator_drawable=True, qixing_jing_may_fill_honor=True,
                       lianhua_discard_jing_multiplier=True, lianhua_dark_jing=True),
}

PRESET_ZH = {"xingguo": "兴国", "nanchang": "南昌算子法", "jian": "吉安", "jian_laok": "吉安（老K）",
             "yongfeng": "永丰", "lianhua": "莲花"}

OPTIONS = typed.specs(ChongguanOptions)
"""Each option's labels, section, kind and allowed values (`scoring.options.OptionSpec`)."""

OPTION_INFO: dict[str, dict[str, Any]] = typed.option_info(ChongguanOptions)
"""The same as plain data: {name: {zh, en, section, type, choices?, labels}}."""


def resolve_options(preset: str, overrides: dict[str, Any] | None) -> ChongguanOptions:
    """The preset's options with the round's overrides applied; unknown names and values are refused."""
    if preset not in PRESETS:
        raise RoundError(f"未知的冲关规则：{preset}", f"unknown 冲关 preset {preset!r}")
    return typed.resolve(PRESETS[preset], overrides)
