"""Synthetic mahjong scenes with exact labels, from the KDE tilesets (`kdegames-mahjongg-data-kf5`).

Tile art: the KDE tileset SVGs (element ids ``CHARACTER_n`` = n萬, ``ROD_n`` = n筒,
``BAMBOO_n`` = n條, ``WIND_1..4`` = 北 南 東 西, ``DRAGON_1..3`` = 白 發 中, ``TILE_1`` = the tile
body), rasterised with ``rsvg-convert --export-id`` and cached under ``~/.cache/jingsuan/tileart``.

`render_layout(rows)` draws given rows of tiles (standing, sideways = claimed, face-down = ``back``)
and returns the image with each tile's exact box; `random_scene(rng)` draws a random hand-like
scene; `write_yolo_sample` saves one as a YOLO image + label pair.
"""

from vision.synth.render import (
    TILESETS,
    SynthScene,
    SynthTile,
    TileArtError,
    TileSpec,
    element_id,
    random_scene,
    render_layout,
    render_tile,
    write_yolo_sample,
)

__all__ = [
    "TILESETS",
    "SynthScene",
    "SynthTile",
    "TileArtError",
    "TileSpec",
    "element_id",
    "random_scene",
    "render_layout",
    "render_tile",
    "write_yolo_sample",
]
