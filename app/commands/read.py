"""`jingsuan read PHOTO [--indicator TILE] [--rules PRESET]`: detect the tiles and print the winner's part of the round as JSON.

The JSON holds the indicator, the concealed hand, the melds, the winning tile, each tile's 精 mark and
the `questions` the photo could not answer (see docs/photo_guide.md for how to lay out a hand).
"""

from __future__ import annotations

import argparse
import json
import sys

from app.commands import add_photo_arguments

HELP = "读照片：识别牌并分出手牌、副露、胡牌和翻精 (read a photo into the winner's part of a round)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_photo_arguments(parser)
    parser.add_argument("--indicator", help="the flipped 精 tile, e.g. 5p or 五筒 (overrides the photo)")
    parser.add_argument("--rules", default="xingguo", metavar="PRESET",
                        help="the table's 冲关 preset (xingguo, nanchang, jian, jian_laok, yongfeng, lianhua): "
                             "it decides which hands are wins when the most probable legal round is chosen")


def read_photo(photo: str, indicator: str | None, model: str | None, conf: float,
               rules: str = "xingguo") -> dict[str, object]:
    """The round part of one photo (`vision.read_photo`) under the preset `rules`; bad input raises JingsuanError."""
    import vision
    from scoring.chongguan import resolve_options

    options = resolve_options(rules, None)  # an unknown preset is refused before the photo is read
    return vision.read_photo(photo, models=model, indicator=indicator or None, conf=conf,
                             options=options).round_part()


def run(args: argparse.Namespace) -> int:
    from scoring.errors import JingsuanError

    try:
        part = read_photo(args.photo, args.indicator, args.model, args.conf, args.rules)
    except JingsuanError as exc:
        print(exc.zh if args.lang == "zh" else exc.en, file=sys.stderr)
        return 2
    print(json.dumps(part, ensure_ascii=False, indent=2))
    return 0
