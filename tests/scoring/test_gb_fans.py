"""Each of the 81 国标 fans (and 明暗杠): a hand that has it, and a hand that narrowly does not.

The "narrowly not" hand changes one set, one flag or one tile of the first.  ``None`` as the
second hand means the near miss is not a winning hand at all (十三幺, 七对: one tile off).
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.gb.calculator import NotWinning
from scoring.gb.fans import FANS, STANDARD_FANS
from tests.scoring.gb_helpers import fans_of

H = dict  # a hand: hand=..., win=..., melds=..., zimo=..., flags
CHICKEN = H(hand="45s789s11z", win="3s", melds="chi:234m chi:678p")  # no fan at all

CASES: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    "大四喜": (H(hand="111222333444z5m", win="5m"), H(hand="111222333z44z55m", win="5m")),
    "大三元": (H(hand="555666777z234m9p", win="9p"), H(hand="555666z77z234m99p", win="9p")),
    "绿一色": (H(hand="223344666888s6z", win="6z"), H(hand="223344666999s6z", win="6z")),
    "九莲宝灯": (H(hand="1112345678999m", win="5m"), H(hand="1115678999m", win="5m", melds="chi:234m")),
    "四杠": (
        H(hand="5m", win="5m", melds="gang:1111m gang:2222p angang:3333s gang:4444z"),
        H(hand="5m", win="5m", melds="gang:1111m gang:2222p angang:3333s peng:444z"),
    ),
    "连七对": (H(hand="1122334455667m", win="7m"), H(hand="1122334455668m", win="8m")),
    "十三幺": (H(hand="19m19s19p1234567z", win="1m"), None),
    "清幺九": (H(hand="111999m111p999s1s", win="1s"), H(hand="111999m999s111z1s", win="1s")),
    "小四喜": (H(hand="111222333z44z55m", win="5m"), H(hand="111222333z5z567m", win="5z")),
    "小三元": (H(hand="555666z77z234m99p", win="9p"), H(hand="555666z11z234m99p", win="9p")),
    "字一色": (H(hand="111222333555z6z", win="6z"), H(hand="111222555z111m6z", win="6z")),
    "四暗刻": (H(hand="111m222p333s444z5z", win="5z"), H(hand="111m222p333s44z55z", win="4z")),
    "一色双龙会": (H(hand="1122337788995m", win="5m"), H(hand="1122334567895m", win="5m")),
    "一色四同顺": (H(hand="111122223333m5p", win="5p"), H(hand="111222333456m5p", win="5p")),
    "一色四节高": (H(hand="111222333444m5p", win="5p"), H(hand="111222333555m9p", win="9p")),
    "一色四步高": (H(hand="123234345456m9p", win="9p"), H(hand="123234345567m9p", win="9p")),
    "三杠": (
        H(hand="456m5z", win="5z", melds="gang:1111m gang:2222p angang:3333s"),
        H(hand="456m5z", win="5z", melds="gang:1111m gang:2222p peng:333s"),
    ),
    "混幺九": (H(hand="111999m999s111z1s", win="1s"), H(hand="111789m999s111z1s", win="1s")),
    "七对": (H(hand="1133m5577p99s11z2z", win="2z"), None),
    "七星不靠": (H(hand="147m25s36p234567z", win="1z"), H(hand="147m258s36p23456z", win="1z")),
    "全双刻": (H(hand="222m444p666s888m2s", win="2s"), H(hand="222m444p666s999m2s", win="2s")),
    "清一色": (H(hand="123345567999m5m", win="5m"), H(hand="123345567m999p5m", win="5m")),
    "一色三同顺": (
        H(hand="456p9s", win="9s", melds="chi:123m chi:123m chi:123m"),
        H(hand="456p9s", win="9s", melds="chi:123m chi:123m chi:234m"),
    ),
    "一色三节高": (
        H(hand="456p9s", win="9s", melds="peng:111m peng:222m peng:333m"),
        H(hand="456p9s", win="9s", melds="peng:111m peng:222m peng:444m"),
    ),
    "全大": (H(hand="789m789p789s888m9s", win="9s"), H(hand="789m789p789s666m9s", win="9s")),
    "全中": (H(hand="456m456p456s555m4s", win="4s"), H(hand="456m456p456s333m4s", win="4s")),
    "全小": (H(hand="123m123p123s222m3s", win="3s"), H(hand="123m123p123s444m3s", win="3s")),
    "清龙": (H(hand="123456789m234p5s", win="5s"), H(hand="123456m789p234p5s", win="5s")),
    "三色双龙会": (H(hand="123789m123789s5p", win="5p"), H(hand="123789m123789s5m", win="5m")),
    "一色三步高": (H(hand="123234345m789p5s", win="5s"), H(hand="123234456m789p5s", win="5s")),
    "全带五": (H(hand="345m456p567s555m5s", win="5s"), H(hand="345m456p567s555m6s", win="6s")),
    "三同刻": (
        H(hand="222s456m9p", win="9p", melds="peng:222m peng:222p"),
        H(hand="333s456m9p", win="9p", melds="peng:222m peng:222p"),
    ),
    "三暗刻": (H(hand="111m222p333s456m5z", win="5z"), H(hand="111m222p456m5z", win="5z", melds="peng:333s")),
    "全不靠": (H(hand="147m258s36p23456z", win="1z"), H(hand="147m25s36p234567z", win="1z")),
    "组合龙": (H(hand="147m258s369p456m5z", win="5z"), H(hand="147m258s36p23456z", win="1z")),
    "大于五": (H(hand="678m678p789s666m9s", win="9s"), H(hand="678m678p789s555m9s", win="9s")),
    "小于五": (H(hand="123m234p234s444m1s", win="1s"), H(hand="123m234p234s555m1s", win="1s")),
    "三风刻": (H(hand="111222333z456m9p", win="9p"), H(hand="111222555z456m9p", win="9p")),
    "花龙": (H(hand="123m456s789p567m1z", win="1z"), H(hand="123m456s789s567m1z", win="1z")),
    "推不倒": (H(hand="123p456s888s999s5z", win="5z"), H(hand="567p456s888s999s5z", win="5z")),
    "三色三同顺": (H(hand="123m123p123s789m5z", win="5z"), H(hand="123m123p234s789m5z", win="5z")),
    "三色三节高": (
        H(hand="444s789m1z", win="1z", melds="peng:222m peng:333p"),
        H(hand="555s789m1z", win="1z", melds="peng:222m peng:333p"),
    ),
    "无番和": (CHICKEN, CHICKEN | {"zimo": True}),
    "妙手回春": (CHICKEN | {"zimo": True, "last_tile": True}, CHICKEN | {"last_tile": True}),
    "海底捞月": (CHICKEN | {"last_tile": True}, CHICKEN),
    "杠上开花": (
        H(hand="45s789s11z", win="3s", melds="gang:1111m chi:678p", zimo=True, after_kong=True),
        H(hand="45s789s11z", win="3s", melds="gang:1111m chi:678p", zimo=True),
    ),
    "抢杠和": (CHICKEN | {"robbed_kong": True}, CHICKEN),
    "碰碰和": (
        H(hand="555s777m2z", win="2z", melds="peng:111m peng:999p"),
        H(hand="555s678m2z", win="2z", melds="peng:111m peng:999p"),
    ),
    "混一色": (H(hand="123456888m111z2z", win="2z"), H(hand="123456888m111p2z", win="2z")),
    "三色三步高": (H(hand="123m234p345s789m5z", win="5z"), H(hand="123m234p456s789m5z", win="5z")),
    "五门齐": (H(hand="123m456p789s111z5z", win="5z"), H(hand="123m456p789s111z2z", win="2z")),
    "全求人": (
        H(hand="1z", win="1z", melds="chi:234m chi:678p peng:999s chi:345s"),
        H(hand="1z", win="1z", melds="chi:234m chi:678p peng:999s chi:345s", zimo=True),
    ),
    "双暗杠": (
        H(hand="456s789s5z", win="5z", melds="angang:1111m angang:2222p"),
        H(hand="456s789s5z", win="5z", melds="angang:1111m gang:2222p"),
    ),
    "双箭刻": (H(hand="555666z234m789p9s", win="9s"), H(hand="555111z234m789p9s", win="9s")),
    "全带幺": (H(hand="123m789p123s111z9m", win="9m"), H(hand="123m789p234s111z9m", win="9m")),
    "不求人": (H(hand="123m456p789s234m5z", win="5z", zimo=True), H(hand="123m456p789s234m5z", win="5z")),
    "双明杠": (
        H(hand="456s789s5z", win="5z", melds="gang:1111m gang:2222p"),
        H(hand="456s789s5z", win="5z", melds="gang:1111m peng:222p"),
    ),
    "和绝张": (CHICKEN | {"fourth_tile": True}, CHICKEN),
    "箭刻": (H(hand="555z234m789p456s1s", win="1s"), H(hand="999m234m789p456s1s", win="1s")),
    "圈风刻": (
        H(hand="222z234m789p456s1s", win="1s", prevalent_wind="S", seat_wind="W"),
        H(hand="222z234m789p456s1s", win="1s", prevalent_wind="E", seat_wind="W"),
    ),
    "门风刻": (
        H(hand="222z234m789p456s1s", win="1s", prevalent_wind="E", seat_wind="S"),
        H(hand="222z234m789p456s1s", win="1s", prevalent_wind="E", seat_wind="W"),
    ),
    "门前清": (H(hand="123m456p789s234m5z", win="5z"), H(hand="123m456p789s234m5z", win="5z", zimo=True)),
    "平和": (H(hand="123m456p789s234m5s", win="5s"), H(hand="123m456p789s234m5z", win="5z")),
    "四归一": (H(hand="123m234m567p789s2m", win="2m"), H(hand="123m234m567p789s5m", win="5m")),
    "双同刻": (
        H(hand="345s789s1z", win="1z", melds="peng:222m peng:222p"),
        H(hand="345s789s1z", win="1z", melds="peng:222m peng:333p"),
    ),
    "双暗刻": (H(hand="222m333p456s789s1z", win="1z"), H(hand="222m456s789s1z", win="1z", melds="peng:333p")),
    "暗杠": (
        H(hand="345p456s789s1z", win="1z", melds="angang:2222m"),
        H(hand="345p456s789s1z", win="1z", melds="gang:2222m"),
    ),
    "断幺": (H(hand="234m456p678s345m5s", win="5s"), H(hand="234m456p678s345m9s", win="9s")),
    "一般高": (H(hand="112233m456p789s1z", win="1z"), H(hand="123234m456p789s1z", win="1z")),
    "喜相逢": (H(hand="123m123p345s789s1z", win="1z"), H(hand="123m234p345s789s1z", win="1z")),
    "连六": (H(hand="123456m789p345s1z", win="1z"), H(hand="123567m789p345s1z", win="1z")),
    "老少副": (H(hand="123789m456p345s1z", win="1z"), H(hand="123678m456p345s1z", win="1z")),
    "幺九刻": (H(hand="999m234m789p456s1s", win="1s"), H(hand="888m234m789p456s1s", win="1s")),
    "明杠": (H(hand="234m789p456s1s", win="1s", melds="gang:9999m"), H(hand="234m789p456s1s", win="1s", melds="peng:999m")),
    "缺一门": (H(hand="123456m789p345p1z", win="1z"), H(hand="123456m789p345s1z", win="1z")),
    "无字": (H(hand="123m456p789s999m5s", win="5s"), H(hand="123m456p789s111z5s", win="5s")),
    "边张": (H(hand="12m678m456p789s99s", win="3m"), H(hand="23m678m456p789s99s", win="4m")),
    "坎张": (H(hand="13m678m456p789s99s", win="2m"), H(hand="23m678m456p789s99s", win="4m")),
    "单钓将": (H(hand="123m678m456p789s1z", win="1z"), H(hand="123m678m456p11z99s", win="1z")),
    "自摸": (CHICKEN | {"zimo": True}, CHICKEN),
    "花牌": (CHICKEN | {"flowers": 1}, CHICKEN),
    "明暗杠": (
        H(hand="456s789s5z", win="5z", melds="angang:1111m gang:2222p"),
        H(hand="456s789s5z", win="5z", melds="angang:1111m angang:2222p"),
    ),
}


def test_every_fan_has_a_case() -> None:
    assert len(STANDARD_FANS) == 81
    assert set(CASES) == {f.zh for f in FANS}


@pytest.mark.parametrize("fan", list(CASES))
def test_hand_has_fan(fan: str) -> None:
    has, _ = CASES[fan]
    assert fan in fans_of(**has)


@pytest.mark.parametrize("fan", list(CASES))
def test_near_miss_lacks_fan(fan: str) -> None:
    _, lacks = CASES[fan]
    if lacks is None:
        base = dict(CASES[fan][0])
        base["win"] = "2m" if base["win"] != "2m" else "3m"
        with pytest.raises(NotWinning):
            fans_of(**base)
    else:
        assert fan not in fans_of(**lacks)


# 不计: with the fan on the left, the fans on the right are not counted again
EXCLUDED: dict[str, tuple[str, ...]] = {
    "大四喜": ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻", "小四喜"),
    "大三元": ("双箭刻", "箭刻", "小三元"),
    "绿一色": ("混一色", "缺一门"),
    "四杠": ("单钓将", "三杠", "碰碰和"),
    "清幺九": ("碰碰和", "混幺九", "全带幺", "幺九刻", "无字", "双同刻"),
    "小四喜": ("三风刻", "幺九刻"),
    "小三元": ("双箭刻", "箭刻"),
    "字一色": ("碰碰和", "混幺九", "全带幺", "幺九刻", "缺一门"),
    "四暗刻": ("碰碰和", "门前清", "三暗刻"),
    "一色双龙会": ("清一色", "平和", "七对", "一般高", "老少副", "无字"),
    "一色四同顺": ("一色三同顺", "一般高", "四归一"),
    "一色四节高": ("一色三节高", "碰碰和"),
    "混幺九": ("碰碰和", "全带幺", "幺九刻"),
    "全双刻": ("碰碰和", "断幺", "无字"),
    "全中": ("断幺", "无字"),
    "全大": ("大于五", "无字"),
    "全小": ("小于五", "无字"),
    "三色双龙会": ("平和", "无字", "喜相逢", "老少副"),
    "全带五": ("断幺", "无字"),
    "推不倒": ("缺一门",),
    "不求人": ("自摸", "门前清"),
    "妙手回春": ("自摸",),
    "杠上开花": ("自摸",),
    "全求人": ("单钓将",),
    "双箭刻": ("箭刻",),
    "平和": ("无字",),
    "双暗杠": ("暗杠", "双暗刻"),
    "明暗杠": ("暗杠", "明杠"),
    "双明杠": ("明杠",),
}


@pytest.mark.parametrize("fan", list(EXCLUDED))
def test_excluded_fans_are_not_counted(fan: str) -> None:
    got = fans_of(**CASES[fan][0])
    assert fan in got
    assert not set(EXCLUDED[fan]) & set(got), got
