"""Offline training setup that needs no training run: the stand-in font for ultralytics' plots."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")  # comes with the `train` extra (ultralytics needs it)


def test_a_machine_without_system_fonts_uses_matplotlibs_dejavu(tmp_path):
    """The GPU machine has no /usr/share/fonts: ultralytics' Arial stand-in comes from matplotlib."""
    from vision.training.detector import find_local_font, place_fonts

    font = find_local_font(candidates=(str(tmp_path / "missing.ttf"),))
    assert font is not None and font.name == "DejaVuSans.ttf" and font.stat().st_size > 100_000
    placed = place_fonts(tmp_path / "cfg", font)
    assert [p.name for p in placed] == ["Arial.ttf", "Arial.Unicode.ttf"]
    assert all(p.read_bytes() == font.read_bytes() for p in placed)
