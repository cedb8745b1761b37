"""The quick benchmarks one after another, each as its own `python bench/X.py N` (what `make bench` runs).

    python bench/run_all.py [--rounds N] [--layouts M]   (defaults 10000 and 50; under a minute)

Scoring speed (冲关), 国标 speed next to pymahjonggb, and roles on synthetic layouts. The benches that need
photos, a GPU or long runs (detector_latency, heldout_tileset, unseen_sources, photo_robustness,
real_pixel_rounds, classifier_variants) take their own arguments and are run by hand (README).
Exits non-zero when one of them fails; figures are printed, never gated.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def quick_benches(rounds: int, layouts: int) -> list[tuple[str, list[str]]]:
    """(script, arguments) of each quick bench, in the order they run."""
    return [("scoring_speed.py", [str(rounds)]), ("gb_speed.py", [str(rounds)]), ("assign_synthetic.py", [str(layouts)])]


def run_bench(script: str, args: Sequence[str]) -> int:
    """Run one bench from the repository root with this Python; its exit status."""
    print(f"== python bench/{script} {' '.join(args)}", flush=True)
    path = os.pathsep.join(p for p in (str(BENCH.parent), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path}  # the checkout's packages, installed or not
    return subprocess.run([sys.executable, str(BENCH / script), *args], cwd=BENCH.parent, env=env).returncode


def main(argv: Sequence[str] | None = None) -> int:
    """Run the quick benches; 0 when every one ran, else 1 (and the failed ones are named)."""
    parser = argparse.ArgumentParser(description="run the quick benchmarks")
    parser.add_argument("--rounds", type=int, default=10_000, help="random rounds / hands for the speed benches")
    parser.add_argument("--layouts", type=int, default=50, help="synthetic layouts for assign_synthetic")
    args = parser.parse_args(argv)
    failed = [s for s, a in quick_benches(args.rounds, args.layouts) if run_bench(s, a) != 0]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
