"""Error types of the scoring core: every refusal carries a Chinese and an English message."""

from __future__ import annotations


class JingsuanError(ValueError):
    """Base error: `zh` is shown to players, `en` in logs and the CLI's --lang en."""

    def __init__(self, zh: str, en: str | None = None) -> None:
        self.zh = zh
        self.en = en or zh
        super().__init__(f"{zh} ({self.en})" if en and en != zh else zh)


class TileError(JingsuanError):
    """An unknown tile code or a malformed tile string."""


class RoundError(JingsuanError):
    """A round that cannot be settled as described (bad counts, forbidden win, ...)."""
