"""`jingsuan settle`: JSON/YAML files or stdin, JSON Lines for several files, --text, exit 2 on refusal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from tests.scoring.chongguan_helpers import round_doc

ROOT = Path(__file__).resolve().parents[2]


def good(tmp_path: Path, name: str = "r.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(round_doc("5s345m678p234s789p", "5s")), encoding="utf-8")
    return p


def test_settle_prints_the_settlement_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(good(tmp_path))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["total"] == {"E": -13 - 2, "S": 31 - 2, "W": -9 - 2, "N": -9 + 6}  # N: 霸精 1×2
    assert doc["win"]["names"] == ["平胡", "德国"]


def test_settle_reads_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    p = tmp_path / "r.yaml"
    p.write_text(yaml.safe_dump(round_doc("5s345m678p234s789p", "5s"), allow_unicode=True), encoding="utf-8")
    assert main(["settle", str(p)]) == 0
    assert json.loads(capsys.readouterr().out)["deltas"]["hu"]["S"] == 31


def test_several_files_print_json_lines_with_file_and_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(round_doc("345m678p234s789p", "5s")), encoding="utf-8")
    assert main(["settle", str(good(tmp_path)), str(bad)]) == 2
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["file"].endswith("r.json") and lines[0]["total"]["S"] == 29
    assert lines[1]["file"].endswith("bad.json") and "14张" in lines[1]["error"]


def test_text_prints_a_chinese_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", "--text", str(good(tmp_path))]) == 0
    out = capsys.readouterr().out
    for word in ("胡", "精", "杠", "跟庄", "罚", "合计", "平胡", "德国"):
        assert word in out
    assert "+29" in out


@pytest.mark.parametrize(("content", "needle"), [
    ("{not json", "JSON/YAML"),
    (json.dumps(round_doc("345m678p234s789p9z", "5s")), "9z"),
    (json.dumps(round_doc("2m45m678p234s789p5s", "5s", frm="W")), "点炮"),
])
def test_a_refused_round_exits_2_with_one_line_and_no_traceback(tmp_path: Path, content: str, needle: str) -> None:
    p = tmp_path / "x.json"
    p.write_text(content, encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "app.cli", "settle", str(p)], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 2 and res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and needle in res.stderr and "Traceback" not in res.stderr


def test_stdin_and_a_missing_file(tmp_path: Path) -> None:
    doc = json.dumps(round_doc("5s345m678p234s789p", "5s"))
    res = subprocess.run([sys.executable, "-m", "app.cli", "settle", "-"], input=doc, capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and json.loads(res.stdout)["deltas"]["hu"]["S"] == 31
    res = subprocess.run([sys.executable, "-m", "app.cli", "settle", str(tmp_path / "nope.json")], capture_output=True,
                         text=True, cwd=ROOT)
    assert res.returncode == 2 and "找不到文件" in res.stderr


def test_the_example_round_settles() -> None:
    res = subprocess.run([sys.executable, "-m", "app.cli", "settle", "--text", "examples/round.json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0 and "合计" in res.stdout
