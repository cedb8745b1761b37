"""Tile strings (tenhou codes, Chinese) and the 精 cycles of chongguan.md §2."""

from __future__ import annotations

import pytest

from scoring.errors import TileError
from scoring.tiles import format_tiles, format_tiles_zh, jing_of, parse_tiles, tile


def codes(text: str) -> list[str]:
    return [t.code for t in parse_tiles(text)]


def test_tenhou_string_reads_every_suit_and_honor() -> None:
    assert codes("123m456p789s1234567z") == [*["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s"], *(f"{i}z" for i in range(1, 8))]


@pytest.mark.parametrize(("text", "expected"), [
    ("一二三万", "1m 2m 3m"), ("一万 九条 五筒", "1m 9s 5p"), ("東东南西北", "1z 1z 2z 3z 4z"),
    ("發发白中", "6z 6z 5z 7z"), ("红中 白板 发财 东风", "7z 5z 6z 1z"), ("1萬2餅3索", "1m 2p 3s"),
])
def test_chinese_names_are_read(text: str, expected: str) -> None:
    assert codes(text) == expected.split()


@pytest.mark.parametrize("bad", ["8z", "0m", "12", "x", "m"])
def test_unknown_codes_are_refused_with_a_message(bad: str) -> None:
    with pytest.raises(TileError) as err:
        parse_tiles(bad)
    assert err.value.zh and err.value.en


def test_formatting_round_trips() -> None:
    tiles = parse_tiles("5z9m1m1p7z")
    assert format_tiles(tiles) == "19m1p57z"
    assert format_tiles_zh(tiles) == "白 九万 一万 一筒 中"


@pytest.mark.parametrize(("indicator", "fu"), [
    ("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("1z", "2z"), ("4z", "1z"),
    ("5z", "7z"), ("7z", "6z"), ("6z", "5z"),
])
def test_fu_jing_is_the_next_tile_of_the_cycle(indicator: str, fu: str) -> None:
    """正精 = the indicator; 副精 = next in its cycle; dragons run 中→发→白→中 (7z→6z→5z→7z)."""
    zheng, nxt = jing_of(tile(indicator))
    assert (zheng.code, nxt.code) == (indicator, fu)
