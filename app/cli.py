"""`jingsuan` command line: settle | detect | read | train | eval | dataset | app.

Each subcommand lives in `app/commands/<name>.py` with `HELP`, `add_arguments(parser)` and
`run(args) -> int`; heavy imports happen inside `run`, so `jingsuan settle` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, str] = {
    "settle": "app.commands.settle",
    "detect": "app.commands.detect",
    "read": "app.commands.read",
    "train": "app.commands.train",
    "eval": "app.commands.evaluate",
    "dataset": "app.commands.dataset",
    "app": "app.commands.serve",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jingsuan", description="精算 — 江西冲关麻将算分 (offline mahjong scorer)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        p = sub.add_parser(name, help=getattr(module, "HELP", name), description=getattr(module, "HELP", None))
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 1
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
