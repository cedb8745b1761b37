"""`jingsuan settle FILE [FILE ...]`: settle rounds (JSON or YAML, `-` = stdin) and print the settlement.

One file → the settlement JSON of round-format.md (or `--text`, a readable Chinese table).
Several files → JSON Lines, one settlement per line with a `file` field; a refused round prints
`{"file": ..., "error": ...}` on its line.  Any refusal → exit status 2; a single refused file
prints one line saying why on stderr and nothing on stdout.  Input is capped (256 KiB, regular
files or stdin only), YAML without aliases (scoring/inputs.py); a bad file never ends a batch.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "结算一局 (settle a round: JSON/YAML file, - for stdin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="round description(s), JSON or YAML; - reads stdin")
    parser.add_argument("--text", action="store_true", help="print a readable Chinese table instead of JSON")
    parser.add_argument("--lang", choices=["zh", "en"], default="zh", help="language of error messages")


MAX_ROUND_BYTES = 256 * 1024  # a round is a few hundred bytes; a megabyte-sized one is not a round


def read_round(name: str) -> dict[str, Any]:
    """Read one round document (JSON or YAML, capped, no aliases); unreadable input raises JingsuanError."""
    from scoring.errors import RoundError
    from scoring.inputs import load_yaml_file

    doc = load_yaml_file(name, MAX_ROUND_BYTES)
    if not isinstance(doc, dict):
        raise RoundError(f"{name} 的内容必须是一个对象（牌局描述）", f"{name} must hold a mapping (a round)")
    return doc


def settle_file(name: str) -> dict[str, Any]:
    """The settlement document of one file; refusals (also a field of the wrong type) raise JingsuanError."""
    from scoring import settle

    return settle(read_round(name)).to_dict()


def run(args: argparse.Namespace) -> int:
    from scoring.errors import JingsuanError
    from scoring.explain import text_table

    def message(exc: JingsuanError) -> str:
        return exc.en if args.lang == "en" else exc.zh

    if len(args.files) == 1:
        try:
            doc = settle_file(args.files[0])
        except JingsuanError as exc:
            print(message(exc), file=sys.stderr)
            return 2
        print(text_table(doc) if args.text else json.dumps(doc, ensure_ascii=False, indent=2))
        return 0
    status = 0
    for name in args.files:
        try:
            doc = settle_file(name)
        except JingsuanError as exc:
            status = 2
            print(json.dumps({"file": name, "error": message(exc)}, ensure_ascii=False))
            continue
        except Exception as exc:  # noqa: BLE001 - one bad file never ends the batch
            status = 2
            error = f"{type(exc).__name__}: {exc}"[:300]
            print(json.dumps({"file": name, "error": error}, ensure_ascii=False))
            continue
        if args.text:
            print(f"== {name}\n{text_table(doc)}")
        else:
            print(json.dumps({"file": name, **doc}, ensure_ascii=False))
    return status
