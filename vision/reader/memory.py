"""What a table's players taught the reader: a per-table memory of corrected crops (NumPy only).

When a player corrects a tile (算分) or saves a box (标注), the crop's embedding — the crop
classifier's penultimate layer, its ``embedding`` output — is kept with the tile it shows, under
the table's name.  Reading the next photo of that table, a crop whose embedding lies within
`max_distance` (cosine distance) of the nearest remembered tile's prototype (the mean of that tile's
remembered embeddings) takes that tile: the second photo of a set already reads better, with no
training run.  A table's memory can be forgotten, and exported or imported as an ``.npz`` file
(with the team's dataset); it is stored beside the ledger (`MEMORY_FILENAME`).
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from scoring.errors import JingsuanError
from scoring.tiles import BACK_CODE
from vision.reader.layout.legal import MIN_ALTERNATIVE

#: The memory's file in the data folder, beside the ledger.
MEMORY_FILENAME = "tile_memory.npz"
#: A crop farther than this (cosine distance, 0 = same direction, 2 = opposite) from every remembered
#: prototype keeps the classifier's reading; nearer, it is also held to `MAX_RATIO`. Chosen with the classifier pair's
#: 160-d feature on the `valid` shoots other than the unseen shoot the corrections bench reports on (each shoot's
#: first photos taught, the rest read): 0.2 with the ratio 0.5 took 4 380 of 5 157 crops, 6 wrongly, where 0.05 alone
#: took 3 092 (models/MODEL_CARD.md "Issue 23: a memory that reads like the table"). Calibrate another
#: classifier with `calibrate_max_distance`.
DEFAULT_MAX_DISTANCE = 0.2
#: A crop takes its nearest prototype only when it is at most this fraction as far from it as from the nearest
#: prototype of any other tile: near two taught tiles alike (a 2筒 between 1筒 and 3筒), the memory has no say.
MAX_RATIO = 0.5
#: A crop this near a remembered crop (cosine distance) is that crop again: the very box a player corrected or deleted,
#: read once more, takes what the player said. Any other crop takes a remembered tile only by its prototype
#: (`nearest_prototype`) and only when the classifier has it among its top choices (`memory_readings`): a table that
#: taught a few tiles has no prototype for the rest, and an untaught tile's crop near the one taught prototype is no
#: reason to name it so. Nor is any other crop deleted by likeness to a deleted box: many of those are a tile boxed
#: twice or a tile half hidden, and a crop like them is that tile.
SAME_CROP = 0.02
#: The tile a box a player deleted is remembered as: no tile of the game (the classifier's `none`).
NOT_A_TILE = "none"
#: The name of the classifier's embedding output.
EMBEDDING_OUTPUT = "embedding"
#: The table's own head (`fit_head`, `rerank`): its weight against the classifier's log-probability when
#: re-ranking the classifier's top choices, its L2 penalty, the scale of the unit embedding it reads, and
#: its gradient descent. Chosen on `bench/corrections.py --all` (models/MODEL_CARD.md "Issue 23").
HEAD_BLEND = 0.3
HEAD_L2 = 1e-2
HEAD_SCALE = 5.0
HEAD_STEPS = 200
HEAD_RATE = 0.5


class TileMemoryError(JingsuanError):
    """A correction memory that cannot be read or extended (Chinese and English message)."""


@dataclass(frozen=True)
class Recall:
    """The memory's answer for one crop: the remembered tile it is close to (None: none close), how close, and
    whether it is a remembered crop again (`SAME_CROP`)."""

    tile: str | None
    distance: float
    same: bool = False


def unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero)."""
    v = np.asarray(vectors, dtype=np.float32)
    v = v.reshape(1, -1) if v.ndim == 1 else v
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def prototypes(embeddings: np.ndarray, tiles: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """One unit-length prototype per tile: the mean direction of its unit embeddings."""
    e = unit(embeddings)
    codes = sorted(set(tiles))
    labels = np.asarray(tiles)
    protos = np.stack([e[labels == c].mean(axis=0) for c in codes]) if codes else np.zeros((0, e.shape[1]), np.float32)
    return codes, unit(protos) if codes else protos


def nearest_prototype(queries: np.ndarray, codes: list[str], protos: np.ndarray, max_distance: float,
                      max_ratio: float = MAX_RATIO) -> list[Recall]:  # fmt: skip
    """Each query's nearest prototype, taken only when its cosine distance is at most `max_distance` and at most
    `max_ratio` times its distance to the nearest other prototype (1, a right angle, when one tile was taught), and
    never `NOT_A_TILE`'s (`SAME_CROP`)."""
    q = unit(queries)
    if not codes:
        return [Recall(None, 2.0) for _ in range(len(q))]
    dist = 1.0 - q @ protos.T
    order = np.argsort(dist, axis=1, kind="stable")
    rows = np.arange(len(q))
    first = dist[rows, order[:, 0]]
    second = dist[rows, order[:, 1]] if len(codes) > 1 else np.ones(len(q), np.float32)
    taken = (first <= max_distance) & (first <= max_ratio * second) & (np.asarray(codes)[order[:, 0]] != NOT_A_TILE)
    return [Recall(codes[order[i, 0]] if taken[i] else None, float(first[i])) for i in range(len(q))]


@dataclass(frozen=True)
class TableHead:
    """A table's own softmax head on the unit embedding: one weight column per tile it taught."""

    codes: list[str]
    weights: np.ndarray
    bias: np.ndarray

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """Each crop's probability of each of `codes` (rows sum to 1)."""
        z = unit(embeddings) * HEAD_SCALE @ self.weights + self.bias
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)


def fit_head(embeddings: np.ndarray, tiles: Sequence[str], steps: int = HEAD_STEPS) -> TableHead | None:
    """Softmax regression (L2 `HEAD_L2`, plain gradient descent) of the taught tiles on their crops'
    unit embeddings; `NOT_A_TILE` crops are left out. None when fewer than two tiles were taught."""
    labels = np.asarray(tiles)
    codes = sorted(set(tiles) - {NOT_A_TILE})
    if len(codes) < 2:
        return None
    rows = np.isin(labels, codes)
    x = unit(embeddings)[rows] * np.float32(HEAD_SCALE)
    y = np.eye(len(codes), dtype=np.float32)[[codes.index(t) for t in labels[rows]]]
    w, b = np.zeros((x.shape[1], len(codes)), np.float32), np.zeros(len(codes), np.float32)
    for _ in range(steps):
        z = x @ w + b
        p = np.exp(z - z.max(axis=1, keepdims=True))
        g = (p / p.sum(axis=1, keepdims=True) - y) / len(x)
        w -= np.float32(HEAD_RATE) * (x.T @ g + np.float32(HEAD_L2) * w)
        b -= np.float32(HEAD_RATE) * g.sum(axis=0)
    return TableHead(codes, w, b)


def rerank(alternatives: Sequence[tuple[str, float]], head: TableHead, probs: np.ndarray) -> str | None:
    """The tile among the classifier's top choices that the classifier and the table's head (weight
    `HEAD_BLEND`) agree on best, only when the classifier's first choice and at least one other were
    taught; None when the head has no say."""
    taught = [(c, p) for c, p in alternatives if c in head.codes]
    if len(taught) < 2 or not alternatives or taught[0][0] != alternatives[0][0]:
        return None
    mine = np.array([probs[head.codes.index(c)] for c, _ in taught])
    mine = mine / max(float(mine.sum()), 1e-12)
    score = [np.log(max(p, 1e-6)) + HEAD_BLEND * np.log(max(float(q), 1e-6)) for (_, p), q in zip(taught, mine)]
    return taught[int(np.argmax(score))][0]


@dataclass
class TableMemory:
    """The corrected crops of one table: unit embeddings (N × D), their tiles and where each came from
    (`sources`: e.g. ``photo#box``, '' when unnamed; a crop taught again from the same source replaces it)."""

    embeddings: np.ndarray
    tiles: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.sources) != len(self.tiles):
            self.sources = [""] * len(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def without(self, drop: np.ndarray) -> TableMemory:
        """This memory less the rows where `drop` is true."""
        keep = np.nonzero(~drop)[0]
        return TableMemory(self.embeddings[keep], [self.tiles[i] for i in keep], [self.sources[i] for i in keep])


class TileMemory:
    """Per-table memories of corrected crops, made with one classifier (`model`, e.g. its file name);
    `use_head`: the table's own head re-ranks the classifier's top choices (`rerank`), else only the
    nearest-prototype rule reads with the memory."""

    def __init__(self, model: str = "", max_distance: float = DEFAULT_MAX_DISTANCE, use_head: bool = True,
                 max_ratio: float = MAX_RATIO) -> None:
        self.model = model
        self.max_distance = max_distance
        self.max_ratio = max_ratio
        self.use_head = use_head
        self._tables: dict[str, TableMemory] = {}
        self._protos: dict[str, tuple[list[str], np.ndarray]] = {}
        self._heads: dict[str, TableHead | None] = {}

    def _changed(self, table: str) -> None:
        """The table's crops changed: its prototypes and head are made again when next asked."""
        self._protos.pop(table, None)
        self._heads.pop(table, None)

    def tables(self) -> list[str]:
        """Names of the tables that taught something."""
        return sorted(t for t, m in self._tables.items() if len(m))

    def count(self, table: str) -> int:
        """How many corrected crops the table has taught."""
        return len(self._tables.get(table, ()))

    def add(self, table: str, embeddings: np.ndarray, tiles: Sequence[str], sources: Sequence[str] | None = None) -> int:
        """Remember corrected crops (one embedding row per tile) under `table`; a crop of a named source
        (`sources`, e.g. ``photo#box``) the table already had is replaced. Returns the table's count."""
        e = unit(embeddings)
        if len(e) != len(tiles):
            raise TileMemoryError("特征与牌数不符", f"{len(e)} embeddings for {len(tiles)} tiles")
        names = list(sources) if sources is not None else [""] * len(tiles)
        if len(names) != len(tiles):
            raise TileMemoryError("来源与牌数不符", f"{len(names)} sources for {len(tiles)} tiles")
        self.drop(table, set(filter(None, names)).__contains__)  # the set made once, not once a remembered crop
        old = self._tables.get(table)
        if old is not None and len(old) and old.embeddings.shape[1] != e.shape[1]:
            raise TileMemoryError("特征维度与这桌已记的不同（换了分类模型？）",
                               f"embedding size {e.shape[1]} differs from the table's {old.embeddings.shape[1]} (another classifier?)")
        if old is None or not len(old):
            self._tables[table] = TableMemory(e.copy(), list(tiles), names)
        else:
            self._tables[table] = TableMemory(np.concatenate([old.embeddings, e]), [*old.tiles, *tiles],
                                              [*old.sources, *names])
        self._changed(table)
        return self.count(table)

    def drop(self, table: str, source: Callable[[str], bool]) -> int:
        """Forget the table's crops whose source passes `source` (e.g. every box of one photo); returns how many."""
        m = self._tables.get(table)
        if m is None or not len(m):
            return 0
        gone = np.array([source(s) for s in m.sources], dtype=bool)
        if gone.any():
            self._tables[table] = m.without(gone)
            self._changed(table)
        return int(gone.sum())

    def taught(self, table: str) -> TableMemory | None:
        """The table's remembered crops (None when it taught nothing)."""
        m = self._tables.get(table)
        return m if m is not None and len(m) else None

    def forget(self, table: str) -> int:
        """Forget everything `table` taught; returns how many crops were forgotten."""
        self._changed(table)
        gone = self._tables.pop(table, None)
        return len(gone) if gone is not None else 0

    def head(self, table: str) -> TableHead | None:
        """The table's own tile head, fitted on its taught crops (None: fewer than two tiles taught)."""
        if not self.use_head:
            return None
        if table not in self._heads:
            m = self.taught(table)
            self._heads[table] = fit_head(m.embeddings, m.tiles) if m is not None else None
        return self._heads[table]

    def recall(self, table: str, embeddings: np.ndarray) -> list[Recall]:
        """For each crop, the tile of a remembered crop it is again (`SAME_CROP`), else the remembered tile whose
        prototype is near enough (`nearest_prototype`), else None."""
        m = self._tables.get(table)
        if table not in self._protos:
            self._protos[table] = prototypes(m.embeddings, m.tiles) if m is not None and len(m) else ([], np.zeros((0, 1)))
        codes, protos = self._protos[table]
        q = unit(embeddings)
        if not codes or protos.shape[1] != q.shape[1] or m is None:
            return [Recall(None, 2.0) for _ in range(len(q))]
        recalls = nearest_prototype(q, codes, protos, self.max_distance, self.max_ratio)
        to_crops = 1.0 - q @ m.embeddings.T
        nearest = to_crops.argmin(axis=1)
        return [Recall(m.tiles[k], float(to_crops[i, k]), same=True) if to_crops[i, k] <= SAME_CROP else r
                for i, (k, r) in enumerate(zip(nearest, recalls))]

    def export_table(self, table: str, path: str | Path) -> Path:
        """Write one table's memory as ``.npz`` (e.g. beside a dataset export)."""
        m = self._tables.get(table) or TableMemory(np.zeros((0, 0), np.float32), [])
        return self._write(path, [table] * len(m), m.tiles, m.embeddings, m.sources)

    def import_file(self, path: str | Path, table: str | None = None) -> int:
        """Add the crops of a memory file (every table in it, or all of them under `table`); returns how many.
        A file made with another classifier adds nothing."""
        return self.import_arrays(read_npz(path), table)

    def import_arrays(self, data: dict[str, Any], table: str | None = None) -> int:
        """`import_file` of a file already read (`read_npz`)."""
        if str(data["model"]) != self.model or len(data["tiles"]) == 0:
            return 0
        names = np.asarray(data["tables"]).astype(str)
        tiles = np.asarray(data["tiles"]).astype(str)
        sources = np.asarray(data["sources"]).astype(str)
        for name in sorted(set(names)):
            rows = names == name
            self.add(table or name, data["embeddings"][rows], list(tiles[rows]), list(sources[rows]))
        return len(tiles)

    def save(self, path: str | Path) -> Path:
        """Write every table's memory to one ``.npz`` file."""
        names = [t for t in self.tables() for _ in range(self.count(t))]
        tiles = [c for t in self.tables() for c in self._tables[t].tiles]
        sources = [s for t in self.tables() for s in self._tables[t].sources]
        emb = np.concatenate([self._tables[t].embeddings for t in self.tables()]) if names else np.zeros((0, 0), np.float32)
        return self._write(path, names, tiles, emb, sources)

    def _write(self, path: str | Path, names: Sequence[str], tiles: Sequence[str], embeddings: np.ndarray,
               sources: Sequence[str]) -> Path:  # fmt: skip
        """Write rows (table, tile, embedding, source) with this memory's model and distance as ``.npz``, all at once."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, tables=np.array(names, dtype=str), tiles=np.array(tiles, dtype=str), embeddings=embeddings,
                            sources=np.array(sources, dtype=str), model=np.array(self.model),
                            max_distance=np.array(self.max_distance))
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path, model: str = "", max_distance: float = DEFAULT_MAX_DISTANCE) -> TileMemory:
        """The memory saved at `path` (an empty one if there is no file); tables made with another
        classifier than `model` are left out, as their embeddings mean nothing to this one."""
        memory = cls(model, max_distance)
        if Path(path).is_file():
            memory.import_file(path)
        return memory


def read_npz(path: str | Path) -> dict[str, Any]:
    """The arrays of a memory file, or a TileMemoryError a player can read."""
    try:
        with np.load(Path(path), allow_pickle=False) as z:
            data = {k: z[k] for k in ("tables", "tiles", "embeddings", "model")}
            data["sources"] = z["sources"] if "sources" in z.files else np.full(len(data["tiles"]), "")
        n = len(data["tiles"])
        if len(data["tables"]) != n or len(data["sources"]) != n or (n and (data["embeddings"].ndim != 2 or len(data["embeddings"]) != n)):
            raise ValueError("rows of tables, tiles, sources and embeddings differ")
    except (OSError, KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile) as e:
        raise TileMemoryError(f"读不了纠错记忆文件 {Path(path).name}（文件坏了）", f"cannot read the correction memory {path}: {e}") from e
    return data


def calibrate_max_distance(embeddings: np.ndarray, tiles: Sequence[str], precision: float = 0.99) -> float:
    """The largest distance at which nearest-prototype reading stays at least `precision` right, each
    crop judged against prototypes made without it (leave-one-out); 0 when no distance is that good."""
    e = unit(embeddings)
    labels = np.asarray(tiles)
    codes = sorted(set(tiles))
    if len(codes) < 2:
        return 0.0
    sums = np.stack([e[labels == c].sum(axis=0) for c in codes])
    counts = np.array([(labels == c).sum() for c in codes], dtype=np.float32)
    own = np.array([codes.index(t) for t in labels])
    dist = np.empty(len(e), np.float32)
    right = np.empty(len(e), bool)
    for i in range(len(e)):
        s, n = sums.copy(), counts.copy()
        s[own[i]] -= e[i]
        n[own[i]] -= 1
        ok = n > 0
        protos = unit(s[ok] / n[ok, None])
        d = 1.0 - protos @ e[i]
        j = int(d.argmin())
        dist[i], right[i] = d[j], np.nonzero(ok)[0][j] == own[i]
    order = np.argsort(dist, kind="stable")
    good = np.cumsum(right[order]) / np.arange(1, len(order) + 1)
    meets = np.nonzero(good >= precision)[0]
    return float(dist[order][meets.max()]) if len(meets) else 0.0


def gives_embeddings(classifier: Any) -> bool:
    """The classifier's session has the ``embedding`` output crops are compared by."""
    session = getattr(classifier, "session", None)
    return session is not None and EMBEDDING_OUTPUT in {o.name for o in session.get_outputs()}


def crop_embeddings(classifier: Any, rgb: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """The classifier's ``embedding`` output for the crop of each box (as the classifier reads them)."""
    from vision.reader.classifier import crop_tile, to_blob

    if not boxes:
        return np.zeros((0, 0), np.float32)
    if not gives_embeddings(classifier):
        raise TileMemoryError("这个牌面分类模型不给特征，不能记住纠正",
                           f"{Path(classifier.path).name} has no '{EMBEDDING_OUTPUT}' output to remember corrections by")
    blob = to_blob(np.stack([crop_tile(rgb, b) for b in boxes]))
    return classifier.session.run([EMBEDDING_OUTPUT], {classifier.input_name: blob})[0]


def apply_memory(detections: Sequence[Any], rgb: np.ndarray, classifier: Any, memory: TileMemory,
                 table: str) -> list[Any]:  # fmt: skip
    """Detections as the table's memory reads them (`memory_readings`), the boxes a player deleted left out."""
    return [d for d in memory_readings(detections, rgb, classifier, memory, table) if d is not None]


def memory_readings(detections: Sequence[Any], rgb: np.ndarray, classifier: Any, memory: TileMemory,
                    table: str) -> list[Any | None]:  # fmt: skip
    """Each detection as the table's memory reads it: a crop the memory recalls (`TileMemory.recall`) takes the
    remembered tile when it is a taught crop again (None: one a player deleted, `NOT_A_TILE`) or the classifier has
    that tile among its top choices at `layout.legal.MIN_ALTERNATIVE` or more (one corrected 八万 taught as 九万 must
    not make the other 八万 of the next photo, which the classifier gives 九万 0.3 %, 九万), and the classifier does not
    read the box face down (a taught 白板 made a 暗杠's backs 白板: the layout weighs a face behind a back itself);
    otherwise the table's head re-ranks the classifier's top choices (`rerank`)."""
    if not detections or not memory.count(table):
        return list(detections)
    embeddings = crop_embeddings(classifier, rgb, [d.box for d in detections])
    recalls = memory.recall(table, embeddings)
    head = memory.head(table)
    if head is not None and head.weights.shape[0] != embeddings.shape[1]:  # another classifier's crops (as `recall`)
        head = None
    probs = head.probabilities(embeddings) if head is not None else None
    out: list[Any | None] = []
    for i, (d, r) in enumerate(zip(detections, recalls)):
        if r.tile == NOT_A_TILE:
            out.append(None)
            continue
        alternatives = getattr(d, "alternatives", ()) or ((d.tile, 1.0),)
        choices = {c for c, p in alternatives if p >= MIN_ALTERNATIVE}  # as the legal round's choices are held
        tile = r.tile if r.same or (r.tile in choices and d.tile != BACK_CODE) else None
        if tile is None and head is not None and probs is not None:
            tile = rerank(getattr(d, "alternatives", ()) or (), head, probs[i])
        out.append(replace(d, tile=tile) if tile is not None and tile != d.tile else d)
    return out
