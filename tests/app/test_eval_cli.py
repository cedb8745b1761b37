"""`jingsuan eval DIR`: a folder that is not there is refused by name, in Chinese, before any model is loaded."""

from __future__ import annotations

from app.cli import main


def test_eval_of_a_folder_that_is_not_there_names_it(tmp_path, capsys) -> None:
    missing = tmp_path / "valid"
    assert main(["eval", str(missing)]) == 2
    captured = capsys.readouterr()
    assert f"找不到要评估的文件夹：{missing}" in captured.err and "model" not in captured.out
