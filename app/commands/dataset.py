"""`jingsuan dataset ACTION NAME ...`: the team's labelled photos (stats, import, export, check, audit, split).

Datasets live in ``$JINGSUAN_DATASETS`` (default ``<repo>/datasets`` in a checkout, else ``datasets/`` in the
user data folder) or ``--root``; see docs/annotate.md.
"""

from __future__ import annotations

import argparse
import sys

from app.commands import threshold

HELP = "标注数据集：统计、导入、导出、查漏标、查错标 (labelled dataset: stats, import, export, check, audit)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", help="folder that holds the datasets (default: $JINGSUAN_DATASETS, else <repo>/datasets in a checkout, else <data dir>/datasets)")
    parser.add_argument("--lang", choices=["zh", "en"], default="zh")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("stats", help="examples, review progress, boxes per class")
    p.add_argument("name")
    p = sub.add_parser("import-yolo", help="import a YOLO folder (data.yaml names matched by name)")
    p.add_argument("name")
    p.add_argument("src", help="YOLO folder (images/ + labels/, or <split>/images ...)")
    p.add_argument("--cmd-v4", action="store_true", help="map Chinese Mahjong Detection v4 names (sc1 → 1m ...; flowers dropped)")
    p = sub.add_parser("import-coco", help="import a COCO detection JSON")
    p.add_argument("name")
    p.add_argument("json")
    p.add_argument("images", help="folder with the images named in the JSON")
    p = sub.add_parser("import-label-studio", help="import a Label Studio JSON export (rectanglelabels)")
    p.add_argument("name")
    p.add_argument("json")
    p.add_argument("images", help="folder with the task images (matched by file name)")
    p = sub.add_parser("export-yolo", help="write a YOLO folder (train/valid with --holdout)")
    p.add_argument("name")
    p.add_argument("out")
    p.add_argument("--holdout", type=float, help="fraction held back as valid/ (deterministic per --seed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reviewed-only", action="store_true")
    p = sub.add_parser("export-coco", help="write a COCO detection JSON (image file names are those in images/)")
    p.add_argument("name")
    p.add_argument("out")
    p.add_argument("--reviewed-only", action="store_true")
    p = sub.add_parser("check", help="photos in which the shipped models see tiles without a label (exit 1 if any)")
    p.add_argument("name")
    p = sub.add_parser("audit", help="labels the shipped classifier reads as another tile, surely (exit 1 if any)")
    p.add_argument("name")
    p.add_argument("--min-p", type=threshold, default=None, help="how sure the classifier must be to doubt a label (default 0.9)")
    p = sub.add_parser("split", help="write train.txt/val.txt and point data.yaml at them")
    p.add_argument("name")
    p.add_argument("--holdout", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=0)


#: The actions that fill a dataset, creating it when it is not there yet; the others read one and refuse a name that
#: is not a dataset (a typo must not print an empty dataset's figures, nor leave a new empty folder behind).
IMPORTS = frozenset({"import-yolo", "import-coco", "import-label-studio"})


def run(args: argparse.Namespace) -> int:
    from scoring.errors import JingsuanError
    from vision.datasets import convert
    from vision.datasets import store as ds

    try:
        store = ds.open_dataset(args.name, args.root)
        if args.action not in IMPORTS and store.name not in (known := ds.list_datasets(store.root.parent)):
            raise ds.DatasetError(
                f"没有这个数据集：{store.name}（{store.root.parent} 里有：{'、'.join(known) or '还没有数据集'}）",
                f"no dataset {store.name} in {store.root.parent} (there: {', '.join(known) or 'none yet'})")
        if args.action == "stats":
            reviewed, total = store.progress()
            print(f"{store.root}: {total} examples, {reviewed} reviewed")
            counts = store.class_counts()
            print(" ".join(f"{k}:{v}" for k, v in counts.items()))
            bad = store.corrupt_sidecars()
            if bad:
                print(f"corrupt sidecars: {' '.join(bad)}", file=sys.stderr)
        elif args.action == "import-yolo":
            print(convert.import_yolo(args.src, store, convert.CMD_V4_IMPORT_MAP if args.cmd_v4 else None).summary())
        elif args.action == "import-coco":
            print(convert.import_coco(args.json, args.images, store).summary())
        elif args.action == "import-label-studio":
            print(convert.import_label_studio(args.json, args.images, store).summary())
        elif args.action == "export-yolo":
            print(convert.export_yolo(store, args.out, args.holdout, args.seed, args.reviewed_only))
        elif args.action == "export-coco":
            print(convert.export_coco(store, args.out, args.reviewed_only))
        elif args.action == "check":
            return _check(store, args.lang)
        elif args.action == "audit":
            return _audit(store, args.lang, args.min_p)
        elif args.action == "split":
            train, val = store.write_split(args.holdout, args.seed)
            print(f"{train}\n{val}")
    except JingsuanError as exc:
        print(exc.zh if args.lang == "zh" else exc.en, file=sys.stderr)
        return 2
    return 0


def _check(store, lang: str) -> int:  # noqa: ANN001 - a DatasetStore
    """`jingsuan dataset check NAME`: list the photos whose labels leave out tiles the shipped models see."""
    from vision.datasets.unlabelled import detector_finder, unlabelled_in_store

    found = unlabelled_in_store(store, detector_finder())
    zh = lang == "zh"
    lines = []
    for stem, boxes in found.items():
        where = " ".join(f"({x1:.0f},{y1:.0f})-({x2:.0f},{y2:.0f})" for x1, y1, x2, y2 in boxes)
        lines.append(f"{stem}: {len(boxes)} 张牌没有标注，位置 {where}" if zh else f"{stem}: {len(boxes)} tiles without a label at {where}")
    return _listed(
        lines,
        f"{len(store)} 张照片都没有发现漏标的牌" if zh else f"no tile without a label found in {len(store)} photos",
        f"{len(found)} / {len(store)} 张照片有漏标的牌：请在标注页补上，否则训练会把它们学成背景" if zh else
        f"{len(found)} of {len(store)} photos leave tiles unlabelled: box them in the annotate page, or training "
        "learns them as background",
    )


def _listed(lines: list[str], none: str, found: str) -> int:
    """A check's output: its findings (stdout) and what to do about them (stderr), exit 1; or `none`, exit 0."""
    for line in lines:
        print(line)
    if not lines:
        print(none)
        return 0
    print(found, file=sys.stderr)
    return 1


def _audit(store, lang: str, min_p: float | None) -> int:  # noqa: ANN001 - a DatasetStore
    """`jingsuan dataset audit NAME`: list the labels the shipped classifier surely reads as another tile."""
    from vision.datasets.audit import DOUBT_P, classifier_namer, doubts_in_store
    from vision.reader.layout.questions import tile_zh

    doubts = doubts_in_store(store, classifier_namer(), DOUBT_P if min_p is None else min_p)
    zh = lang == "zh"
    lines = []
    for d in doubts:
        where = f"({d.box[0]:.0f},{d.box[1]:.0f})-({d.box[2]:.0f},{d.box[3]:.0f})"
        lines.append(f"{d.stem} {where}：标的是{tile_zh(d.label)}，认牌模型有 {d.p:.0%} 把握是{tile_zh(d.reading)}" if zh else
                     f"{d.stem} {where}: labelled {d.label}, the classifier reads {d.reading} ({d.p:.0%})")
    return _listed(
        lines,
        f"{len(store)} 张照片的标注没有可疑的" if zh else f"no label in doubt in {len(store)} photos",
        f"{len(doubts)} 个标注可疑：请在标注页对照照片核对（认牌模型也会认错，不要照它直接改）" if zh else
        f"{len(doubts)} labels in doubt: check each against the photo in the annotate page (the classifier errs "
        "too: do not just take its reading)",
    )
