"""A private Mosquitto broker on a free loopback port, for rehearsing a venue on one computer,
the MQTT tests and bench/bench_scoreboard.py: a generated config, started and stopped here.

stop() is a clean shutdown, kill() a crash; start() again keeps the port. No persistence: a
restarted broker has forgotten everything, the harshest case for the tables and scoreboard."""
from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import time


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, folder: pathlib.Path, users: dict[str, str] | None = None,
                 tls: tuple[pathlib.Path, pathlib.Path, pathlib.Path] | None = None) -> None:
        """`users`: name -> password (else anonymous); `tls`: (CA, certificate, key) files (mqtts)."""
        exe = find_mosquitto()
        if exe is None:
            raise RuntimeError("mosquitto is not installed (apt-get install -y mosquitto)")
        self.exe = exe
        self.port = free_port()
        self.folder = folder
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "log_dest stderr", "log_type error",
                 "max_queued_messages 100000"]
        if tls is not None:
            lines += [f"cafile {tls[0]}", f"certfile {tls[1]}", f"keyfile {tls[2]}"]
        self.scheme = "mqtts" if tls is not None else "mqtt"
        if os.geteuid() == 0:  # as root it would switch to the user "mosquitto", who may not read `folder`
            lines.append("user root")
        if users:
            pw = folder / "passwd"
            pw.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
            os.chmod(pw, 0o600)
            passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
            subprocess.run([passwd, "-U", str(pw)], check=True)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines.append("allow_anonymous true")
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join(lines) + "\n")
        self.proc: subprocess.Popen | None = None

    def url(self, path: str, auth: str = "") -> str:
        return f"{self.scheme}://{auth + '@' if auth else ''}127.0.0.1:{self.port}/{path}"

    def start(self, timeout_s: float = 10.0) -> "Broker":
        with open(self.folder / "broker.log", "ab") as log:
            self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)], stderr=log)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"mosquitto did not start; see {self.folder / 'broker.log'}")

    def kill(self) -> None:
        self._end(kill=True)

    def stop(self) -> None:
        self._end(kill=False)

    def _end(self, kill: bool) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            self.proc.wait(10)
        self.proc = None
