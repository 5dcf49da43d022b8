"""Real parts for the live page and MQTT tests: a Mosquitto broker on a free loopback port
(generated config, stopped after the test) and the system's headless Chromium.

Missing parts skip the tests with the reason, except on CI (CI=true), where .ci/run installs
them and a missing part fails the test."""
from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import time
from typing import Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def need(what: str, why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing on CI ({why}); .ci/run should have installed it")
    pytest.skip(f"{what} is not installed ({why})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout: float = 30.0, what: str = "condition", every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Broker:
    """One Mosquitto process; stop()/start() keep the port, kill() is a crash."""

    def __init__(self, folder: pathlib.Path, users: dict[str, str] | None = None) -> None:
        exe = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
        if exe is None:
            need("mosquitto", "apt-get install -y mosquitto")
        self.exe = exe
        self.port = free_port()
        self.folder = folder
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "log_dest stderr", "log_type error"]
        if os.geteuid() == 0:  # as root it would switch to the user "mosquitto", who cannot read tmp_path
            lines.append("user root")
        if users:
            pw = folder / "passwd"
            pw.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
            os.chmod(pw, 0o600)
            subprocess.run([shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd", "-U", str(pw)], check=True)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines.append("allow_anonymous true")
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None

    def url(self, path: str, auth: str = "") -> str:
        return f"mqtt://{auth + '@' if auth else ''}127.0.0.1:{self.port}/{path}"

    def start(self) -> "Broker":
        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stderr=open(self.folder / "broker.log", "ab"))

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0
        wait_for(listening, 10, "mosquitto to listen")
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def broker(tmp_path: pathlib.Path) -> Iterator[Broker]:
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
