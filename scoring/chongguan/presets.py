"""Presets of the 冲关 family as data (chongguan.md §12): one table of option overrides per preset.

`DEFAULTS` is the 兴国 table (the default preset); each preset lists only what it changes.
`OPTION_INFO` describes every option for the rules page and for validation: a Chinese and an
English label, and the allowed values (``choices``) or the value type.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import RoundError

DEFAULTS: dict[str, Any] = {
    # §2, §3 tiles and wildcards
    "indicator_drawable": False,
    "meld_needs_natural": False,
    "jing_claim": "any",
    "must_piao_after_chi_jing": False,
    "honor_seq_mixed": False,
    "qixing_jing_may_fill_honor": False,
    # §5 legality
    "allow_ron_pinghu_with_jing": False,
    "jingdiao_structure_ron": "forbid_all",
    "pass_furiten": False,
    "dihu_on_dealer_discard": False,
    # §6 胡计子
    "dealer_mode": "double_involved",
    "jingdiao_bonus5": False,
    "german_xiaoqi_as_daqi": False,
    "tianhu_mode": "flat20",
    "tianhu_german": "x2_plus5",
    "qianggang": "ron_x2_bonus_once",
    # §8 精计子
    "jing_scope": "hand_melds_discards",
    "full_jing_value": None,
    "gangjing_value": 20,
    "bajing_doubles_gangjing": False,
    "gangjing_plus_kong_pay": False,
    "bao_penggang_jing": True,
    "bao_condition": "any",
    "bao_includes_gangjing": False,
    "bao_split": "last",
    "bao_on_hu": True,
    # §9 other payments
    "kong_pay": {"ming": 2, "an": 2, "bu": 2},
    "direct_kong_paid_by_discarder": False,
    "genzhuang_rounds": "unlimited",
    "false_win_ends_round": False,
    # §10 流局
    "draw_trigger": "indicator",
    "draw_settlement": "void_all",
    # 莲花 extras (§8)
    "lianhua_discard_jing_multiplier": False,
    "lianhua_dark_jing": False,
    # round-format.md
    "assume_unknown_jing_zero": False,
}

OVERRIDES: dict[str, dict[str, Any]] = {
    "xingguo": {},
    "nanchang": {
        "allow_ron_pinghu_with_jing": True,
        "jingdiao_bonus5": True,
        "german_xiaoqi_as_daqi": True,
        "gangjing_value": 14,
        "bajing_doubles_gangjing": True,
    },
    "jian": {},
    "jian_laok": {
        "tianhu_mode": "factor8",
        "gangjing_value": 14,
        "bao_condition": "caused",
        "draw_settlement": "jing_only",
        "jing_claim": "chow_only",
        "must_piao_after_chi_jing": True,
    },
    "yongfeng": {
        "genzhuang_rounds": "first",
        "draw_settlement": "non_hu",
        "draw_trigger": "reserve_34",
        "gangjing_plus_kong_pay": True,  # 永丰 "正精和副精都可以杠，杠分另外计算" (chongguan.md §8, 2026-12-04)
    },
    "lianhua": {
        "indicator_drawable": True,
        "qixing_jing_may_fill_honor": True,
        "lianhua_discard_jing_multiplier": True,
        "lianhua_dark_jing": True,
    },
}

PRESETS: dict[str, dict[str, Any]] = {name: DEFAULTS | extra for name, extra in OVERRIDES.items()}

PRESET_ZH = {"xingguo": "兴国", "nanchang": "南昌算子法", "jian": "吉安", "jian_laok": "吉安（老K）",
             "yongfeng": "永丰", "lianhua": "莲花"}

OPTION_INFO: dict[str, dict[str, Any]] = {
    "indicator_drawable": {"zh": "翻开的精牌可以摸到（最多12分精）", "en": "the indicator tile is drawable"},
    "meld_needs_natural": {"zh": "手中的刻子/对子至少要有一张真牌", "en": "a concealed meld needs a natural tile"},
    "jing_claim": {"zh": "别人打出的精：可吃碰杠 / 只能吃", "en": "claiming a discarded 精", "choices": ["any", "chow_only"]},
    "must_piao_after_chi_jing": {"zh": "吃了精本局至少飘精一个", "en": "after chowing a 精, discard one"},
    "honor_seq_mixed": {"zh": "风牌和箭牌可混成一副顺子", "en": "honor sequences may mix winds and dragons"},
    "qixing_jing_may_fill_honor": {"zh": "七星中精可以当字牌", "en": "a wild 精 may fill an honor of 七星"},
    "allow_ron_pinghu_with_jing": {"zh": "有精平胡可以抓点炮", "en": "有精平胡 may win on a discard"},
    "jingdiao_structure_ron": {"zh": "精吊结构接炮/抢杠", "en": "精吊 structure on a discard",
                               "choices": ["forbid_all", "forbid_german_only"]},
    "pass_furiten": {"zh": "过手不胡（需要出牌记录）", "en": "pass furiten (needs the play record)"},
    "dihu_on_dealer_discard": {"zh": "地胡也可胡庄家第一张打出的牌", "en": "地胡 also on the dealer's first discard"},
    "dealer_mode": {"zh": "庄家翻倍方式", "en": "dealer factor",
                    "choices": ["double_involved", "tongzhuang_x2", "none"]},
    "jingdiao_bonus5": {"zh": "有精精吊每家另加5", "en": "有精 精吊 +5 from each payer"},
    "german_xiaoqi_as_daqi": {"zh": "德国小七对按大七对算（德国7星）", "en": "德国小七 scored as 大七"},
    "tianhu_mode": {"zh": "天胡/地胡底分（20 / 32）", "en": "天胡/地胡 base", "choices": ["flat20", "factor8"]},
    "tianhu_german": {"zh": "德国天胡：翻倍加5 / 不加", "en": "德国 天胡", "choices": ["x2_plus5", "none"]},
    "qianggang": {"zh": "抢杠算法", "en": "robbing a kong",
                  "choices": ["ron_x2_bonus_once", "selfdraw_all_by_konger", "selfdraw_x2_all_by_konger",
                              "konger_rate_x3"]},
    "jing_scope": {"zh": "精的计算范围", "en": "精 counting scope", "choices": ["hand_melds_discards", "hand_melds"]},
    "full_jing_value": {"zh": "满精（10分）的值（空 = 70）", "en": "value of a full 10-point 精 (none = 70)",
                        "type": "int_or_none"},
    "gangjing_value": {"zh": "杠精每家付", "en": "杠精 per payer", "type": "int"},
    "bajing_doubles_gangjing": {"zh": "霸精时杠精也翻倍", "en": "霸精 doubles 杠精 too"},
    "gangjing_plus_kong_pay": {"zh": "杠精另计杠分", "en": "杠精 also earns 杠分"},
    "bao_penggang_jing": {"zh": "碰杠精由丢精者包", "en": "a kong on a discarded 精 is paid by the discarder"},
    "bao_condition": {"zh": "包精条件：冲关即包 / 因吃碰杠导致冲关才包", "en": "包精 condition",
                      "choices": ["any", "caused"]},
    "bao_includes_gangjing": {"zh": "包精包括杠精", "en": "包精 includes 杠精"},
    "bao_split": {"zh": "多家丢精时：最后一家包 / 按分摊", "en": "several 精 providers", "choices": ["last", "by_points"]},
    "bao_on_hu": {"zh": "胡别人打出的精也算包精", "en": "winning on a 精 counts for 包精"},
    "kong_pay": {"zh": "杠分（明杠/暗杠/补杠 每家）", "en": "kong payment per payer", "type": "kong_pay"},
    "direct_kong_paid_by_discarder": {"zh": "明杠分由放杠者一家付", "en": "a kong on a discard is paid by the discarder"},
    "genzhuang_rounds": {"zh": "跟庄：每轮都算 / 只算第一轮", "en": "跟庄 go-arounds", "choices": ["unlimited", "first"]},
    "false_win_ends_round": {"zh": "诈胡后本局结束", "en": "a false win ends the round"},
    "draw_trigger": {"zh": "流局时机（摸到翻精处 / 留17墩）", "en": "draw trigger", "choices": ["indicator", "reserve_34"]},
    "draw_settlement": {"zh": "流局结算", "en": "draw settlement",
                        "choices": ["void_all", "jing_only", "non_hu", "jing_and_gang"]},
    "lianhua_discard_jing_multiplier": {"zh": "莲花：打出精胡分翻倍（正精×4 副精×2）", "en": "莲花 打精 multiplier"},
    "lianhua_dark_jing": {"zh": "莲花：暗精计分", "en": "莲花 暗精"},
    "assume_unknown_jing_zero": {"zh": "未给出的精数按0计", "en": "a seat with unknown 精 counts 0"},
}


def _check_value(name: str, value: Any) -> Any:
    info = OPTION_INFO[name]
    default = DEFAULTS[name]
    kind = info.get("type")
    if "choices" in info:
        if value not in info["choices"]:
            raise RoundError(f"选项 {name} 的值 {value!r} 无效（可用：{'、'.join(info['choices'])}）",
                             f"option {name}: {value!r} is not one of {info['choices']}")
        return value
    if kind == "int" or kind == "int_or_none":
        if value is None and kind == "int_or_none":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RoundError(f"选项 {name} 必须是非负整数", f"option {name} must be a non-negative integer")
        return value
    if kind == "kong_pay":
        if not isinstance(value, dict) or set(value) - {"ming", "an", "bu"}:
            raise RoundError("选项 kong_pay 必须是 {ming, an, bu} 的整数表", "option kong_pay must map ming/an/bu to integers")
        merged = dict(default) | value
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in merged.values()):
            raise RoundError("选项 kong_pay 的值必须是非负整数", "kong_pay values must be non-negative integers")
        return merged
    if isinstance(default, bool) and not isinstance(value, bool):
        raise RoundError(f"选项 {name} 必须是 true 或 false", f"option {name} must be true or false")
    return value


def resolve_options(preset: str, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """The preset's options with the round's overrides applied; unknown names and values are refused."""
    if preset not in PRESETS:
        raise RoundError(f"未知的冲关规则：{preset}", f"unknown 冲关 preset {preset!r}")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise RoundError("options 必须是一个对象", "options must be a mapping")
    opts = dict(PRESETS[preset])
    for name, value in overrides.items():
        if name not in DEFAULTS:
            raise RoundError(f"未知的选项：{name}", f"unknown option {name!r}")
        opts[name] = _check_value(name, value)
    return opts
