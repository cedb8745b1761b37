"""Malformed rounds through `jingsuan settle`: exit 0 or 2 with one line, never a traceback; memory stays bounded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from app import cli
from scoring.errors import JingsuanError
from tests.fuzz.strategies import JSON, mutated

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "round.json").read_text())
GB = {"rules": "gb", "dealer": "E", "players": {"E": {"hand": "123m456m789m123p5p"}},
      "win": {"seat": "E", "tile": "5p", "from": "self"}}  # fmt: skip
FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

YAML_TEXT = st.one_of(
    st.text(max_size=80),
    st.builds(lambda n: "a: &a [1]\n" + "".join(f"a{i}: &a{i} [*a, *a]\n" for i in range(n)), st.integers(0, 30)),
    st.builds(lambda n, o: o * n, st.integers(1, 2000), st.sampled_from(["[", "{", "- ", "a:\n  "])),
    st.builds(lambda n: f"follow_dealer: {'9' * n}\n", st.integers(1, 5000)),
    st.sampled_from(["!!python/object:os.system ls", "? [a]\n: b", "%YAML 9.9\n---\na: 1", "---\n---\n", "*x"]),
)


def run_settle(tmp: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp / "round.yaml"
    path.write_text(text)
    status = cli.main(["settle", str(path)])
    out, err = capsys.readouterr()
    assert status in (0, 2), (status, err)
    assert "Traceback" not in out + err
    if status == 2:
        assert not out and err.count("\n") == 1, err
    else:
        assert json.loads(out)["total"]


@FUZZ
@given(doc=mutated(EXAMPLE) | mutated(GB) | JSON)
def test_malformed_round_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: object) -> None:
    run_settle(tmp_path, json.dumps(doc), capsys)


@FUZZ
@given(doc=mutated(EXAMPLE) | mutated(GB))
def test_settle_refuses_malformed_fields_with_a_message(doc: object) -> None:
    """The library call itself (the app and the ledger use it, not the CLI) settles or refuses in words."""
    try:
        settlement = scoring.settle(doc)  # type: ignore[arg-type]
    except JingsuanError as exc:
        assert exc.zh and exc.en
    else:
        assert sum(settlement.to_dict()["total"].values()) == 0


@FUZZ
@given(text=YAML_TEXT)
def test_malformed_yaml_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    run_settle(tmp_path, text, capsys)


MEMORY_LIMIT = 512 * 1024 * 1024

LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_hostile_files_stay_within_half_a_gigabyte(tmp_path: Path) -> None:
    """Alias bombs, /dev/zero, a sparse 2 GB file and a deep nest, under a 512 MB address-space limit."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [" + ",".join(['"lol"'] * 10) + "]\n"
                    + "".join(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}" if i else "*a"] * 10) + "]\n" for i in range(9)))  # fmt: skip
    sparse = tmp_path / "sparse.json"
    with sparse.open("wb") as fh:
        fh.truncate(2 << 30)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    good = ROOT / "examples" / "round.json"
    args = ["settle", str(bomb), "/dev/zero", str(sparse), str(deep), str(good)]
    result = subprocess.run(
        [sys.executable, "-c", LIMITED.format(limit=MEMORY_LIMIT), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), "JINGSUAN_DATA_DIR": str(tmp_path)},
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert ["error" in line for line in lines] == [True, True, True, True, False]
