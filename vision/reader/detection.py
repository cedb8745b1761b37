"""What the detector returns for one tile in a photo."""

from __future__ import annotations

from dataclasses import dataclass

CLASS_NAMES: tuple[str, ...] = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(
    f"{r}z" for r in range(1, 8)
) + ("back",)


@dataclass(frozen=True, slots=True)
class Detection:
    """One detected tile: `box` = (x1, y1, x2, y2) in the photo's pixels, `tile` = code or 'back';
    `alternatives`: the classifier's few likeliest classes (code, probability), best first (the first is
    `tile`), empty when there is no classifier's word (a single-stage model, a hand-written list)."""

    box: tuple[float, float, float, float]
    tile: str
    conf: float
    alternatives: tuple[tuple[str, float], ...] = ()
    #: How far the detector's own candidate boxes disagree on where this tile's top is, in tile heights
    #: (`detector.top_doubt`; 0 when not measured): two tiles lying on each other are boxed now as the pair,
    #: now as the one on top.
    top_doubt: float = 0.0
    #: How much more tile face than over its neighbours lies just above this tile's row over it (`stacked.face_above_row`;
    #: 0 when not measured): a kong's fourth tile stacked on it.
    face_above: float = 0.0
    #: The best score of the detector's boxes before NMS lying lifted over this tile's box (`detector.lifted_over`; 0
    #: when not measured or none): the box of a kong's fourth tile stacked on it, which NMS seldom keeps.
    box_above: float = 0.0
    #: How unlike the photo's surest 白板 this box named 白板 looks (`blanks.BlankLikeness`: the cosine distance of the
    #: classifier's embeddings of the two crops; 0 when not measured): a patch of table or a tile wall's side.
    blank_apart: float = 0.0

    @property
    def cx(self) -> float:
        return (self.box[0] + self.box[2]) / 2

    @property
    def cy(self) -> float:
        return (self.box[1] + self.box[3]) / 2

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]

    @property
    def named_prob(self) -> float:
        """The classifier's probability of `tile` (its first choice); 0 when it gave no word (`alternatives` empty)."""
        return self.alternatives[0][1] if self.alternatives else 0.0

    @property
    def standing(self) -> bool:
        """Boxed higher than wide: a tile standing upright in the photo (not lying sideways)."""
        return self.height > self.width
