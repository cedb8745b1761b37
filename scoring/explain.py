"""The human explanation of a settlement, Chinese names first (shape, 德国, 精吊, 精 points, 冲关, 霸精)."""

from __future__ import annotations

from typing import Any, Protocol

from scoring.settlement import COMPONENT_ZH, COMPONENTS, SEAT_ZH, SEATS


class _Tally(Protocol):
    zheng: int
    fu: int
    value: int
    bajing: bool

    @property
    def points(self) -> int: ...


def describe_win(win: dict[str, Any], payments: dict[str, int], method_zh: str) -> list[str]:
    """One line for the hand (names, H and M) and one per payer."""
    who = SEAT_ZH[win["seat"]]
    src = "" if win["from"] == "self" else f"（{SEAT_ZH[win['from']]}家{'的杠' if win.get('robbed_kong') else '放炮'}）"
    lines = [f"胡牌：{who}家{method_zh}{src}，{'、'.join(win['names'])}（底 H={win['H']}，倍数 M={win['M']}）"]
    if win.get("flat"):
        lines.append("天胡/地胡按固定分计（比普通算法多）")
    lines.append("胡计子：" + "，".join(f"{SEAT_ZH[p]}家付 {a}" for p, a in payments.items()) + f"，共 {sum(payments.values())}")
    return lines


def jing_formula(points: int, value: int, bajing: bool) -> str:
    """「6分 冲关 6×(6−3)=18，霸精×2=36」."""
    if points >= 5:
        base = points * (points - 3)
        text = f"{points}分 冲关 {points}×({points}−3)={base}"
        if base != (value // 2 if bajing else value):
            text = f"{points}分 满精={value // 2 if bajing else value}"
    else:
        text = f"{points}分"
    if bajing:
        text += f"，霸精×2={value}"
    return text


def describe_jing(tallies: dict[str, _Tally], bajing: str | None, bahu: bool) -> list[str]:
    """Each player's 精 points and value (冲关, 霸精), and 霸胡 when nobody holds 精."""
    if bahu:
        return ["精：四家都没有精 → 霸胡（德中德），胡分翻倍"]
    parts = []
    for seat in SEATS:
        t = tallies[seat]
        parts.append(f"{SEAT_ZH[seat]}家 正精{t.zheng} 副精{t.fu} = {jing_formula(t.points, t.value, t.bajing)}")
    return ["精：" + "；".join(parts)]


def display_width(s: str) -> int:
    """Terminal width of a string: CJK characters take two cells."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in s)


def text_table(doc: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """A readable Chinese table of a settlement document: per seat 胡/精/杠/跟庄/罚/合计."""
    names = names or {}
    header = ["", *[f"{SEAT_ZH[s]}{('·' + names[s]) if s in names else ''}" for s in SEATS]]
    deltas = doc.get("deltas", {})
    rows = [[COMPONENT_ZH[c], *[deltas.get(c, {}).get(s, 0) for s in SEATS]] for c in COMPONENTS]
    rows.append(["合计", *[doc.get("total", {}).get(s, 0) for s in SEATS]])
    cells = [header] + [[r[0], *[f"{v:+d}" if v else "0" for v in r[1:]]] for r in rows]
    width = [max(display_width(row[i]) for row in cells) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(c + " " * (w - display_width(c)) for c, w in zip(row, width)).rstrip()

    win = doc.get("win")
    out = [f"胡：{SEAT_ZH[win['seat']]}家 {'、'.join(win.get('names', []))}" if win else "流局"]
    out += [line(r) for r in cells]
    out += [f"· {e}" for e in doc.get("explanation", [])]
    out += [f"! {w}" for w in doc.get("warnings", [])]
    return "\n".join(out)
