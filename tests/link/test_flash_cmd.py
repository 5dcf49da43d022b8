"""`tableref flash`: planning as pure logic; the no-board paths for real."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from tableref.errors import UserError
from tableref.flash_cmd import default_firmware_dir, firmware_files, plan, resolve_port


def make_firmware(root: pathlib.Path) -> pathlib.Path:
    fw = root / "firmware"
    for rel in ["main.py", "config.py", "lib/tablelink/__init__.py", "lib/tablelink/frame.py", "lib/app/run.py",
                "lib/tablelink/__pycache__/frame.cpython-311.pyc", "lib/app/__pycache__/x.py"]:
        p = fw / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")
    return fw


def test_firmware_files_skip_caches(tmp_path: pathlib.Path) -> None:
    files = [str(f) for f in firmware_files(make_firmware(tmp_path))]
    assert files == ["config.py", "lib/app/run.py", "lib/tablelink/__init__.py", "lib/tablelink/frame.py", "main.py"]


def test_plan_copies_sources_then_resets(tmp_path: pathlib.Path) -> None:
    fw = make_firmware(tmp_path)
    steps = plan(fw, "/dev/ttyACM0", False, tmp_path / "stage")
    mp = [sys.executable, "-m", "mpremote", "connect", "/dev/ttyACM0"]
    assert [s.argv for s in steps] == [
        mp + ["fs", "rm", "-r", ":lib"],
        mp + ["fs", "cp", "-r", str(fw / "lib"), ":"],
        mp + ["fs", "cp", str(fw / "config.py"), str(fw / "main.py"), ":"],
        mp + ["reset"],
    ]
    assert steps[0].may_fail and not any(s.may_fail for s in steps[1:])


def test_plan_with_compile_keeps_main_and_config_as_source(tmp_path: pathlib.Path) -> None:
    fw = make_firmware(tmp_path)
    stage = tmp_path / "stage"
    steps = plan(fw, "rfc2217://localhost:4000", True, stage)
    compiled = [s.argv for s in steps if s.label.startswith("compile")]
    assert [a[a.index("-o") + 1] for a in compiled] == [str(stage / p) for p in ["lib/app/run.mpy", "lib/tablelink/__init__.mpy", "lib/tablelink/frame.mpy"]]
    staged = [s.argv[1:] for s in steps if s.label.startswith("stage")]
    assert staged == [[str(fw / "config.py"), str(stage / "config.py")], [str(fw / "main.py"), str(stage / "main.py")]]
    assert steps[-2].argv[-3:] == [str(stage / "config.py"), str(stage / "main.py"), ":"]
    assert all(s.argv[4] == "rfc2217://localhost:4000" for s in steps if "mpremote" in s.argv)


def test_plan_refuses_a_folder_without_main(tmp_path: pathlib.Path) -> None:
    (tmp_path / "lib").mkdir()
    with pytest.raises(UserError, match="no main.py"):
        plan(tmp_path, "/dev/ttyACM0", False, tmp_path / "s")


def test_resolve_port() -> None:
    from test_ports_and_urls import FakePort

    pico = FakePort("/dev/ttyACM7", 0x2E8A, 0x0005, "S1", "")
    assert resolve_port("auto", [pico]) == "/dev/ttyACM7"
    assert resolve_port("rfc2217://localhost:4000", []) == "rfc2217://localhost:4000"
    with pytest.raises(UserError, match="no board found"):
        resolve_port("auto", [])
    with pytest.raises(UserError, match="simulated"):
        resolve_port("sim://", [])
    with pytest.raises(UserError, match="no serial port /dev/ttyNOPE"):
        resolve_port("/dev/ttyNOPE", [])


def test_compile_step_really_compiles_the_real_tablelink(tmp_path: pathlib.Path) -> None:
    from tableref.flash_cmd import _run_step

    fw = make_firmware(tmp_path)
    real = default_firmware_dir() / "lib/tablelink/host.py"
    (fw / "lib/tablelink/host.py").write_bytes(real.read_bytes())
    stage = tmp_path / "stage"
    steps = [s for s in plan(fw, "/dev/null", True, stage) if s.label == "compile lib/tablelink/host.py"]
    assert len(steps) == 1
    _run_step(steps[0], "/dev/null")
    assert (stage / "lib/tablelink/host.mpy").read_bytes()[:1] == b"M"  # .mpy magic


def _tableref(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tableref", *args], capture_output=True, text=True, timeout=120)


def test_flash_to_a_missing_port_fails_cleanly() -> None:
    proc = _tableref("flash", "--port", "/dev/ttyNOPE")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "tableref: error: no serial port /dev/ttyNOPE (is the board plugged in? `tableref ports` lists ports)"


def test_flash_auto_with_no_board_fails_cleanly() -> None:
    from serial.tools import list_ports

    from tableref.link.discovery import likely_boards

    if likely_boards(list_ports.comports()):
        pytest.skip("a board is plugged into this machine")
    proc = _tableref("flash")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tableref: error: no board found") and len(proc.stderr.strip().splitlines()) == 1


def test_flash_dry_run_prints_progress(tmp_path: pathlib.Path) -> None:
    proc = _tableref("flash", "--port", "socket://localhost:1", "--dry-run", "--firmware", str(make_firmware(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("flash: 4 steps to socket://localhost:1")
    assert lines[1] == "flash: [1/4] remove old lib/ on the board"
    assert lines[-1] == "flash: dry run, nothing sent"


def test_flash_to_a_port_with_no_board_behind_it_fails_cleanly(tmp_path: pathlib.Path) -> None:
    """mpremote really runs and fails (nothing listens on the socket): one line, exit 2."""
    proc = _tableref("flash", "--port", "socket://127.0.0.1:9", "--firmware", str(make_firmware(tmp_path)))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tableref: error: socket://127.0.0.1:9: 'copy lib/' failed:")
