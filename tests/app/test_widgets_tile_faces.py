"""Tile pictures: every one of the 34 faces and the back is its own drawing, as SVG and as PNG."""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET

from PIL import Image

from app.widgets.tile_faces import ALL_FACES, cjk_font_path, data_uri, png, svg, title
from scoring.tiles import CODES

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_all_34_faces_and_the_back_are_distinct_svg_documents() -> None:
    docs = [svg(code) for code in ALL_FACES]
    assert len(ALL_FACES) == 35 and len(set(docs)) == 35
    for code, doc in zip(ALL_FACES, docs):
        root = ET.fromstring(doc)
        assert root.tag == f"{SVG_NS}svg" and root.get("viewBox") == "0 0 60 80"
        assert root.find(f"{SVG_NS}title").text == title(code)
        assert len(root) > 1, f"{code} draws nothing"


def test_the_drawings_differ_not_only_by_their_titles() -> None:
    bodies = {code: svg(code).split("</title>", 1)[1] for code in ALL_FACES}
    assert len(set(bodies.values())) == 35


def test_faces_are_named_as_players_call_them() -> None:
    assert title("5p") == "五筒" and title("1s") == "一条" and title("6z") == "发" and title("back") == "牌背"


def test_character_tiles_use_the_traditional_characters_printed_on_tiles() -> None:
    assert "萬" in svg("3m") and "東" in svg("1z") and "發" in svg("6z") and "中" in svg("7z")
    assert "<text" not in svg("5z")  # 白 is an empty frame, no character


def test_data_uri_holds_the_svg_itself_no_file_or_network() -> None:
    uri = data_uri("9s")
    assert uri.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]).decode("utf-8") == svg("9s")
    assert "http" not in svg("9s").replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_png_pictures_are_distinct_and_sized() -> None:
    assert cjk_font_path() is not None, "no CJK font: run scripts/install_test_system_deps.sh"
    pictures = {code: png(code, width=48) for code in ALL_FACES}
    sizes = {Image.open(io.BytesIO(p)).size for p in pictures.values()}
    assert sizes == {(48, 64)}
    pixels = {Image.open(io.BytesIO(p)).convert("RGBA").tobytes() for p in pictures.values()}
    assert len(pixels) == 35


def test_png_of_a_dot_tile_shows_its_colours() -> None:
    img = Image.open(io.BytesIO(png("1p", width=60))).convert("RGB")
    r, g, b = img.getpixel((30, 34))  # the red ring of 1 筒
    assert r > 150 and g < 90 and b < 90
    r, g, b = img.getpixel((30, 22))  # its blue outer ring
    assert b > 120 and r < 90


def test_every_tile_kind_has_a_face() -> None:
    assert set(CODES) < set(ALL_FACES) and len(CODES) == 34
