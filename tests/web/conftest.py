"""Real parts for the live page and MQTT tests: a Mosquitto broker on a free loopback port
(generated config, stopped after the test) and the system's headless Chromium.

Missing parts skip the tests with the reason, except on CI (CI=true), where .ci/run installs
them and a missing part fails the test."""
from __future__ import annotations

import os
import pathlib
import time
from typing import Iterator

import pytest

from tableref.mqtt.mosquitto import Broker, find_mosquitto, free_port

__all__ = ["Broker", "free_port", "wait_for", "need", "require_mosquitto"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def need(what: str, why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing on CI ({why}); .ci/run should have installed it")
    pytest.skip(f"{what} is not installed ({why})")


def wait_for(check, timeout: float = 30.0, what: str = "condition", every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def require_mosquitto() -> None:
    if find_mosquitto() is None:
        need("mosquitto", "apt-get install -y mosquitto")


@pytest.fixture
def broker(tmp_path: pathlib.Path) -> Iterator[Broker]:
    require_mosquitto()
    b = Broker(tmp_path).start()
    try:
        yield b
    finally:
        b.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        need("chromium", "apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need("playwright", "pip install -e '.[test]'")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()
