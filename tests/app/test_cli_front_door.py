"""The CLI's front door: a bad input is one line and exit 2, an internal error one line, exit 1 and a log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli

ROOT = Path(__file__).resolve().parents[2]
ROUND = ROOT / "examples" / "round.json"


def settle(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["settle", *args])
    out, err = capsys.readouterr()
    return status, out, err


def one_refusal(status: int, out: str, err: str) -> None:
    assert status == 2 and not out, (status, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JINGSUAN_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize(
    "text",
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",  # billion laughs
        "[" * 20000 + "]" * 20000,  # deep nesting
        "{" * 3000,
        "follow_dealer: " + "9" * 5000,  # a 5,000-digit integer
        "rules: xingguo\nfollow_dealer: 123456789012",
        "- just\n- a list\n",
        "\xff\xfe not utf-8",
        "",
    ],
)
def test_hostile_round_files_are_one_line_and_exit_2(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.yaml"
    path.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
    one_refusal(*settle(capsys, str(path)))


def test_absurd_or_mistyped_fields_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = json.loads(ROUND.read_text())
    variants = [
        {**base, "false_win": 5},
        {**base, "win": {}},
        {**base, "dealer": ["E"]},
        {**base, "players": {**base["players"], "N": {"jing": {"zheng": 1000000, "fu": 0}}}},
    ]
    for i, doc in enumerate(variants):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(doc))
        one_refusal(*settle(capsys, str(path)))


def test_pipes_devices_folders_and_huge_files_are_refused_without_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)  # opening it would hang
    one_refusal(*settle(capsys, str(fifo)))
    one_refusal(*settle(capsys, "/dev/zero"))
    one_refusal(*settle(capsys, str(tmp_path)))
    one_refusal(*settle(capsys, str(tmp_path / "missing.json")))
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.truncate(300 * 1024 * 1024)  # sparse: huge on paper
    one_refusal(*settle(capsys, str(big)))


def test_a_bad_file_does_not_end_a_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: &a [1]\nb: [*a]\n")
    status, out, err = settle(capsys, str(bad), "/dev/zero", str(ROUND))
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 2 and not err
    assert [("error" in line) for line in lines] == [True, True, False]
    assert lines[2]["file"] == str(ROUND) and len(lines[2]) > 2  # the good file after them is settled


def test_an_internal_error_is_one_line_exit_1_and_logged(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import app.commands.settle as settle_cmd

    def broken(args: object) -> int:
        raise RuntimeError("boom in the settler")

    monkeypatch.setattr(settle_cmd, "run", broken)
    status = cli.main(["settle", str(ROUND)])
    out, err = capsys.readouterr()
    assert status == 1 and not out and err.count("\n") == 1 and "Traceback" not in err
    log = data_dir / "logs" / "cli.log"
    assert str(log) in err
    assert "Traceback" in log.read_text() and "boom in the settler" in log.read_text()


def test_unwritable_targets_are_a_refusal_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    import app.commands.settle as settle_cmd

    def unwritable(args: object) -> int:
        open("/proc/definitely/not/here", "w")  # noqa: SIM115 - raises
        return 0

    original = settle_cmd.run
    settle_cmd.run = unwritable  # type: ignore[assignment]
    try:
        status = cli.main(["settle", str(ROUND)])
    finally:
        settle_cmd.run = original  # type: ignore[assignment]
    one_refusal(status, *capsys.readouterr())


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`jingsuan settle many files | head -1`: no BrokenPipeError."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "settle", *[str(ROUND)] * 400],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT), "JINGSUAN_DATA_DIR": str(tmp_path)},
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_dataset_commands_with_bad_targets_or_files_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    src = tmp_path / "yolo"
    (src / "images").mkdir(parents=True)
    (src / "data.yaml").write_text("a: &a [x, x]\nb: &b [*a, *a]\nnames: [*b, *b]\n")  # an alias bomb
    coco = tmp_path / "coco.json"
    coco.write_text(json.dumps({"images": [{"id": [1], "file_name": 5}], "annotations": [None]}))
    for args in (
        ["dataset", "--root", str(blocker), "split", "team"],  # the root is a file
        ["dataset", "--root", str(tmp_path), "import-yolo", "team", str(src)],
        ["dataset", "--root", str(tmp_path), "import-coco", "team", str(coco), str(tmp_path)],
        ["dataset", "--root", str(tmp_path), "import-label-studio", "team", "/dev/zero", str(tmp_path)],
        ["dataset", "--root", str(tmp_path), "export-coco", "team", str(blocker / "out.json")],
    ):
        status = cli.main(args)
        out, err = capsys.readouterr()
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, status, err)
