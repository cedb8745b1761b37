"""Importing `vision` and running a detection must not pull in torch or ultralytics."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_vision_import_does_not_load_training_stack():
    code = (
        "import sys, vision, vision.reader.detector, vision.reader.image, vision.datasets.yolo, vision.training.evaluate, "
        "vision.training.synth, vision.training.detector, vision.training.finetune\n"
        "bad = [m for m in ('torch', 'ultralytics') if m in sys.modules]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
