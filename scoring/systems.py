"""Registry of rule systems: `rules` name in a round document -> the module that settles it.

Each module exposes `settle(doc: dict) -> Settlement`.  The 冲关 presets all go to
`scoring.chongguan.settle`; other systems (国标, 芜湖, 冲击) register here by name.
Modules are imported lazily so that a missing optional system never breaks the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from scoring.errors import RoundError
from scoring.settlement import Settlement

CHONGGUAN_PRESETS: tuple[str, ...] = ("xingguo", "nanchang", "jian", "jian_laok", "yongfeng", "lianhua")

SYSTEMS: dict[str, str] = {name: "scoring.chongguan" for name in CHONGGUAN_PRESETS} | {
    "gb": "scoring.gb",
    "wuhu2468": "scoring.wuhu",
    "wuhu1234": "scoring.wuhu",
    "chongji": "scoring.chongji",
}

SYSTEM_ZH: dict[str, str] = {
    "xingguo": "兴国冲关",
    "nanchang": "南昌算子法",
    "jian": "吉安",
    "jian_laok": "吉安（老K）",
    "yongfeng": "永丰",
    "lianhua": "莲花",
    "gb": "国标麻将",
    "wuhu2468": "芜湖2468",
    "wuhu1234": "芜湖1234",
    "chongji": "冲击",
}


def settler(rules: str) -> Callable[[dict[str, Any]], Settlement]:
    """The `settle(doc)` function of a rule system, or a RoundError naming the known ones."""
    module_name = SYSTEMS.get(rules)
    if module_name is None:
        known = ", ".join(SYSTEMS)
        raise RoundError(f"未知的规则：{rules}（可用：{known}）", f"unknown rules {rules!r} (known: {known})")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise RoundError(f"规则 {rules} 尚未实现", f"rules {rules!r} are not available in this build") from exc
        raise
    return module.settle
