"""Assignment of roles (hand, winning tile, melds, indicator) on synthetic winning layouts.

    python bench/assign_synthetic.py [N] [--seed S]

Renders N random winning 冲关 hands with `vision.training.synth.render_layout` (the indicator alone in a row
above, the hand with the winning tile set apart, the melds in a row below: claimed tiles sideways,
concealed kongs with two backs), then assigns roles from

  (a) the ground-truth boxes: exact, tilted by up to ±10°, and tilted with ±4 % box jitter;
  (b) `vision.detect` on the rendered image, when models/tiles.onnx exists.

Prints the role accuracy (per tile: role, and for a meld tile its meld's type and tiles) and the
fraction of layouts whose assigned round settles exactly like the ground truth (the other three seats
hold `jing: {zheng: 0, fu: 1}` and no tiles).  Targets: role accuracy ≥ 95 %, settled-equal ≥ 90 %.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoring import RoundError, settle  # noqa: E402
from scoring.errors import JingsuanError  # noqa: E402
from scoring.tiles import CODES, format_tiles, parse_tiles  # noqa: E402
from vision.reader.boxes import iou_matrix  # noqa: E402
from vision.reader.detection import Detection  # noqa: E402
from vision.reader.layout import Assignment, assign  # noqa: E402

SUITED = [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]
HONOR = [(27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30), (31, 32, 33)]
WINNER, CHI_FROM, PENG_FROM = "S", "E", "W"
MELD_WEIGHTS = (0.3, 0.3, 0.2, 0.15, 0.05)  # 0..4 exposed melds


@dataclass
class Layout:
    """A rendered winning hand: the rows given to the renderer and the ground-truth round part."""

    rows: list[list[list[str]]]
    indicator: str
    hand: list[str]
    win: str
    melds: list[dict[str, Any]]


# ----------------------------------------------------------------------------- random winning hands


def _take(pool: list[int], tiles: list[int]) -> bool:
    """Take `tiles` from the pool of remaining copies; False (pool unchanged) when one is short."""
    need = {t: tiles.count(t) for t in set(tiles)}
    if any(pool[t] < n for t, n in need.items()):
        return False
    for t, n in need.items():
        pool[t] -= n
    return True


def _random_set(rng: random.Random) -> list[int]:
    """A chow (suited or honor) or a pung, as tile indices."""
    r = rng.random()
    if r < 0.5:
        return list(rng.choice(SUITED))
    if r < 0.6:
        return list(rng.choice(HONOR))
    return [rng.randrange(34)] * 3


def _exposed(rng: random.Random, tiles: list[int], pool: list[int]) -> tuple[dict[str, Any], list[str]] | None:
    """A declared meld from a set, and its render specs (claimed tile sideways, concealed kong with backs)."""
    codes = [CODES[t] for t in tiles]
    if len(set(tiles)) == 3:
        k = rng.randrange(3)
        specs = [c + (">" if i == k else "") for i, c in enumerate(codes)]
        return {"type": "chi", "tiles": format_tiles(parse_tiles(codes)), "claimed": codes[k], "from": CHI_FROM}, specs
    c = codes[0]
    kind = rng.random()
    if kind < 0.35 and _take(pool, [tiles[0]]):
        if kind < 0.15:
            return {"type": "angang", "tiles": format_tiles(parse_tiles([c] * 4))}, ["back", c, c, "back"]
        specs = [c] * 4
        specs[rng.randrange(4)] = c + ">"
        return {"type": "gang", "tiles": format_tiles(parse_tiles([c] * 4)), "from": PENG_FROM}, specs
    specs = [c] * 3
    specs[rng.randrange(3)] = c + ">"
    return {"type": "peng", "tiles": format_tiles(parse_tiles([c] * 3)), "from": PENG_FROM}, specs


def random_layout(rng: random.Random) -> Layout:
    """A random winning hand (4 sets + a pair, some exposed) with an indicator, laid out in rows."""
    while True:
        ind = rng.randrange(34)
        pool = [4] * 34
        pool[ind] -= 1  # the flipped indicator is one of the four copies
        n_melds = rng.choices(range(5), MELD_WEIGHTS)[0]
        sets = [_random_set(rng) for _ in range(4)]
        pair = [rng.randrange(34)] * 2
        if not all(_take(pool, s) for s in sets) or not _take(pool, pair):
            continue
        melds, meld_specs = [], []
        for s in sets[:n_melds]:
            made = _exposed(rng, s, pool)
            if made is None:
                break
            melds.append(made[0])
            meld_specs.append(made[1])
        concealed = [CODES[t] for s in sets[n_melds:] for t in s] + [CODES[t] for t in pair]
        win = concealed.pop(rng.randrange(len(concealed)))
        hand = sorted(concealed, key=CODES.index) if rng.random() < 0.7 else rng.sample(concealed, len(concealed))
        rows: list[list[list[str]]] = [[[CODES[ind]]], [hand, [win]]]
        if meld_specs:
            rows.append(meld_specs)
        return Layout(rows, CODES[ind], hand, win, melds)


# ----------------------------------------------------------------------------- rounds


def round_doc(indicator: str, hand: str, win: str, melds: list[dict[str, Any]]) -> dict[str, Any]:
    """A full round: the winner S self-draws; the other seats give only `jing: {zheng: 0, fu: 1}`."""
    players: dict[str, Any] = {s: {"jing": {"zheng": 0, "fu": 1}} for s in "ESWN"}
    players[WINNER] = {"hand": hand, "melds": melds}
    return {"rules": "xingguo", "dealer": "E", "indicator": indicator, "players": players,
            "win": {"seat": WINNER, "tile": win, "from": "self"}}


def truth_doc(lay: Layout) -> dict[str, Any]:
    """The ground truth's round document."""
    return round_doc(lay.indicator, format_tiles(parse_tiles(lay.hand)), lay.win, lay.melds)


def assigned_doc(a: Assignment) -> dict[str, Any] | None:
    """The assignment's round document (melds get the bench's seats), or None when it left a gap."""
    if a.win_tile is None or a.indicator is None or any(m.get("tiles") is None for m in a.melds):
        return None
    return round_doc(a.indicator, format_tiles(parse_tiles(a.hand)), a.win_tile, seated_melds(a.melds))


def seated_melds(melds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Read melds without their empty fields, each 吃 from CHI_FROM and 碰/明杠 from PENG_FROM."""
    out = []
    for m in melds:
        meld = {k: v for k, v in m.items() if v is not None}
        if m["type"] != "angang":
            meld["from"] = CHI_FROM if m["type"] == "chi" else PENG_FROM
        out.append(meld)
    return out


def settles_equal(truth: dict[str, Any], a: Assignment) -> bool:
    """Does the assigned round settle exactly as the ground truth does?"""
    doc = assigned_doc(a)
    if doc is None:
        return False
    try:
        return settle(doc).to_dict() == settle(truth).to_dict()
    except JingsuanError:
        return False


# ----------------------------------------------------------------------------- roles


def truth_roles(scene: Any, lay: Layout) -> list[str]:
    """Ground-truth role label of each rendered tile: indicator, hand, win, or meld:type:tiles."""
    out = []
    for t in scene.tiles:
        if t.row == 0:
            out.append("indicator")
        elif t.row == 1:
            out.append("hand" if t.group == 0 else "win")
        else:
            m = lay.melds[t.group]
            out.append(f"meld:{m['type']}:{m['tiles']}")
    return out


def assigned_roles(a: Assignment) -> dict[tuple[float, ...], str]:
    """Role label the assignment gave each detection's box (same labels as `truth_roles`).

    Keyed by box: a tile the assignment re-read (a guessed meld) is a new Detection on the same box."""
    out = {}
    for t in a.tiles:
        if t.role == "meld" and t.meld is not None:
            m = a.melds[t.meld]
            out[t.det.box] = f"meld:{m['type']}:{m.get('tiles')}"
        else:
            out[t.det.box] = t.role
    return out


def rotate_box(box: tuple[float, float, float, float], deg: float, centre: tuple[float, float]) -> tuple[float, ...]:
    """The axis-aligned box around `box` rotated by `deg` about `centre`."""
    th = math.radians(deg)
    c, s = math.cos(th), math.sin(th)
    x1, y1, x2, y2 = box
    pts = [(centre[0] + (x - centre[0]) * c - (y - centre[1]) * s, centre[1] + (x - centre[0]) * s + (y - centre[1]) * c)
           for x in (x1, x2) for y in (y1, y2)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def gt_detections(scene: Any, rng: random.Random, tilt: float = 0.0, jitter: float = 0.0) -> list[Detection]:
    """Detections from the exact boxes, optionally rotated by up to ±`tilt`° and jittered by ±`jitter`."""
    h, w = scene.image.shape[:2]
    deg = rng.uniform(-tilt, tilt) if tilt else 0.0
    out = []
    for t in scene.tiles:
        x1, y1, x2, y2 = rotate_box(t.box, deg, (w / 2, h / 2)) if deg else t.box
        if jitter:
            bw, bh = x2 - x1, y2 - y1
            x1, x2 = x1 + rng.uniform(-jitter, jitter) * bw, x2 + rng.uniform(-jitter, jitter) * bw
            y1, y2 = y1 + rng.uniform(-jitter, jitter) * bh, y2 + rng.uniform(-jitter, jitter) * bh
        out.append(Detection((x1, y1, x2, y2), t.tile, 0.99))
    return out


def match(scene: Any, dets: list[Detection]) -> list[Detection | None]:
    """For each ground-truth tile, the detection overlapping it best (IoU ≥ 0.5, one-to-one)."""
    if not dets:
        return [None] * len(scene.tiles)
    ious = iou_matrix(np.array([t.box for t in scene.tiles]), np.array([d.box for d in dets]))
    out: list[Detection | None] = []
    for row in ious:
        best = int(np.argmax(row))  # the first of equals, as before
        if row[best] >= 0.5:
            ious[:, best] = -1.0  # one-to-one: this detection is taken
            out.append(dets[best])
        else:
            out.append(None)
    return out


# ----------------------------------------------------------------------------- the bench


@dataclass
class Score:
    """Counts of one configuration."""

    tiles: int = 0
    right: int = 0
    layouts: int = 0
    settled: int = 0

    @property
    def role_accuracy(self) -> float:
        return self.right / self.tiles if self.tiles else 0.0

    @property
    def settled_equal(self) -> float:
        return self.settled / self.layouts if self.layouts else 0.0


def score_one(score: Score, scene: Any, lay: Layout, dets: list[Detection], matched: list[Detection | None]) -> None:
    """Add one layout's role and settlement results to `score`."""
    a = assign(dets)
    roles = assigned_roles(a)
    truth = truth_roles(scene, lay)
    score.tiles += len(truth)
    score.right += sum(d is not None and roles.get(d.box) == r for d, r in zip(matched, truth))
    score.layouts += 1
    score.settled += settles_equal(truth_doc(lay), a)


def render(lay: Layout, rng: random.Random) -> Any:
    """The layout drawn with a random KDE tileset and tile height (the figures in docs/detector.md are on KDE art)."""
    from vision.training.synth.render import KDE_TILESETS, render_layout

    return render_layout(lay.rows, tile_height=rng.randint(40, 90), tileset=rng.choice(KDE_TILESETS),
                         rng=np.random.default_rng(rng.randrange(2**31)))


def valid_layout(rng: random.Random) -> Layout:
    """A random layout whose ground-truth round settles (a few shapes are refused, e.g. forbidden wins)."""
    while True:
        lay = random_layout(rng)
        try:
            settle(truth_doc(lay))
        except RoundError:
            continue
        return lay


def run_gt(n: int, seed: int = 0, tilt: float = 0.0, jitter: float = 0.0) -> Score:
    """Role accuracy and settled-equal fraction on `n` layouts from ground-truth boxes."""
    rng = random.Random(seed)
    score = Score()
    for _ in range(n):
        lay = valid_layout(rng)
        scene = render(lay, rng)
        dets = gt_detections(scene, rng, tilt, jitter)
        score_one(score, scene, lay, dets, dets)
    return score


def run_detector(n: int, model: Path, seed: int = 0) -> Score:
    """The same figures from `vision.detect` on the rendered images."""
    from vision.reader.detector import detect

    rng = random.Random(seed)
    score = Score()
    for _ in range(n):
        lay = valid_layout(rng)
        scene = render(lay, rng)
        dets = detect(scene.image, model=model)
        score_one(score, scene, lay, dets, match(scene, dets))
    return score


def report(name: str, s: Score) -> str:
    """One printed line of figures."""
    return (f"{name:<34} role accuracy {100 * s.role_accuracy:5.1f} %   settled-equal {100 * s.settled_equal:5.1f} %"
            f"   ({s.layouts} layouts, {s.tiles} tiles)")


def main(n: int = 200, seed: int = 0) -> None:
    """Print the four figures for `n` layouts; `seed` draws another set of layouts (0: the documented one)."""
    at = 10 * seed
    print(f"synthetic winning layouts: {n}{f', seed {seed}' if seed else ''}   "
          "(targets: role accuracy ≥ 95 %, settled-equal ≥ 90 %)")
    print(report("(a) ground-truth boxes", run_gt(n, seed=at + 1)))
    print(report("(a) GT boxes tilted ±10°", run_gt(n, seed=at + 2, tilt=10.0)))
    print(report("(a) GT tilted ±10°, ±4 % jitter", run_gt(n, seed=at + 3, tilt=10.0, jitter=0.04)))
    model = ROOT / "models" / "tiles.onnx"
    if model.is_file():
        print(report("(b) vision.detect on the image", run_detector(n, model, seed=at + 4)))
    else:
        print(f"(b) skipped: no detector model at {model.relative_to(ROOT)}")


def cli(argv: list[str] | None = None) -> None:
    """`python bench/assign_synthetic.py [N] [--seed S]`."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=200, help="layouts per figure (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="another set of layouts (default 0)")
    args = ap.parse_args(argv)
    main(args.n, args.seed)


if __name__ == "__main__":
    cli()
