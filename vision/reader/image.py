"""Loading photos for the detector and the letterbox geometry (pure NumPy/OpenCV/Pillow).

`load_image` accepts a path, bytes, a PIL image or an array (uint8, or float in 0–1 or 0–255:
`array_pixels`), applies the EXIF orientation and returns an RGB uint8 array.  `letterbox` fits an image into a square model input keeping its
aspect; `boxes_to_image` maps model-space boxes back to the photo's pixels.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scoring.errors import JingsuanError

#: Largest photo accepted (pixels); a 12-MP phone photo is 12e6, this allows 4× that.
MAX_PIXELS = 50_000_000
#: Largest photo file read (bytes), checked before reading; the app's upload limit is 40 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Shortest side and most elongated shape a photo of tiles can have.
MIN_SIDE = 16
MAX_ASPECT = 20
PAD_VALUE = 114
#: How the letterbox shrinks a photo: OpenCV's INTER_AREA (1 ms for 640 → 416 px, and several ms more when
#: another program holds a core, for OpenCV splits it over threads) or INTER_LINEAR (0.2 ms), as ultralytics
#: shrank the training photos. On `valid` (int8 detector, classifier v9) linear read 6 163 of 6 317 tiles
#: right against 6 166, 192 of 289 photos whole against 191, mAP50 0.978 → 0.977; the unseen phone shoot
#: IMG_27xx per-tile 0.963 → 0.965, whole 11 → 12 of 35 photos (2026-12-05, models/MODEL_CARD.md).
SHRINK_WITH_AREA = False


class DetectorError(JingsuanError):
    """The detector cannot read this input (not an image, too big, model missing or corrupt)."""


def check_dimensions(width: int, height: int) -> None:
    """Refuse a photo too large to decode or too thin to hold tiles (read from the header, before decoding)."""
    if width * height > MAX_PIXELS:
        raise DetectorError(
            f"照片太大（{width}×{height}），请缩小到 5000 万像素以内",
            f"image too large ({width}x{height}); limit is {MAX_PIXELS} pixels",
        )
    if min(width, height) < MIN_SIDE or max(width, height) > MAX_ASPECT * min(width, height):
        raise DetectorError(
            f"照片的形状不对（{width}×{height}）：太窄或太小，拍不下一手牌",
            f"image shape {width}x{height} is too thin or too small to show a hand",
        )


#: Pillow's modes of 16-bit grey (a 16-bit greyscale PNG opens as one of these): its RGB conversion clips
#: every value over 255, so such a photo came out white; its values are brought to 0–255 first.
WIDE_GREY_MODES = ("I;16", "I;16B", "I;16L", "I;16N", "I")


def _from_pil(img: Any) -> np.ndarray:
    from PIL import Image, ImageOps

    check_dimensions(img.width, img.height)
    with contextlib.suppress(Exception):  # a broken EXIF block must not lose the photo
        img = ImageOps.exif_transpose(img)
    if img.mode in WIDE_GREY_MODES:
        grey = np.asarray(img, dtype=np.float64)
        if img.mode != "I" or grey.max() > 255:  # 32-bit "I" holding 8-bit values stays as it is
            grey = grey / 257.0
        img = Image.fromarray(np.clip(np.rint(grey), 0, 255).astype(np.uint8))
    return np.asarray(img.convert("RGB"))


#: The EXIF tag of a photo's orientation, and how each of its values (2–8) turns the pixels upright, as
#: Pillow's `ImageOps.exif_transpose` does (1 and anything else: as stored).
EXIF_ORIENTATION = 0x0112
_UPRIGHT = {
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2),
    6: lambda a: np.rot90(a, -1),
    7: lambda a: a.transpose(1, 0, 2)[::-1, ::-1],
    8: lambda a: np.rot90(a, 1),
}


def _jpeg_by_opencv(data: bytes | str | Path) -> np.ndarray | None:
    """An RGB JPEG decoded by OpenCV straight into an array, EXIF orientation applied; None where Pillow
    must read it (another format or mode, or a file cut short, which Pillow refuses). The same pixels as
    Pillow's (552 CMD v4 photos compared, 2026-12-05), without its 1 ms copy into NumPy (several ms on a
    loaded machine)."""
    import cv2

    img = _open_pil(data, decode=False)
    try:
        if img.format != "JPEG" or img.mode != "RGB":
            return None
        try:
            orientation = int(img.getexif().get(EXIF_ORIENTATION, 1))
        except Exception:  # a broken EXIF block must not lose the photo; Pillow's path keeps it as stored
            orientation = 1
        size = (img.height, img.width)
    finally:
        img.close()
    buf = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else np.fromfile(str(data), np.uint8)
    if buf[-2:].tobytes() != b"\xff\xd9":  # no end-of-image marker: cut short (or trailing bytes)
        return None
    rgb_flag = getattr(cv2, "IMREAD_COLOR_RGB", None)
    rgb = cv2.imdecode(buf, (rgb_flag or cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION)
    if rgb is None or rgb.shape[:2] != size:
        return None
    if rgb_flag is None:
        rgb = cv2.cvtColor(rgb, cv2.COLOR_BGR2RGB)
    turn = _UPRIGHT.get(orientation)
    return np.ascontiguousarray(turn(rgb)) if turn else rgb


def _open_pil(data: bytes | str | Path, decode: bool = True) -> Any:
    """The photo opened by Pillow, its size checked first; `decode`: its pixels read too."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    if not isinstance(data, bytes | bytearray):
        _check_photo_file(data)
    elif len(data) > MAX_FILE_BYTES:
        raise DetectorError("照片文件太大", f"photo file larger than {MAX_FILE_BYTES} bytes")
    try:
        src = io.BytesIO(data) if isinstance(data, bytes | bytearray) else str(data)
        with warnings.catch_warnings():  # the size is checked just below, before decoding
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(src)  # reads the header only
        check_dimensions(img.width, img.height)
        if decode:
            img.load()
        return img
    except DetectorError:
        raise
    except FileNotFoundError as exc:
        raise DetectorError(f"找不到照片：{data}", f"photo not found: {data}") from exc
    except Image.DecompressionBombError as exc:
        raise DetectorError("照片太大，请缩小后再试", f"image too large: {exc}") from exc
    except Exception as exc:  # PIL's UnidentifiedImageError/OSError/…, or a plugin (ultralytics' HEIF hook) failing
        raise DetectorError("这个文件不是可读的图片", f"not a readable image: {exc}") from exc


def _check_photo_file(path: str | Path) -> None:
    """A regular file of at most MAX_FILE_BYTES (a FIFO or a device is never opened)."""
    from scoring.inputs import InputError, check_regular_file

    if not Path(path).exists():
        raise DetectorError(f"找不到照片：{path}", f"photo not found: {path}")
    try:
        check_regular_file(path, MAX_FILE_BYTES)
    except InputError as exc:
        raise DetectorError(exc.zh, exc.en) from exc


def array_pixels(arr: np.ndarray) -> np.ndarray:
    """An image array's values as 0–255 uint8. A float array whose largest value is at most 1.0 holds 0–1
    (skimage, matplotlib's PNG, torchvision) and is scaled by 255; any other float array holds 0–255; both
    are rounded and clipped. A float array with NaN or inf is refused (`DetectorError`): it has no pixels to read.
    A 16-bit array (OpenCV's `IMREAD_UNCHANGED` of a 16-bit PNG or TIFF, a raw camera frame) holds 0–65535 and
    is scaled by 255/65535; clipped, its pixels would all read white."""
    if arr.dtype == np.uint8:
        return arr
    if arr.dtype == np.uint16:
        return np.rint(arr.astype(np.float64) * (255.0 / 65535.0)).astype(np.uint8)
    if np.issubdtype(arr.dtype, np.floating):
        if not np.isfinite(arr).all():
            raise DetectorError("图片数组里有无效的数值（NaN 或无穷大），读不出像素",
                                "image array holds NaN or infinite values; it has no pixels to read")
        arr = arr.astype(np.float64) * (255.0 if arr.max(initial=0.0) <= 1.0 else 1.0)
        return np.clip(np.rint(arr), 0, 255).astype(np.uint8)
    return np.clip(arr, 0, 255).astype(np.uint8)


def load_image(source: Any) -> np.ndarray:
    """Photo (path, bytes, PIL image or H×W×3 RGB / H×W gray array) → RGB uint8 array, EXIF applied; an
    array's values are read as `array_pixels` says (floats up to 1.0: 0–1, else 0–255)."""
    if isinstance(source, np.ndarray):
        arr = source
        if arr.ndim == 2:
            arr = np.repeat(arr[:, :, None], 3, axis=2)
        if arr.ndim != 3 or arr.shape[2] not in (3, 4) or arr.size == 0:
            raise DetectorError("图片数组的形状不对", f"image array must be HxWx3, got shape {arr.shape}")
        check_dimensions(int(arr.shape[1]), int(arr.shape[0]))
        if arr.shape[2] == 4:
            arr = arr[:, :, :3]
        return np.ascontiguousarray(array_pixels(arr))
    if isinstance(source, bytes | bytearray | str | Path):
        data = bytes(source) if isinstance(source, bytearray) else source
        fast = _jpeg_by_opencv(data)
        return fast if fast is not None else _from_pil(_open_pil(data))
    if hasattr(source, "convert") and hasattr(source, "size"):  # a PIL image
        return _from_pil(source)
    raise DetectorError("不支持的图片类型", f"unsupported image type: {type(source).__name__}")


@dataclass(frozen=True, slots=True)
class Letterbox:
    """How an image was placed into the model input: `scale` then padding `pad_x`, `pad_y`."""

    scale: float
    pad_x: float
    pad_y: float
    width: int  # original image size
    height: int


def letterbox_geometry(width: int, height: int, size: int) -> Letterbox:
    """Scale and centred padding that fit a width×height image into size×size keeping aspect."""
    scale = min(size / width, size / height)
    new_w, new_h = round(width * scale), round(height * scale)
    return Letterbox(scale, (size - new_w) / 2, (size - new_h) / 2, width, height)


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, Letterbox]:
    """Resize `image` (H×W×3) into a size×size canvas padded with grey; return it and its geometry."""
    import cv2

    h, w = image.shape[:2]
    geo = letterbox_geometry(w, h, size)
    new_w, new_h = max(1, min(size, round(w * geo.scale))), max(1, min(size, round(h * geo.scale)))
    interp = cv2.INTER_AREA if geo.scale < 1 and SHRINK_WITH_AREA else cv2.INTER_LINEAR
    resized = cv2.resize(image, (new_w, new_h), interpolation=interp)
    canvas = np.full((size, size, 3), PAD_VALUE, dtype=np.uint8)
    top, left = int(round(geo.pad_y - 0.1)), int(round(geo.pad_x - 0.1))
    canvas[top : top + new_h, left : left + new_w] = resized
    return canvas, Letterbox(geo.scale, float(left), float(top), w, h)


def letterbox_blob(image: np.ndarray, size: int) -> tuple[np.ndarray, Letterbox]:
    """`image` as the detector's input (1 × 3 × size × size float32 in 0–1, letterboxed) and its geometry."""
    canvas, geo = letterbox(image, size)
    return canvas.astype(np.float32).transpose(2, 0, 1)[None] / 255.0, geo


def letterbox_pixels(image: np.ndarray, size: int) -> tuple[np.ndarray, Letterbox]:
    """`image` as a detector that takes pixels reads it (1 × size × size × 3 uint8, letterboxed) and its geometry."""
    canvas, geo = letterbox(image, size)
    return canvas[None], geo


def boxes_to_image(boxes: np.ndarray, geo: Letterbox) -> np.ndarray:
    """Map N×4 x1,y1,x2,y2 boxes from model-input pixels back to the original image, clipped."""
    out = np.asarray(boxes, dtype=np.float64).copy().reshape(-1, 4)
    out[:, [0, 2]] = (out[:, [0, 2]] - geo.pad_x) / geo.scale
    out[:, [1, 3]] = (out[:, [1, 3]] - geo.pad_y) / geo.scale
    out[:, [0, 2]] = out[:, [0, 2]].clip(0, geo.width)
    out[:, [1, 3]] = out[:, [1, 3]].clip(0, geo.height)
    return out

