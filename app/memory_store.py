"""The table's correction memory in the app, without Streamlit: where it lives, what a photo teaches, forgetting.

The memory (`vision.reader.memory`) is one file, `tile_memory.npz`, in the ledger's data folder; a table's
crops are kept under the table's name and id (`table_key`). 算分 teaches the tiles a player changed from what the reader said
(`score_lessons`), and at 确认记账 every tile of the photo's read hand (confirmed); 标注 teaches the boxes it
saves. A crop is kept with its source (``photo#box``), so teaching a photo again replaces what it taught.
The next photo of the table is read with the memory (`read_args`). A damaged file is set aside as
``tile_memory.npz.bad`` and said in Chinese, never overwritten; so is a file taught with another classifier (a new
release's models, an adopted fine-tune), as ``tile_memory.npz.old``: its crops mean nothing to the new classifier,
but what the players taught is not thrown away unasked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from app.i18n import t as translate
from scoring.errors import JingsuanError
from vision.reader.memory import MEMORY_FILENAME, TileMemory, TileMemoryError, read_npz

TEXT: dict[str, tuple[str, str]] = {
    "taught": ("这桌已教会 {n} 张牌", "This table has taught {n} tiles"),
    "taught_none": ("这桌还没教过牌：改正认错的牌、确认记账后，下一张照片就认得更准",
                    "This table has taught no tiles yet: fix misread tiles and record the round, and the next photo reads better"),
    "forget": ("忘记", "Forget"),
    "forget_ask": ("忘记这桌教过的 {n} 张牌？", "Forget the {n} tiles this table taught?"),
    "forget_yes": ("确认忘记", "Yes, forget"),
    "forget_no": ("取消", "Cancel"),
    "forgotten": ("已忘记这桌教过的 {n} 张牌", "Forgot the {n} tiles this table taught"),
    "set_aside": ("{msg}。已把它另存为 {bad}，这桌从头记起。", "{msg}. It was kept aside as {bad}; the table starts afresh."),
    "other_model": ("纠错记忆是换牌面分类模型之前教的，现在的模型用不上。已把它另存为 {bad}，各桌从头记起。",
                    "The correction memory was taught with an earlier tile classifier, which the current one cannot use. "
                    "It was kept aside as {bad}; every table starts afresh."),
    "seen": ("知道了", "OK"),
    "cannot_teach": ("这次没记住纠正：{msg}", "The corrections were not remembered: {msg}"),
}


def say(key: str, lang: str = "zh", **kwargs: object) -> str:
    """A string of the memory's lines in the page's language."""
    return translate(key, lang, strings=TEXT, **kwargs)


def table_key(table: Any) -> str:
    """The name a table's crops are kept under: its name and its ledger id (two tables of one name, e.g. a table
    imported from its own export, each keep their own memory)."""
    return f"{table.name}#{table.id}"


def memory_path(ledger_file: str | Path) -> Path:
    """The memory file beside the ledger (in the same data folder)."""
    return Path(ledger_file).parent / MEMORY_FILENAME


@lru_cache(maxsize=8)
def _file_key(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha1(Path(path).read_bytes()).hexdigest()[:12]
    return f"{Path(path).name}:{digest}"


def model_key(classifier_file: str | Path) -> str:
    """What a memory's crops were made with: the classifier's file name and a digest of its bytes (another
    classifier's embeddings mean nothing to this one)."""
    p = Path(classifier_file)
    st = p.stat()
    return _file_key(str(p), st.st_size, st.st_mtime_ns)


def current_model() -> str | None:
    """The key of the classifier the app reads with (None when there is none)."""
    from vision.reader.session import CLASSIFIER_FILE, models_dir

    try:
        path = models_dir() / CLASSIFIER_FILE
        return model_key(path) if path.is_file() else None
    except (OSError, JingsuanError):  # no model folder: nothing to remember with
        return None


def set_aside(path: Path, suffix: str = ".bad") -> Path:
    """Move a memory file out of the way as ``NAME.bad`` (``NAME.bad2``, … when taken; or another `suffix`); returns
    where."""
    for n in range(1, 1000):
        aside = path.with_name(path.name + (suffix if n == 1 else f"{suffix}{n}"))
        if not aside.exists():
            path.replace(aside)
            return aside
    raise TileMemoryError(f"纠错记忆文件 {path.name} 坏了，也没法另存", f"the damaged memory {path} cannot be kept aside")


@dataclass
class Opened:
    """The memory as read from its file, and what was wrong with the file (it was set aside) if anything."""

    memory: TileMemory
    problem: str = ""


def open_memory(path: Path, model: str, lang: str = "zh") -> Opened:
    """The memory at `path` for `model`; a damaged file, or one taught with another classifier, is set aside and said,
    and an empty memory given."""
    memory = TileMemory(model)
    try:
        if path.is_file():
            data = read_npz(path)
            if len(data["tiles"]) and str(data["model"]) != model:  # taught with another classifier
                return Opened(memory, say("other_model", lang, bad=set_aside(path, ".old").name))
            memory.import_arrays(data)
        return Opened(memory)
    except TileMemoryError as exc:
        try:
            aside = set_aside(path)
        except (OSError, TileMemoryError) as again:
            return Opened(TileMemory(model), getattr(again, "zh" if lang == "zh" else "en", str(again)))
        return Opened(TileMemory(model), say("set_aside", lang, msg=exc.zh if lang == "zh" else exc.en, bad=aside.name))


def forget_table(path: Path, model: str, table: str, lang: str = "zh") -> tuple[int, str]:
    """忘记: the table's crops leave the file; (how many were forgotten, a problem with the file)."""
    opened = open_memory(path, model, lang)
    gone = opened.memory.forget(table)
    if gone:
        opened.memory.save(path)
    return gone, opened.problem


def photo_source(data: bytes, where: str = "score") -> str:
    """The source name of a photo's crops: where it was taught and a digest of its bytes."""
    return f"{where}:{hashlib.sha1(data).hexdigest()[:16]}"


def score_lessons(reading: Any, hand: Sequence[str], entries: Mapping[str, Any], melds: Sequence[dict[str, Any]],
                  confirmed: bool) -> dict[int, str]:  # fmt: skip
    """What the 算分 page teaches of its photo: {detection index: tile} for each box linked to a tile of the
    round whose tile the player changed from what the page showed (`confirmed`, at 确认记账: every linked box).
    A box shown face down teaches nothing: a 暗杠's backs are linked to the kong's tile, but their crops show no
    face, and taught as that tile they made the table read the same backs as faces (a 暗杠 settled as a 明杠)."""
    from app import tile_edit as edit
    from scoring.tiles import BACK_CODE, CODES

    assignment = getattr(reading, "assignment", None)
    roles = {r.det.box: r.det for r in getattr(assignment, "tiles", None) or []}
    # each box as the page showed it: the layout's own detection (its legal reading), the reader's otherwise
    shown = [roles.get(d.box, d) for d in getattr(reading, "detections", None) or []]
    if not shown:
        return {}
    slots = edit.photo_slots(assignment, shown, hand, melds, entries)
    out: dict[int, str] = {}
    for i, (d, slot) in enumerate(zip(shown, slots)):
        code = edit.code_at(slot, hand, dict(entries), melds) if slot is not None else None
        if code in CODES and d.tile != BACK_CODE and (confirmed or code != d.tile):
            out[i] = str(code)
    return out


def box_source(source: str, box: Sequence[float]) -> str:
    """The source name of one crop: its photo's and its box's corners (the same box of a photo read again)."""
    return f"{source}#" + ",".join(f"{v:.0f}" for v in box[:4])


def teach(path: Path, model: str, table: str, source: str, rgb: np.ndarray, boxes: Sequence[Sequence[float]],
          tiles: Sequence[str], classifier: Any, *, unteach: Sequence[Sequence[float]] = (), whole_photo: bool = False,
          lang: str = "zh") -> tuple[int, str]:  # fmt: skip
    """Teach `table` the crops of `boxes` of one photo (`source`) as `tiles`, replacing what those boxes taught
    before; the crops of `unteach` boxes (or, `whole_photo`, every box of the photo) are forgotten first.
    Returns (the table's count, a problem said to the player or '')."""
    from vision.reader.memory import crop_embeddings

    opened = open_memory(path, model, lang)
    memory = opened.memory
    gone = {box_source(source, b) for b in unteach}
    dropped = memory.drop(table, (lambda s: s.startswith(source + "#")) if whole_photo else gone.__contains__)
    try:
        if tiles:
            emb = crop_embeddings(classifier, rgb, [tuple(b[:4]) for b in boxes])
            memory.add(table, emb, list(tiles), [box_source(source, b) for b in boxes])
        if tiles or dropped:
            memory.save(path)
    except (TileMemoryError, OSError) as exc:
        msg = exc.zh if isinstance(exc, TileMemoryError) and lang == "zh" else getattr(exc, "en", str(exc))
        return memory.count(table), say("cannot_teach", lang, msg=msg)
    return memory.count(table), opened.problem


def classifier_and_pixels(image: bytes | Path) -> tuple[Any, np.ndarray]:
    """The crop classifier the app reads with (None without one) and the photo's pixels, to cut the crops a
    photo teaches; JingsuanError when the model or the photo cannot be read."""
    from vision.reader.detector import get_detector
    from vision.reader.image import load_image
    from vision.reader.photo import detector_path

    return get_detector(detector_path()).classifier, load_image(image)


#: The session key of what 算分 taught of the reading on its page: (table, photo source, which reading, {box index: tile}).
SYNC_KEY = "memory_taught"


def sync_score(state: MutableMapping[str, Any], path: Path, model: str | None, table: str, draft: Any,
               entries: Mapping[str, Any], confirmed: bool = False, lang: str = "zh") -> str:  # fmt: skip
    """Teach the table what the player changed on 算分's photo since it was read (`confirmed`: every tile of
    the read hand, at 确认记账), and forget a change taken back; writes only when that changed. Returns a
    problem to show ('' when none)."""
    reading, data = getattr(draft, "reading", None), getattr(draft, "photo_bytes", None)
    detections = list(getattr(reading, "detections", None) or [])
    if model is None or not data or not detections:
        return ""
    source = photo_source(data)
    which = (getattr(draft, "upload_gen", 0), getattr(draft, "photo_key", None))  # a photo read again starts anew
    lessons = score_lessons(reading, draft.hand, entries, draft.melds, confirmed)
    last = state.get(SYNC_KEY)
    before: dict[int, str] = last[3] if last and last[:3] == (table, source, which) else {}
    if lessons == before:
        return ""
    try:
        classifier, rgb = classifier_and_pixels(data)
    except JingsuanError as exc:
        return say("cannot_teach", lang, msg=exc.zh if lang == "zh" else exc.en)
    if classifier is None:
        return ""
    new = {i: c for i, c in lessons.items() if before.get(i) != c}
    _, problem = teach(path, model, table, source, rgb, [detections[i].box for i in new], list(new.values()), classifier,
                       unteach=[detections[i].box for i in before if i not in lessons], lang=lang)
    state[SYNC_KEY] = (table, source, which, lessons)
    return problem


def read_args(path: Path, model: str | None, table: str, lang: str = "zh") -> tuple[dict[str, Any], str]:
    """The keyword arguments that make `vision.read_photo` read as `table` taught ({} when it taught nothing),
    and a problem with the file ('' when none)."""
    if model is None or not path.exists():
        return {}, ""
    opened = cached_memory(path, model, lang)
    if not opened.memory.count(table):
        return {}, opened.problem
    return {"memory": opened.memory, "table": table}, opened.problem


#: The memory last read for reading photos, by (file, model): (its file's stamp, the memory). A table's head
#: is fitted once per change of the file, not once per photo.
_READ_CACHE: dict[tuple[str, str], tuple[tuple[str, str, int, int], TileMemory]] = {}


def cached_memory(path: Path, model: str, lang: str = "zh") -> Opened:
    """The memory at `path` as last read, read again only when its file changed (size or time)."""
    info = path.stat()
    stamp = (str(path), model, info.st_mtime_ns, info.st_size)
    cached = _READ_CACHE.get(stamp[:2])
    if cached is not None and cached[0] == stamp:  # the same file: its fitted table heads are kept
        return Opened(cached[1])
    opened = open_memory(path, model, lang)
    if not opened.problem:
        _READ_CACHE[stamp[:2]] = (stamp, opened.memory)
    return opened


def taught_count(path: Path, model: str | None, table: str, lang: str = "zh") -> tuple[int, str]:
    """How many crops `table` taught, and a problem with the file ('' when none); the file is read again only
    when it changed (this runs on every drawing of 算分 and 牌局)."""
    if model is None or not path.exists():
        return 0, ""
    opened = cached_memory(path, model, lang)
    return opened.memory.count(table), opened.problem


def export_table(path: Path, model: str | None, table: str, out: Path, lang: str = "zh") -> Path | None:
    """Write `table`'s memory as `out` (e.g. into a dataset folder); None when it taught nothing."""
    if model is None or not path.exists():
        return None
    opened = open_memory(path, model, lang)
    return opened.memory.export_table(table, out) if opened.memory.count(table) else None


def teach_annotation(path: Path, model: str | None, table: str, image: Path, boxes: Sequence[Any], source: str,
                     export_to: Path | None = None, lang: str = "zh") -> tuple[int, str]:  # fmt: skip
    """标注 saved a photo's boxes: `table` learns each tile box's crop (what this photo taught before is
    replaced), and the table's memory is written to `export_to` (the dataset's folder), so it goes with the
    dataset. Returns (the table's count, a problem to show or '')."""
    from scoring.tiles import CODES

    if model is None:
        return 0, ""
    kept = [b for b in boxes if b[4] in CODES]
    try:
        classifier, rgb = classifier_and_pixels(image)
    except JingsuanError as exc:
        return 0, say("cannot_teach", lang, msg=exc.zh if lang == "zh" else exc.en)
    if classifier is None:
        return 0, ""
    n, problem = teach(path, model, table, source, rgb, [tuple(b[:4]) for b in kept], [b[4] for b in kept], classifier,
                       whole_photo=True, lang=lang)
    if export_to is not None and not problem:
        try:
            export_table(path, model, table, export_to, lang)
        except OSError as exc:
            return n, say("cannot_teach", lang, msg=str(exc))
    return n, problem
