"""Synthetic mahjong scenes with exact labels, from installed tile art and fonts.

Tilesets (`TILESETS`): ``default``, ``traditional``, ``jade`` (KDE, `kdegames-mahjongg-data-kf5`),
``smooth`` (GNOME's sprite sheet, `gnome-mahjongg`; cell map in `vision.training.synth.render`) and
``glyph`` (drawn from the Noto CJK fonts, `fonts-noto-cjk`).

KDE tile art: the tileset SVGs (element ids ``CHARACTER_n`` = n萬, ``ROD_n`` = n筒,
``BAMBOO_n`` = n條, ``WIND_1..4`` = 北 南 東 西, ``DRAGON_1..3`` = 白 發 中, ``TILE_1`` = the tile
body), rasterised with ``rsvg-convert --export-id`` and cached under ``~/.cache/jingsuan/tileart``.

`render_layout(rows)` draws given rows of tiles (standing, sideways = claimed, face-down = ``back``)
and returns the image with each tile's exact box; `random_scene(rng)` draws a random hand-like
scene, half of them warped by a mild perspective (`random_homography`; each box then follows the
tile's warped alpha mask); `write_yolo_sample` saves one as a YOLO image + label pair.
"""

from vision.training.synth.render import (
    TILESETS,
    SynthScene,
    SynthTile,
    TileArtError,
    TileSpec,
    element_id,
    random_homography,
    random_scene,
    render_layout,
    render_tile,
    smooth_cell,
    write_yolo_sample,
)

__all__ = [
    "TILESETS",
    "SynthScene",
    "SynthTile",
    "TileArtError",
    "TileSpec",
    "element_id",
    "random_homography",
    "random_scene",
    "render_layout",
    "render_tile",
    "smooth_cell",
    "write_yolo_sample",
]
