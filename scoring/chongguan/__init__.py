"""冲关 mahjong (兴国 / 南昌 / 吉安 / 永丰 / 莲花): presets, 胡计子, 精计子, 杠/跟庄/诈胡, the pipeline."""

from __future__ import annotations

from scoring.chongguan.presets import OPTION_INFO, PRESETS, ChongguanOptions, KongPay, resolve_options
from scoring.chongguan.settle import settle, settle_round

__all__ = ["OPTION_INFO", "PRESETS", "ChongguanOptions", "KongPay", "resolve_options", "settle", "settle_round"]
