"""`tableref flash`: planning as pure logic; the no-board paths for real."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from tableref.errors import UserError
from tableref.firmware_dir import firmware_dir
from tableref.flash_cmd import firmware_files, plan, resolve_port


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


def test_plan_stages_sources_then_copies_and_resets(tmp_path: pathlib.Path) -> None:
    fw = make_firmware(tmp_path)
    stage = tmp_path / "stage"
    steps = plan(fw, "/dev/ttyACM0", False, stage)
    mp = [sys.executable, "-m", "mpremote", "connect", "/dev/ttyACM0", "resume"]
    assert steps[0].argv == [] and [pathlib.Path(d).relative_to(stage).as_posix() for _, d in steps[0].stage] == [
        "config.py", "lib/app/run.py", "lib/tablelink/__init__.py", "lib/tablelink/frame.py", "main.py"]
    assert [s.argv for s in steps[1:]] == [
        mp + ["fs", "rm", "-r", ":lib"],
        mp + ["fs", "cp", "-r", str(stage / "lib"), ":lib"],
        mp + ["fs", "cp", str(stage / "config.py"), ":config.py", "+", "fs", "cp", str(stage / "main.py"), ":main.py"],
        mp + ["reset"],
    ]
    assert steps[1].may_fail and not any(s.may_fail for s in steps[2:])
    assert plan(fw, "/dev/ttyACM0", False, stage, reset=False)[-1].label.startswith("copy ")


def test_plan_with_compile_keeps_main_and_config_as_source(tmp_path: pathlib.Path) -> None:
    fw = make_firmware(tmp_path)
    stage = tmp_path / "stage"
    steps = plan(fw, "rfc2217://localhost:4000", True, stage)
    compiled = [s.argv for s in steps if s.label.startswith("compile")]
    assert [a[a.index("-o") + 1] for a in compiled] == [str(stage / p) for p in ["lib/app/run.mpy", "lib/tablelink/__init__.mpy", "lib/tablelink/frame.mpy"]]
    staged = [list(pair) for s in steps for pair in s.stage]
    assert staged == [[str(fw / "config.py"), str(stage / "config.py")], [str(fw / "main.py"), str(stage / "main.py")]]
    assert steps[-2].argv[-2:] == [str(stage / "main.py"), ":main.py"]
    assert all(s.argv[4] == "rfc2217://localhost:4000" for s in steps if "mpremote" in s.argv)


def test_staging_leaves_caches_behind(tmp_path: pathlib.Path) -> None:
    from tableref.flash_cmd import _run_step

    fw = make_firmware(tmp_path)
    stage = tmp_path / "stage"
    _run_step(plan(fw, "/dev/null", False, stage)[0], "/dev/null")
    assert sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file()) == [
        "config.py", "lib/app/run.py", "lib/tablelink/__init__.py", "lib/tablelink/frame.py", "main.py"]


def test_mpremote_errors_become_one_line() -> None:
    from tableref.flash_cmd import _error_line

    tb = "Traceback (most recent call last):\n  File \"x\", line 1\nmpremote.transport.TransportError: could not enter raw repl\n"
    assert _error_line(tb) == "could not enter raw repl"
    assert _error_line("failed to access /dev/ttyACM0 (it may be in use by another program)\n") == \
        "failed to access /dev/ttyACM0 (it may be in use by another program)"
    assert _error_line("") == ""


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
    real = firmware_dir() / "lib/tablelink/host.py"
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
    assert lines[0].startswith("flash: 5 steps to socket://localhost:1")
    assert lines[1] == "flash: [1/5] stage 5 source files"
    assert lines[2] == "flash: [2/5] remove old lib/ on the board"
    assert lines[-1] == "flash: dry run, nothing sent"


def test_flash_to_a_port_with_no_board_behind_it_fails_cleanly(tmp_path: pathlib.Path) -> None:
    """mpremote really runs and fails (nothing listens on the socket): one line, exit 2."""
    proc = _tableref("flash", "--port", "socket://127.0.0.1:9", "--firmware", str(make_firmware(tmp_path)))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tableref: error: socket://127.0.0.1:9: 'copy lib/' failed:")


@pytest.mark.parametrize("compile_", [False, True])
def test_flash_deploys_to_a_micropython_repl_over_a_pty(tmp_path: pathlib.Path, compile_: bool) -> None:
    """The whole command for real: mpremote drives the unix port's REPL (its filesystem is a
    temp folder) through a pty, then the deployed firmware boots from that folder."""
    import json
    import os

    from harness import Relay, micropython_exe, skip_reason

    if skip_reason():
        pytest.skip(skip_reason() or "")
    exe = micropython_exe()
    assert exe is not None
    board_fs = tmp_path / "fs"
    board_fs.mkdir()
    relay = Relay(tmp_path)
    tty = open(relay.board_tty, "r+b", buffering=0)
    repl = subprocess.Popen([exe], stdin=tty, stdout=tty, stderr=tty, cwd=board_fs)
    try:
        args = ["flash", "--port", relay.host_path, "--no-reset"] + (["--compile"] if compile_ else [])
        proc = _tableref(*args)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[-1] == "flash: done"
    finally:
        repl.kill()
        repl.wait()
        tty.close()
        relay.close()
    fw = firmware_dir()
    ext = ".mpy" if compile_ else ".py"
    expected = {f.with_suffix(ext).as_posix() if len(f.parts) > 1 else f.as_posix() for f in firmware_files(fw)}
    got = {p.relative_to(board_fs).as_posix() for p in board_fs.rglob("*") if p.is_file()}
    assert got == expected
    assert (board_fs / "main.py").read_bytes() == (fw / "main.py").read_bytes()
    env = dict(os.environ, MICROPYPATH=f"{board_fs / 'lib'}:{board_fs}", TABLEREF_BOOT_HOLD="DRAW")
    booted = subprocess.run([exe, "main.py", "/nonexistent-tty"], cwd=board_fs, env=env, capture_output=True, text=True, timeout=60)
    assert booted.returncode == 0 and json.loads(booted.stdout) == {"safe_mode": True}, booted.stderr
