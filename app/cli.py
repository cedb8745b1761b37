"""`jingsuan` command line: settle | detect | read | train | finetune | adopt | eval | dataset | app.

Each subcommand lives in `app/commands/<name>.py` with `HELP`, `add_arguments(parser)` and
`run(args) -> int`; heavy imports happen inside `run`, so `jingsuan settle` starts fast.

One front door for every command (`main`): a refused input (JingsuanError, a missing or
unreadable file) prints one line and exits 2; an internal error prints one line naming the log
file (`<data dir>/logs/cli.log`, which holds the traceback) and exits 1; a closed pipe
(`jingsuan settle ... | head`) ends quietly.  No traceback reaches the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

COMMANDS: dict[str, str] = {
    "settle": "app.commands.settle",
    "detect": "app.commands.detect",
    "read": "app.commands.read",
    "train": "app.commands.train",
    "finetune": "app.commands.finetune",
    "adopt": "app.commands.adopt",
    "eval": "app.commands.evaluate",
    "dataset": "app.commands.dataset",
    "app": "app.commands.serve",
}

EXIT_REFUSED = 2
EXIT_INTERNAL = 1
LOG_NAME = "cli.log"


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


def log_path() -> Path:
    """Where internal errors are written: `<data dir>/logs/cli.log`."""
    from app.ledger import default_data_dir

    return default_data_dir() / "logs" / LOG_NAME


def log_internal_error(exc: BaseException, argv: Sequence[str]) -> str:
    """Append the traceback to the log file; the path written to, or '' when it cannot be written."""
    import datetime

    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {datetime.datetime.now().isoformat(timespec='seconds')} jingsuan {' '.join(argv)}\n")
            fh.write("".join(traceback.format_exception(exc)))
        return str(path)
    except (OSError, ValueError):
        return ""


def one_line(text: str, limit: int = 300) -> str:
    """`text` on one line, cut to `limit` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def refusal_text(exc: BaseException, lang: str) -> str:
    """The one line a refused input prints."""
    from scoring.errors import JingsuanError

    if isinstance(exc, JingsuanError):
        return one_line(exc.en if lang == "en" else exc.zh)
    if isinstance(exc, OSError):
        where = f" {exc.filename}" if exc.filename else ""
        reason = exc.strerror or type(exc).__name__
        return one_line(f"无法读写{where}：{reason}" if lang != "en" else f"cannot read or write{where}: {reason}")
    return one_line(f"输入嵌套太深 (input nested too deep): {type(exc).__name__}")


def quiet_broken_pipe() -> None:
    """After the reader of our output went away: send what is left to /dev/null so exit stays quiet."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def tolerant_streams() -> None:
    """Output never fails on text a file smuggled in (a lone surrogate from a JSON escape): it is escaped."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def run_command(args: argparse.Namespace) -> int:
    """Run the chosen command and flush its output inside the front door."""
    status = int(args._run(args) or 0)
    sys.stdout.flush()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    from scoring.errors import JingsuanError

    argv = list(sys.argv[1:] if argv is None else argv)
    tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)  # a bad option: argparse prints usage and one line, exit 2
    if not getattr(args, "_run", None):
        parser.print_help()
        return 1
    lang = str(getattr(args, "lang", "zh") or "zh")
    try:
        return run_command(args)
    except BrokenPipeError:
        quiet_broken_pipe()
        return 0
    except KeyboardInterrupt:
        return 130
    except (JingsuanError, OSError, RecursionError) as exc:
        print(refusal_text(exc, lang), file=sys.stderr)
        return EXIT_REFUSED
    except Exception as exc:  # noqa: BLE001 - the front door: never a traceback on the terminal
        where = log_internal_error(exc, argv)
        detail = one_line(f"{type(exc).__name__}: {exc}", 160)
        log_note = f"；详情见 {where}" if where else ""
        log_note_en = f"; details in {where}" if where else ""
        print(f"内部错误 (internal error): {detail}{log_note}{log_note_en}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
