"""The README's command list is the CLI's: every `jingsuan` command and dataset action is listed, and every
option a listed line shows is one that command takes."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from app.cli import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's subcommands by name ({} when it has none)."""
    return next((dict(a.choices) for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})


def command_lines() -> list[list[str]]:
    """The words (before any `#` comment) of each `jingsuan …` line of the README's "Command line" block."""
    section = README.read_text(encoding="utf-8").split("## Command line", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    lines = (re.sub(r"^.*\| ", "", line.split("#", 1)[0]).split() for line in block.splitlines())
    return [words for words in lines if words[:1] == ["jingsuan"]]


def options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of the parser."""
    return {s for a in parser._actions for s in a.option_strings}


def test_the_readme_lists_every_command_and_no_other() -> None:
    listed = {words[1] for words in command_lines()}
    assert listed == set(subcommands(build_parser()))


def test_the_readme_lists_every_dataset_action_and_train_task() -> None:
    commands = subcommands(build_parser())
    dataset = next(w[2] for w in command_lines() if w[1] == "dataset")
    named = set(dataset.split("|"))
    for action in subcommands(commands["dataset"]):
        assert action in named or f"{action.split('-')[0]}-*" in named, action
    tasks = {w[2] for w in command_lines() if w[1] == "train"}
    assert tasks == set(subcommands(commands["train"]))


def test_every_option_the_readme_shows_is_taken_by_its_command() -> None:
    commands = subcommands(build_parser())
    for words in command_lines():
        parser = commands[words[1]]
        tasks = subcommands(parser)
        if words[1] == "train":
            parser = tasks[words[2]]
        shown = {m for w in words for m in re.findall(r"--[a-z][a-z-]*", w)}
        taken = options(parser) | {s for p in subcommands(parser).values() for s in options(p)}
        assert shown <= taken, (words, shown - taken)
