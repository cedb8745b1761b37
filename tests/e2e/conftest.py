"""Fixtures of the browser tests (helpers in tests/e2e/helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import ARGS, CHROMIUM, app_server

#: A browser journey on a busy 2-core machine can lose a tap that lands while Streamlit is still redrawing;
#: such a test is run again (at most twice) and pytest's summary says so ("R"), so a steady failure still fails.
E2E_RERUNS = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test gets `flaky(reruns=E2E_RERUNS)` (pytest-rerunfailures)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flaky(reruns=E2E_RERUNS, reruns_delay=2))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's headless chromium through Playwright (no browser download)."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is missing: run scripts/install_test_system_deps.sh (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`jingsuan app` on loopback with its ledger in a fresh folder, one per test module → base URL."""
    with app_server(tmp_path_factory.mktemp("ledger")) as url:
        yield url


@pytest.fixture
def annotate_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app with its datasets in a temporary folder and no model → (base URL, datasets folder); one per test and
    per rerun: a test run again after a lost tap must not meet the datasets, photos and boxes of its first try (a
    repeated upload is refused, a dataset name is taken), or every rerun fails for that alone."""
    datasets = tmp_path_factory.mktemp("datasets")
    # no model (an empty --models folder): the page starts with no pre-drawn boxes, the drawn one is #0
    env = {"JINGSUAN_DATASETS": str(datasets), "JINGSUAN_MODEL_DIR": str(tmp_path_factory.mktemp("no-model"))}
    with app_server(tmp_path_factory.mktemp("ledger"), env) as url:
        yield url, datasets
