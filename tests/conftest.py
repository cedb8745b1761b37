"""Fixtures shared by the folders of the suite."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

#: The photo of `hand_photo`: the 精 indicator alone in a row, then the hand with its winning tile set apart.
PHOTO_ROWS = [[["9m"]], [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "5z", "5z"], ["3m"]]]


@pytest.fixture(scope="session")
def hand_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered photo of a winning hand (skips where the tile art is not installed)."""
    from vision.training.synth import TileArtError, render_layout

    try:
        scene = render_layout(PHOTO_ROWS, tile_height=80, background=(40, 110, 60))
    except TileArtError as exc:
        pytest.skip(f"no tile art: {exc}")
    path = tmp_path_factory.mktemp("photo") / "hand.png"
    cv2.imwrite(str(path), cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR))
    return path
