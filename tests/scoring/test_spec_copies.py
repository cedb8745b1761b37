"""The spec files the tests keep a copy of agree with the shared spec (`../shared/rules`, beside the repo).

CI clones the shared folder beside the repository; where it is absent (a bare checkout) there is
nothing to compare and the tests say so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from scoring.chongguan.presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "rules"
DATA = Path(__file__).parent / "data"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is not beside the repository")


def _cases(path: Path) -> dict[str, Any]:
    return {c["id"]: c for c in yaml.safe_load(path.read_text("utf-8"))["cases"]}


@needs_shared
def test_the_golden_copy_is_the_shared_golden_file() -> None:
    assert (DATA / "golden_chongguan.yaml").read_bytes() == (SHARED / "golden_chongguan.yaml").read_bytes()


@needs_shared
def test_every_other_system_case_is_copied_verbatim() -> None:
    shared = _cases(SHARED / "golden_chongguan.yaml")
    copied = _cases(DATA / "golden_other_systems.yaml")
    assert copied and all(shared.get(cid) == case for cid, case in copied.items())
    other = {cid for cid, c in shared.items() if c["kind"] in ("wuhu", "chongji")}
    assert other <= set(copied)


def _spec_value(text: str) -> Any:
    return yaml.safe_load(text)


@needs_shared
def test_options_the_spec_gives_one_default_have_it_in_every_preset() -> None:
    spec = (SHARED / "chongguan.md").read_text("utf-8")
    para = spec.split("Options that have the same default in every preset:")[1].split("\n\n")[0]
    pairs = re.findall(r"`(\w+) = (\w+)`", para)
    assert len(pairs) >= 8
    for name, value in pairs:
        assert {p: getattr(o, name) for p, o in PRESETS.items()} == dict.fromkeys(PRESETS, _spec_value(value)), name


@needs_shared
def test_gangjing_plus_kong_pay_is_true_where_the_spec_says() -> None:
    spec = (SHARED / "chongguan.md").read_text("utf-8")
    assert "`yongfeng` sets `gangjing_plus_kong_pay = true`" in spec
    assert {p for p, o in PRESETS.items() if o.gangjing_plus_kong_pay} == {"yongfeng"}
