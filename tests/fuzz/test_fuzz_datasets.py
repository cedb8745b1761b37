"""Malformed COCO, Label Studio and YOLO imports: refused with a DatasetError (a one-line message), never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import JingsuanError
from tests.fuzz.strategies import JSON, mutated

FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

COCO = {
    "images": [{"id": 1, "file_name": "a.png", "width": 64, "height": 48}],
    "annotations": [{"id": 1, "image_id": 1, "category_id": 3, "bbox": [4, 4, 10, 14]}],
    "categories": [{"id": 3, "name": "1m"}],
}
LABEL_STUDIO = [
    {
        "id": 7,
        "data": {"image": "/data/upload/1/0123abcd-a.png"},
        "annotations": [
            {"result": [{"type": "rectanglelabels", "value": {"x": 5, "y": 5, "width": 20, "height": 30,
                                                              "rotation": 0, "rectanglelabels": ["1m"]}}]}
        ],
    }
]  # fmt: skip


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import cv2

    root = tmp_path_factory.mktemp("imports")
    (root / "images").mkdir()
    cv2.imwrite(str(root / "images" / "a.png"), np.full((48, 64, 3), 90, np.uint8))
    return root


def attempt(call) -> None:  # noqa: ANN001
    """Run an import: it may succeed or refuse with our error type; anything else fails the test."""
    try:
        call()
    except JingsuanError as exc:
        assert exc.zh and exc.en


def attempt_json_import(folder: Path, doc: object, importer: str) -> None:
    """Write `doc` as an export file and `attempt` to import it with `vision.datasets.convert.<importer>`."""
    from vision.datasets import convert
    from vision.datasets.store import DatasetStore

    path = folder / f"{importer}.json"
    path.write_text(json.dumps(doc))
    attempt(lambda: getattr(convert, importer)(path, folder / "images", DatasetStore(folder / "store")))


@FUZZ
@given(doc=mutated(COCO) | JSON)
def test_malformed_coco_is_refused_cleanly(folder: Path, doc: object) -> None:
    attempt_json_import(folder, doc, "import_coco")


@FUZZ
@given(doc=mutated(LABEL_STUDIO) | JSON)
def test_malformed_label_studio_is_refused_cleanly(folder: Path, doc: object) -> None:
    attempt_json_import(folder, doc, "import_label_studio")


LABEL_LINE = st.lists(
    st.sampled_from(["0", "1", "-1", "34", "99", "0.5", "1e999", "inf", "-inf", "nan", "x", "", "2.5", "1e308"]),
    max_size=9,
).map(" ".join)
DATA_YAML = st.one_of(
    st.just("names: ['1m', '2m']\n"),
    st.just("a: &a [x, x]\nnames: [*a, *a]\n"),
    st.just("names: " + "[" * 200 + "]" * 200 + "\n"),
    st.just("names: 7\n"),
    st.just("names: {0: 1m, x: 2m}\n"),
    st.just("- names\n"),
    st.text(max_size=40),
)


@FUZZ
@given(lines=st.lists(LABEL_LINE, max_size=5), data_yaml=st.none() | DATA_YAML)
def test_malformed_yolo_folders_are_refused_cleanly(folder: Path, lines: list[str], data_yaml: str | None) -> None:
    import shutil

    from vision.datasets import convert
    from vision.datasets.store import DatasetStore

    src = folder / "yolo"
    shutil.rmtree(src, ignore_errors=True)
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    shutil.copy(folder / "images" / "a.png", src / "images" / "a.png")
    (src / "labels" / "a.txt").write_text("\n".join(lines))
    if data_yaml is not None:
        (src / "data.yaml").write_text(data_yaml)
    attempt(lambda: convert.import_yolo(src, DatasetStore(folder / "store")))
