"""The 81 番种 of 国标麻将 (GB/MCR, seed003 table) plus 明暗杠, in the reference calculator's order.

Each :class:`Fan` carries its Chinese name, its value in 番 and the rule as the standard states it
(the quoted ``rule`` text, 不计 = the fans it excludes).  The order of :data:`FANS` is the order of
the fan table of the MIT C++ "mahjong-algorithm" (the calculator inside PyPI ``pymahjonggb``),
so our fan lists come out in the same order as theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


@dataclass(frozen=True, slots=True)
class Fan:
    """One 番种: ``zh`` name, ``points`` (番), the rule text and the library's name when it differs."""

    key: str
    zh: str
    points: int
    rule: str
    lib_zh: str = ""


_TABLE: tuple[Fan, ...] = (
    Fan("BIG_FOUR_WINDS", "大四喜", 88, "和牌中有东南西北四副刻子（杠）。不计圈风刻、门风刻、三风刻、碰碰和、幺九刻"),
    Fan("BIG_THREE_DRAGONS", "大三元", 88, "和牌中有中发白三副刻子（杠）。不计双箭刻、箭刻"),
    Fan("ALL_GREEN", "绿一色", 88, "由23468条及发字中任何牌组成的和牌。不计混一色"),
    Fan("NINE_GATES", "九莲宝灯", 88, "一种花色 1112345678999 听同花色任何一张。不计清一色、门前清、幺九刻"),
    Fan("FOUR_KONGS", "四杠", 88, "四个杠。不计单钓将"),
    Fan("SEVEN_SHIFTED_PAIRS", "连七对", 88, "一种花色序数相连的七个对子。不计清一色、不求人、单钓将"),
    Fan("THIRTEEN_ORPHANS", "十三幺", 88, "三种序数牌的一、九及七种字牌，其中一种成对。不计五门齐、不求人、单钓将"),
    Fan("ALL_TERMINALS", "清幺九", 64, "由序数牌一、九组成的和牌。不计碰碰和、同刻、无字"),
    Fan("LITTLE_FOUR_WINDS", "小四喜", 64, "三副风刻加风牌将。不计三风刻"),
    Fan("LITTLE_THREE_DRAGONS", "小三元", 64, "两副箭刻加箭牌将。不计箭刻、双箭刻"),
    Fan("ALL_HONORS", "字一色", 64, "由字牌的刻子（杠）、将组成的和牌。不计碰碰和"),
    Fan("FOUR_CONCEALED_PUNGS", "四暗刻", 64, "四个暗刻（暗杠）。不计门前清、碰碰和"),
    Fan("PURE_TERMINAL_CHOWS", "一色双龙会", 64, "一种花色的两个老少副，五为将。不计平和、七对、清一色"),
    Fan("QUADRUPLE_CHOW", "一色四同顺", 48, "一种花色序数相同的四副顺子。不计一色三同顺、一般高、四归一"),
    Fan("FOUR_PURE_SHIFTED_PUNGS", "一色四节高", 48, "一种花色序数依次递增一的四副刻子。不计一色三节高、碰碰和"),
    Fan("FOUR_PURE_SHIFTED_CHOWS", "一色四步高", 32, "一种花色四副依次递增一位或二位数的顺子"),
    Fan("THREE_KONGS", "三杠", 32, "三个杠"),
    Fan("ALL_TERMINALS_AND_HONORS", "混幺九", 32, "由字牌和序数牌一、九的刻子及将组成的和牌。不计碰碰和"),
    Fan("SEVEN_PAIRS", "七对", 24, "由七个对子组成的和牌。不计不求人、单钓将"),
    Fan("GREATER_HONORS_AND_KNITTED_TILES", "七星不靠", 24, "七种字牌各一张加三种花色 147/258/369 中的七张。不计五门齐、不求人、单钓将"),
    Fan("ALL_EVEN_PUNGS", "全双刻", 24, "由 2、4、6、8 序数牌的刻子、将组成的和牌。不计碰碰和、断幺"),
    Fan("FULL_FLUSH", "清一色", 24, "由一种花色的序数牌组成的和牌。不计无字"),
    Fan("PURE_TRIPLE_CHOW", "一色三同顺", 24, "一种花色序数相同的三副顺子。不计一色三节高"),
    Fan("PURE_SHIFTED_PUNGS", "一色三节高", 24, "一种花色序数依次递增一的三副刻子。不计一色三同顺"),
    Fan("UPPER_TILES", "全大", 24, "由序数牌 789 组成的和牌。不计无字"),
    Fan("MIDDLE_TILES", "全中", 24, "由序数牌 456 组成的和牌。不计断幺"),
    Fan("LOWER_TILES", "全小", 24, "由序数牌 123 组成的和牌。不计无字"),
    Fan("PURE_STRAIGHT", "清龙", 16, "一种花色 1-9 相连的九张牌"),
    Fan("THREE_SUITED_TERMINAL_CHOWS", "三色双龙会", 16, "两种花色的老少副，另一种花色的五作将。不计喜相逢、老少副、无字、平和"),
    Fan("PURE_SHIFTED_CHOWS", "一色三步高", 16, "一种花色三副依次递增一位或二位数的顺子"),
    Fan("ALL_FIVE", "全带五", 16, "每副牌及将都有五。不计断幺"),
    Fan("TRIPLE_PUNG", "三同刻", 16, "三副序数相同的刻子（杠）"),
    Fan("THREE_CONCEALED_PUNGS", "三暗刻", 16, "三个暗刻"),
    Fan("LESSER_HONORS_AND_KNITTED_TILES", "全不靠", 12, "由单张的三种花色 147/258/369 不能错位的序数牌及东南西北中发白中的任何 14 张牌组成的和牌。不计五门齐、不求人、单钓将"),
    Fan("KNITTED_STRAIGHT", "组合龙", 12, "三种花色的 147、258、369 不能错位的序数牌"),
    Fan("UPPER_FOUR", "大于五", 12, "由序数牌 6-9 的顺子、刻子、将组成的和牌。不计无字"),
    Fan("LOWER_FOUR", "小于五", 12, "由序数牌 1-4 的顺子、刻子、将组成的和牌。不计无字"),
    Fan("BIG_THREE_WINDS", "三风刻", 12, "三个风刻"),
    Fan("MIXED_STRAIGHT", "花龙", 8, "三种花色的三副顺子连接成 1-9 的序数牌"),
    Fan("REVERSIBLE_TILES", "推不倒", 8, "由牌面图形没有上下区别的牌组成的和牌：1234589 饼、245689 条、白板。不计缺一门"),
    Fan("MIXED_TRIPLE_CHOW", "三色三同顺", 8, "和牌时，有三种花色三副序数相同的顺子"),
    Fan("MIXED_SHIFTED_PUNGS", "三色三节高", 8, "和牌时，有三种花色三副依次递增一位数的刻子"),
    Fan("CHICKEN_HAND", "无番和", 8, "和牌后，数不出任何番种分（花牌不计算在内）"),
    Fan("LAST_TILE_DRAW", "妙手回春", 8, "自摸牌墙上最后一张牌和牌。不计自摸"),
    Fan("LAST_TILE_CLAIM", "海底捞月", 8, "和打出的最后一张牌"),
    Fan("OUT_WITH_REPLACEMENT_TILE", "杠上开花", 8, "开杠抓进的牌成和牌（不包括补花）。不计自摸"),
    Fan("ROBBING_THE_KONG", "抢杠和", 8, "和别人自抓开明杠的牌。不计和绝张"),
    Fan("ALL_PUNGS", "碰碰和", 6, "由四副刻子（或杠）、将牌组成的和牌"),
    Fan("HALF_FLUSH", "混一色", 6, "由一种花色序数牌及字牌组成的和牌"),
    Fan("MIXED_SHIFTED_CHOWS", "三色三步高", 6, "三种花色三副依次递增一位序数的顺子"),
    Fan("ALL_TYPES", "五门齐", 6, "和牌时三种序数牌、风、箭牌齐全"),
    Fan("MELDED_HAND", "全求人", 6, "全靠吃牌、碰牌、单钓别人打出的牌和牌。不计单钓将"),
    Fan("TWO_CONCEALED_KONGS", "双暗杠", 6, "两个暗杠"),
    Fan("TWO_DRAGONS_PUNGS", "双箭刻", 6, "两副箭刻（或杠）。不计箭刻"),
    Fan("OUTSIDE_HAND", "全带幺", 4, "和牌时，每副牌、将牌都有幺牌"),
    Fan("FULLY_CONCEALED_HAND", "不求人", 4, "4 副牌及将中没有吃牌、碰牌（包括明杠），自摸和牌。不计自摸"),
    Fan("TWO_MELDED_KONGS", "双明杠", 4, "两个明杠"),
    Fan("LAST_TILE", "和绝张", 4, "和牌池、桌面已亮明的 3 张牌所剩的第 4 张牌（抢杠和不计和绝张）"),
    Fan("DRAGON_PUNG", "箭刻", 2, "由中、发、白 3 张相同的牌组成的刻子"),
    Fan("PREVALENT_WIND", "圈风刻", 2, "与圈风相同的风刻"),
    Fan("SEAT_WIND", "门风刻", 2, "与本门风相同的风刻"),
    Fan("CONCEALED_HAND", "门前清", 2, "没有吃、碰、明杠，和别人打出的牌"),
    Fan("ALL_CHOWS", "平和", 2, "由 4 副顺子及序数牌作将组成的和牌。不计无字"),
    Fan("TILE_HOG", "四归一", 2, "和牌中，有 4 张相同的牌归于一家的顺、刻子、对、将牌中（不包括杠牌）"),
    Fan("DOUBLE_PUNG", "双同刻", 2, "2 副序数相同的刻子"),
    Fan("TWO_CONCEALED_PUNGS", "双暗刻", 2, "2 个暗刻"),
    Fan("CONCEALED_KONG", "暗杠", 2, "自抓 4 张相同的牌开杠"),
    Fan("ALL_SIMPLES", "断幺", 2, "和牌中没有一、九及字牌"),
    Fan("PURE_DOUBLE_CHOW", "一般高", 1, "由一种花色 2 副相同的顺子组成的牌"),
    Fan("MIXED_DOUBLE_CHOW", "喜相逢", 1, "2 种花色 2 副序数相同的顺子"),
    Fan("SHORT_STRAIGHT", "连六", 1, "一种花色 6 张相连接的序数牌"),
    Fan("TWO_TERMINAL_CHOWS", "老少副", 1, "一种花色牌的 123、789 两副顺子"),
    Fan("PUNG_OF_TERMINALS_OR_HONORS", "幺九刻", 1, "3 张相同的一、九序数牌及字牌组成的刻子（或杠）"),
    Fan("MELDED_KONG", "明杠", 1, "自己有暗刻，碰别人打出的一张相同的牌开杠；或自己抓进一张与碰的明刻相同的牌开杠"),
    Fan("ONE_VOIDED_SUIT", "缺一门", 1, "和牌中缺少一种花色序数牌"),
    Fan("NO_HONORS", "无字", 1, "和牌中没有风、箭牌"),
    Fan("EDGE_WAIT", "边张", 1, "单和 123 的 3 及 789 的 7 或 1233 和 3、7789 和 7", "独听・边张"),
    Fan("CLOSED_WAIT", "坎张", 1, "和 2 张牌之间的牌", "独听・嵌张"),
    Fan("SINGLE_WAIT", "单钓将", 1, "钓单张牌作将成和", "独听・单钓"),
    Fan("SELF_DRAWN", "自摸", 1, "自己抓进牌成和牌"),
    Fan("FLOWER_TILES", "花牌", 1, "即春夏秋冬，梅兰竹菊，每花计一分。不计在起和分内"),
    Fan("CONCEALED_KONG_AND_MELDED_KONG", "明暗杠", 5, "一个暗杠加一个明杠（通行计法，代替暗杠 2 + 明杠 1）"),
)

F = IntEnum("F", [f.key for f in _TABLE], start=0)  # type: ignore[misc]
"""Index of each fan in :data:`FANS` (``F.ALL_GREEN`` ...)."""

FANS: tuple[Fan, ...] = _TABLE
N_FANS = len(FANS)
STANDARD_FANS: tuple[Fan, ...] = FANS[:-1]  # the 81 of the table; 明暗杠 is the reference's extra
BY_ZH: dict[str, Fan] = {f.zh: f for f in FANS}
LIB_NAME_TO_ZH: dict[str, str] = {(f.lib_zh or f.zh): f.zh for f in FANS}
