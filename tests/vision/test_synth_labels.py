"""The synthetic generator's labels are exact: each box is tight on the rendered tile."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.datasets.yolo import read_yolo_labels
from vision.reader.detection import CLASS_NAMES
from vision.training.synth import TileArtError, element_id, random_scene, render_layout, render_tile, write_yolo_sample
from vision.training.synth import render as synth_render

needs_kde = pytest.mark.skipif(
    not (Path("/usr/share/kmahjongglib/tilesets/default.svgz").exists() and shutil.which("rsvg-convert")),
    reason="needs kdegames-mahjongg-data-kf5 and librsvg2-bin (scripts/install_test_system_deps.sh)",
)
needs_smooth = pytest.mark.skipif(
    not synth_render.GNOME_SMOOTH_PNG.exists(), reason="needs gnome-mahjongg (scripts/install_test_system_deps.sh)"
)
needs_noto = pytest.mark.skipif(
    not any((synth_render.NOTO_DIR / f).exists() for f, _ in synth_render.NOTO_FONTS),
    reason="needs fonts-noto-cjk (scripts/install_test_system_deps.sh)",
)
NEW_TILESETS = [
    pytest.param("smooth", marks=needs_smooth),
    pytest.param("glyph", marks=needs_noto),
    pytest.param("glyph-3", marks=needs_noto),  # one of the varied drawn tilesets (index marks, a border 白)
]

BG = (0, 0, 255)


def _foreground(img: np.ndarray) -> np.ndarray:
    return np.any(np.abs(img.astype(int) - np.array(BG)) > 40, axis=2)


def test_element_ids_follow_the_kde_naming():
    assert element_id("3m") == "CHARACTER_3"
    assert element_id("9p") == "ROD_9"
    assert element_id("1s") == "BAMBOO_1"
    assert [element_id(f"{n}z") for n in range(1, 8)] == [
        "WIND_3", "WIND_2", "WIND_4", "WIND_1", "DRAGON_1", "DRAGON_2", "DRAGON_3"
    ]


@needs_kde
@pytest.mark.parametrize("spec", ["5p", "7z>", "back"])
def test_single_tile_box_is_tight(spec):
    scene = render_layout([[spec]], tile_height=60, background=BG)
    (t,) = scene.tiles
    fg = _foreground(scene.image)
    ys, xs = np.nonzero(fg)
    x1, y1, x2, y2 = t.box
    assert abs(xs.min() - x1) <= 1 and abs(ys.min() - y1) <= 1
    assert abs(xs.max() + 1 - x2) <= 1 and abs(ys.max() + 1 - y2) <= 1
    if spec.endswith(">"):
        assert (x2 - x1) > (y2 - y1)  # a sideways tile lies flat


@needs_kde
def test_rows_and_groups_are_labelled_in_order():
    scene = render_layout([[["1m", "2m", "3m"], ["5z>", "5z", "5z"]], [["back", "9s", "9s", "back"]]], background=BG)
    assert [t.tile for t in scene.tiles] == ["1m", "2m", "3m", "5z", "5z", "5z", "back", "9s", "9s", "back"]
    assert [t.group for t in scene.tiles[:6]] == [0, 0, 0, 1, 1, 1]
    assert scene.tiles[3].sideways and not scene.tiles[4].sideways
    assert all(t.row == 1 for t in scene.tiles[6:])
    boxes = [t.box for t in scene.tiles[:6]]
    assert all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:]))  # left to right, no overlap


@needs_kde
@needs_smooth
@needs_noto
def test_yolo_sample_round_trips(tmp_path):
    scene = random_scene(np.random.default_rng(3))
    img, lbl = write_yolo_sample(scene, tmp_path, "s0")
    boxes = read_yolo_labels(lbl)
    assert img.exists() and len(boxes) == len(scene.tiles)
    h, w = scene.image.shape[:2]
    for b, t in zip(boxes, scene.tiles):
        assert CLASS_NAMES[b.cls] == t.tile
        x1, y1, x2, y2 = b.xyxy()
        assert x1 * w == pytest.approx(t.box[0], abs=0.01) and y2 * h == pytest.approx(t.box[3], abs=0.01)


@pytest.mark.parametrize("tileset", NEW_TILESETS)
def test_every_code_renders_tight_and_standing(tileset):
    for code in CLASS_NAMES:
        art = render_tile(code, tileset)
        alpha = art[:, :, 3]
        assert art.dtype == np.uint8 and art.shape[2] == 4
        assert alpha[0].max() > 0 and alpha[-1].max() > 0 and alpha[:, 0].max() > 0 and alpha[:, -1].max() > 0, code
        assert alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 255, code
        assert art.shape[0] > art.shape[1], code  # a standing tile is taller than wide


@pytest.mark.parametrize("tileset", NEW_TILESETS)
def test_every_code_has_its_own_face(tileset):
    arts = {code: render_tile(code, tileset).astype(np.int16) for code in CLASS_NAMES}
    assert len({a.shape for a in arts.values()}) == 1
    codes = list(arts)
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            assert np.abs(arts[a] - arts[b]).mean() > 1.0, (a, b)


@needs_noto
def test_glyph_tiles_are_deterministic():
    a = synth_render._glyph_tile("7p")
    b = synth_render._glyph_tile("7p")
    assert np.array_equal(a, b)


def _colour_counts(art: np.ndarray) -> dict[str, int]:
    rgb = art[:, :, :3].astype(int)
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    on = art[:, :, 3] > 200
    return {
        "red": int((on & (r > g + 60) & (r > b + 60)).sum()),
        "green": int((on & (g > r + 30) & (g > b + 10)).sum()),
        "blue": int((on & (b > r + 30) & (b > g + 10)).sum()),
        "dark": int((on & (rgb.max(axis=2) < 90)).sum()),
    }


def _face_components(art: np.ndarray) -> int:
    """Number of separate coloured marks (dots, sticks) on the face, rings inside a dot counted once."""
    import cv2

    rgb = art[:, :, :3].astype(int)
    coloured = (rgb.max(axis=2) - rgb.min(axis=2) > 50) & (art[:, :, 3] > 200)
    contours, _ = cv2.findContours(coloured.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sum(cv2.contourArea(c) > 40 for c in contours)


@needs_smooth
def test_smooth_cells_map_to_the_right_tiles():
    red_dragon, green_dragon = _colour_counts(render_tile("7z", "smooth")), _colour_counts(render_tile("6z", "smooth"))
    assert red_dragon["red"] > 5 * max(1, red_dragon["green"])
    assert green_dragon["green"] > 5 * max(1, green_dragon["red"])
    white = render_tile("5z", "smooth")
    ink = _colour_counts(white)
    assert sum(ink.values()) < 0.1 * white.shape[0] * white.shape[1]  # 白 is mostly blank
    for code in ("1z", "2z", "3z", "4z"):  # winds: black ink, no colour
        c = _colour_counts(render_tile(code, "smooth"))
        assert c["dark"] > 200 and c["red"] + c["green"] < 50, code
    for n in range(1, 10):  # 萬: a blue numeral above a red 萬
        art = render_tile(f"{n}m", "smooth")
        top, bottom = _colour_counts(art[: art.shape[0] // 2]), _colour_counts(art[art.shape[0] // 2 :])
        assert top["blue"] > top["red"] and bottom["red"] > bottom["blue"], n
    one_bamboo = _colour_counts(render_tile("1s", "smooth"))
    assert one_bamboo["red"] > one_bamboo["green"] + one_bamboo["blue"]
    for n in range(2, 10):
        c = _colour_counts(render_tile(f"{n}s", "smooth"))
        assert c["green"] + c["blue"] > c["red"], n
    back = render_tile("back", "smooth").astype(int)
    assert back[:, :, 1].mean() > back[:, :, 0].mean() + 20  # green back


@pytest.mark.parametrize("tileset", NEW_TILESETS)
def test_dots_and_sticks_come_in_their_counts(tileset):
    assert [_face_components(render_tile(f"{n}p", tileset)) for n in range(1, 10)] == list(range(1, 10))
    sticks = [2, 3, 4, 5, 6, 7, 9]  # 8條's sticks touch in its M/W pattern
    joints = 2 if tileset.startswith("glyph-") and synth_render.glyph_style(int(tileset[6:])).stick_style == "segmented" else 1
    assert [_face_components(render_tile(f"{n}s", tileset)) for n in sticks] == [joints * n for n in sticks]


def test_missing_smooth_png_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(synth_render, "GNOME_SMOOTH_PNG", tmp_path / "themes" / "smooth.png")
    render_tile.cache_clear()
    with pytest.raises(TileArtError, match="gnome-mahjongg") as err:
        render_tile("1m", "smooth")
    assert "请安装" in err.value.zh and "missing" in err.value.en


def _check_tight(img: np.ndarray, box: tuple[float, float, float, float], pad: int = 4) -> None:
    """The foreground near `box` spans exactly `box` (±1 px)."""
    fg = _foreground(img)
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    ys, xs = np.nonzero(fg[max(0, y1 - pad) : y2 + pad, max(0, x1 - pad) : x2 + pad])
    ox, oy = max(0, x1 - pad), max(0, y1 - pad)
    assert abs(ox + xs.min() - box[0]) <= 1 and abs(oy + ys.min() - box[1]) <= 1, box
    assert abs(ox + xs.max() + 1 - box[2]) <= 1 and abs(oy + ys.max() + 1 - box[3]) <= 1, box


@pytest.mark.parametrize(
    "tileset", [pytest.param("default", marks=needs_kde), pytest.param("traditional", marks=needs_kde), *NEW_TILESETS]
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perspective_boxes_are_tight_on_each_tile(tileset, seed):
    rows = [[["1m"], ["5p>"], ["back"], ["7z"], ["1s"]], [["9s"], ["2p>"], ["5z"]]]
    flat = render_layout(rows, tile_height=60, tileset=tileset, background=BG, group_gap=0.6)
    scene = render_layout(
        rows, tile_height=60, tileset=tileset, background=BG, group_gap=0.6, perspective=True,
        rng=np.random.default_rng(seed),
    )  # fmt: skip
    assert scene.image.shape != flat.image.shape  # the warp grows the canvas to hold the whole scene
    assert [t.tile for t in scene.tiles] == [t.tile for t in flat.tiles]
    for t in scene.tiles:  # each tile stands alone (group gaps), so the foreground around its box is its own
        _check_tight(scene.image, t.box)
    heights = [t.box[3] - t.box[1] for t in scene.tiles if not t.sideways]
    assert max(heights) - min(heights) >= 1 or scene.tiles[0].box[1] != scene.tiles[3].box[1]  # not axis-aligned


@needs_kde
@needs_smooth
@needs_noto
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_warped_random_scene_labels_every_visible_tile_pixel(seed, monkeypatch):
    monkeypatch.setattr(synth_render, "_background", lambda h, w, rng: np.full((h, w, 3), BG, np.uint8))
    monkeypatch.setattr(synth_render, "_degrade", lambda img, rng: img)
    monkeypatch.setattr(synth_render, "_cast_shadows", lambda canvas, placed, th, rng: None)  # shade is not a tile
    scene = random_scene(np.random.default_rng(seed), perspective=1.0)
    fg = _foreground(scene.image)
    covered = np.zeros_like(fg)
    for t in scene.tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in t.box)
        covered[max(0, y1 - 1) : y2 + 1, max(0, x1 - 1) : x2 + 1] = True
        inside = fg[y1:y2, x1:x2]  # every box edge touches its tile
        assert inside[0].any() and inside[-1].any() and inside[:, 0].any() and inside[:, -1].any(), t
    assert not (fg & ~covered).any()  # no visible tile pixel is left unlabelled


@needs_kde
@needs_smooth
@needs_noto
def test_random_scene_uses_every_tileset_and_warps_half_of_them():
    seen: set[str] = set()
    warped = 0
    real = synth_render.render_layout

    def spy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - a pass-through spy
        nonlocal warped
        seen.add(kwargs["tileset"])
        warped += bool(kwargs["perspective"])
        return real(*args, **kwargs)

    rng = np.random.default_rng(5)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(synth_render, "render_layout", spy)
        for _ in range(40):
            random_scene(rng, tile_height=30)
    assert seen == set(synth_render.TILESETS)
    assert 8 <= warped <= 32


@needs_noto
def test_a_varied_drawn_tileset_is_the_same_every_time_and_another_seed_looks_different():
    a = [render_tile(c, "glyph-11") for c in CLASS_NAMES]
    assert all(np.array_equal(x, render_tile(c, "glyph-11")) for x, c in zip(a, CLASS_NAMES))
    b = [render_tile(c, "glyph-12") for c in CLASS_NAMES]
    assert synth_render.glyph_style(11) != synth_render.glyph_style(12)
    assert sum(not np.array_equal(x, y) for x, y in zip(a, b)) >= 30  # most tiles look different
    name = synth_render.random_glyph_tileset(np.random.default_rng(0))
    assert name.startswith("glyph-") and render_tile("5p", name).shape[2] == 4


def _colour_share(rgba: np.ndarray, colour: tuple[int, int, int], tol: int = 30) -> float:
    """Share of a tile's pixels within `tol` of `colour`."""
    near = np.all(np.abs(rgba[:, :, :3].astype(int) - np.array(colour)) <= tol, axis=2) & (rgba[:, :, 3] > 200)
    return float(near.mean())


@needs_noto
def test_a_drawn_style_prints_in_its_own_inks_and_back_colour():
    from dataclasses import replace

    st = replace(synth_render.glyph_style(4), back=(40, 80, 160), back_edge=(24, 48, 96), red=(150, 30, 60),
                 wan=(150, 30, 60))  # fmt: skip
    draw = synth_render._glyph_tile
    assert _colour_share(draw("back", st), (40, 80, 160)) > 0.5  # a blue-backed set
    assert _colour_share(draw("back", synth_render.GLYPH_DEFAULT), (40, 80, 160)) == 0
    assert _colour_share(draw("7z", st), (150, 30, 60)) > 0.03  # 中 in this set's red
    assert _colour_share(draw("7z", synth_render.GLYPH_DEFAULT), (150, 30, 60), tol=10) < 0.005


@needs_noto
def test_style_options_change_only_what_they_name():
    from dataclasses import replace

    st = replace(synth_render.GLYPH_DEFAULT, white_dragon="frame")
    draw = synth_render._glyph_tile
    blank = draw("5z", replace(st, white_dragon="blank"))
    face = blank[30:90, 20:70, :3].reshape(-1, 3)
    assert np.ptp(face, axis=0).max() <= 2  # a blank 白 is the bare face
    assert not np.array_equal(draw("5z", st), blank)
    marked, plain = draw("3p", replace(st, index_marks=True)), draw("3p", st)
    diff = np.any(marked != plain, axis=2)
    ys, xs = np.nonzero(diff)
    assert diff.any() and ys.max() < marked.shape[0] * 0.35 and xs.max() < marked.shape[1] * 0.4  # top-left corner
    assert not np.array_equal(draw("2m", replace(st, wan_char="万")), draw("2m", st))
    assert np.array_equal(draw("2p", replace(st, wan_char="万")), draw("2p", st))  # 万 only touches the 萬 suit


@needs_noto
def test_tiles_cast_shadows_on_the_table_and_boxes_stay_on_the_tiles():
    rows = [[["1m", "2m", "3m"], ["5p>"]]]
    plain = render_layout(rows, tile_height=60, tileset="glyph", background=(200, 200, 200))
    shaded = render_layout(rows, tile_height=60, tileset="glyph", background=(200, 200, 200), shadow=True,
                           rng=np.random.default_rng(1))  # fmt: skip
    assert [t.box for t in shaded.tiles] == [t.box for t in plain.tiles]
    inside = np.zeros(plain.image.shape[:2], bool)
    for t in plain.tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in t.box)
        inside[y1:y2, x1:x2] = True
    darker = shaded.image.astype(int).sum(axis=2) < plain.image.astype(int).sum(axis=2) - 30
    assert darker[~inside].sum() > 200  # the table is shaded beside the tiles
    assert not darker[inside].any() or darker[inside].mean() < 0.02  # the tiles themselves are not


def test_an_area_shadow_darkens_one_side_softly():
    f = synth_render._area_shadow(100, 160, np.random.default_rng(3))
    assert f.shape == (100, 160, 1) and f.max() <= 1.0 and 0.4 <= f.min() < 0.85
    assert (f > 0.99).mean() > 0.15 and (f < f.min() + 0.01).mean() > 0.15  # a lit side and a shaded side
    assert ((f > f.min() + 0.02) & (f < 0.98)).any()  # with a soft edge between them


@needs_noto
def test_dot_stick_and_bird_options_draw_what_they_name():
    from dataclasses import replace

    st, draw = synth_render.GLYPH_DEFAULT, synth_render._glyph_tile
    rings, disc = draw("1p", st), draw("1p", replace(st, dot_style="disc"))
    centre = (slice(50, 75), slice(35, 60))
    assert not np.array_equal(rings, disc)
    assert np.ptp(disc[centre][..., :3].reshape(-1, 3), axis=0).max() > 100  # a solid disc around a face-coloured eye
    assert draw("3p", replace(st, dot_scale=0.85))[..., 3].sum() == draw("3p", st)[..., 3].sum()  # same body
    bird, stick = draw("1s", st), draw("1s", replace(st, bird=False))
    assert _colour_share(bird, (230, 170, 30), tol=20) > 0.003 and _colour_share(stick, (230, 170, 30), tol=20) == 0
    assert np.array_equal(draw("2s", replace(st, bird=False)), draw("2s", st))  # only 1條 changes
    assert not np.array_equal(draw("5s", replace(st, stick_length=0.85)), draw("5s", st))


@needs_noto
def test_petal_dots_segmented_and_hollow_sticks_a_left_facing_bird_and_spread_draw_what_they_name():
    from dataclasses import replace

    st, draw = synth_render.GLYPH_DEFAULT, synth_render._glyph_tile
    rings, petals = draw("1p", st), draw("1p", replace(st, dot_style="petals"))
    assert petals[..., 3].sum() == rings[..., 3].sum() and not np.array_equal(petals, rings)
    ring_x = slice(petals.shape[1] // 2 - 2, petals.shape[1] // 2 + 3)
    around = petals[20:110, ring_x, :3].astype(int)  # a vertical line through the flower
    face = np.all(np.abs(around - np.array(st.face)) <= 12, axis=2).any(axis=1)
    assert np.count_nonzero(np.diff(face.astype(int)) == 1) >= 3  # face-coloured petals and eye break the ink

    rod, seg, hollow = (draw("2s", replace(st, stick_style=s)) for s in ("rod", "segmented", "hollow"))
    assert not np.array_equal(rod, seg) and not np.array_equal(rod, hollow) and not np.array_equal(seg, hollow)
    column = slice(rod.shape[1] // 2 - 1, rod.shape[1] // 2 + 2)  # down the middle of the 2條 sticks
    ink = np.array(st.green)
    inked = [np.all(np.abs(t[10:110, column, :3].astype(int) - ink) <= 40, axis=2).any(axis=1) for t in (rod, seg)]
    assert np.count_nonzero(np.diff(inked[1].astype(int)) == 1) > np.count_nonzero(np.diff(inked[0].astype(int)) == 1)
    assert _colour_share(hollow, st.green) < _colour_share(rod, st.green)  # an outline inks less than a bar
    assert np.array_equal(draw("3m", replace(st, stick_style="hollow")), draw("3m", st))  # only the 條 suit changes

    right, left = draw("1s", st), draw("1s", replace(st, bird_facing=-1))
    red = np.array(st.red)

    def head_x(t: np.ndarray) -> float:
        ys, xs = np.nonzero(np.all(np.abs(t[:60, :, :3].astype(int) - red) <= 30, axis=2))
        return float(xs.mean())

    assert head_x(right) > right.shape[1] / 2 > head_x(left)  # the red head is on the side the bird looks to

    def dot_extent(t: np.ndarray) -> int:
        ys, xs = np.nonzero(np.abs(t[..., :3].astype(int) - np.array(st.face)).max(axis=2)[12:-20, 12:-12] > 60)
        return int(ys.max() - ys.min())

    assert dot_extent(draw("9p", replace(st, spread=0.88))) < dot_extent(draw("9p", st))  # a tighter pattern
    styles = [synth_render.glyph_style(seed) for seed in range(200)]
    assert {s.stick_style for s in styles} == {"rod", "segmented", "hollow"} and {s.bird_facing for s in styles} == {1, -1}
    assert "petals" in {s.dot_style for s in styles} and len({round(s.spread, 2) for s in styles}) > 10


@needs_noto
def test_varied_styles_print_in_every_installed_cjk_font():
    fonts = synth_render.installed_cjk_fonts()
    assert fonts and all(Path(f).exists() for f, _ in fonts)
    used = {synth_render.glyph_style(seed).font for seed in range(300)}
    assert used == set(fonts)
    if len({f for f, _ in fonts}) > 1:  # two font files draw 東 differently
        a, b = (next(seed for seed in range(300) if synth_render.glyph_style(seed).font[0] == f)
                for f in sorted({f for f, _ in fonts})[:2])  # fmt: skip
        st_a, st_b = synth_render.glyph_style(a), synth_render.glyph_style(b)
        from dataclasses import replace

        assert not np.array_equal(synth_render._glyph_tile("1z", st_a), synth_render._glyph_tile("1z", replace(st_a, font=st_b.font)))
