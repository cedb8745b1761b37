"""`jingsuan adopt RUN`: install the candidate a fine-tuning run left in RUN/candidate, though its judge
(a few held-back photos) kept the current reader; the current files stay as *.prev.* and the model
card's log says so (`vision.training.registry.adopt_candidate`).
"""

from __future__ import annotations

import argparse

HELP = "换上微调留下的候选模型（旧文件存为 *.prev.*）(install a fine-tuning run's candidate by hand)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", help="the fine-tuning run folder (runs/finetune/<run>)")
    parser.add_argument("--model-dir", help="the model folder to install into (default: $JINGSUAN_MODEL_DIR, else the shipped models)")


def run(args: argparse.Namespace) -> int:
    """Install a fine-tuning candidate by hand."""
    import sys

    from scoring.errors import JingsuanError
    from vision.reader.session import models_dir
    from vision.training.registry import adopt_candidate

    try:
        replaced = adopt_candidate(args.run, models_dir(args.model_dir))
    except JingsuanError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if replaced:
        print(f"已换上：{', '.join(replaced)}（旧文件存为 *.prev.*；重启应用生效） "
              f"(installed {', '.join(replaced)}; the old files are kept as *.prev.*; restart the app)")
    else:
        print("候选模型与现用的相同，没有更换 (the candidate is the current reader already: nothing changed)")
    return 0
