"""Start the board: real hardware on rp2/esp32, simulated hardware on the unix port.

Unix port:  micropython firmware/main.py <tty-path>   (MICROPYPATH=firmware/lib:firmware)
  stdout: {"boot": "<boot_id>"}, then one JSON line per change of what is shown (simhw);
  stdin:  "press <DRAW|PASS|UNDO|COLOUR> <short|long>" | "quit";
  env TABLEREF_BOOT_HOLD=<button>: that button is held at boot -> {"safe_mode": true}, exit 0.
"""
import os
import sys

from tableboard import FW_VERSION
from tableboard.app import App
from tableboard.clock import Clock


def new_boot_id():
    try:
        raw = os.urandom(4)
    except (AttributeError, OSError):
        import random
        raw = random.getrandbits(32).to_bytes(4, "big")
    return "%02x%02x%02x%02x" % (raw[0], raw[1], raw[2], raw[3])


def run_board(cfg):
    import micropython
    from tableboard.hardware import BoardHardware
    from tableboard.usb_link import UsbLink

    hw = BoardHardware(cfg)
    held = hw.any_pressed()
    if held is not None:
        # safe mode: back to the REPL with Ctrl-C working, for mpremote/reflashing
        print("tableref: %s held at boot: safe mode, link not started" % held)
        hw.off()
        return
    clock = Clock()
    app = App(hw, UsbLink(), clock, cfg, new_boot_id(), cfg.board(), FW_VERSION)
    micropython.kbd_intr(-1)  # the link owns the serial port: 0x03 must not stop the app
    try:
        app.run()
    finally:
        micropython.kbd_intr(3)
        hw.off()


def _fail(msg):
    sys.stderr.write("tableboard: error: %s\n" % msg)
    sys.exit(2)


def run_unix(cfg, argv):
    from tablelink.messages import BUTTONS, PRESSES
    from tableboard.simhw import SimHardware
    from tableboard.tty_link import TtyLink

    if len(argv) != 2:
        _fail("usage: micropython firmware/main.py <tty-path>")
    hold = os.getenv("TABLEREF_BOOT_HOLD")
    if hold and hold not in BUTTONS:
        _fail("TABLEREF_BOOT_HOLD=%s is not one of %s" % (hold, ", ".join(BUTTONS)))
    hw = SimHardware(cfg, boot_hold=hold)
    if hw.any_pressed() is not None:
        hw.emit({"safe_mode": True})
        return
    clock = Clock()
    try:
        link = TtyLink(argv[1])
    except OSError as e:
        _fail("cannot open %s: %s" % (argv[1], e))
        return
    boot_id = new_boot_id()
    hw.emit({"boot": boot_id})
    app = App(hw, link, clock, cfg, boot_id, "unix", FW_VERSION)

    def on_line(line):
        words = line.split()
        if words == ["quit"]:
            app.stop()
        elif len(words) == 3 and words[0] == "press" and words[1] in BUTTONS \
                and words[2] in PRESSES:
            hw.press(words[1], words[2], clock.now())
        elif words:
            sys.stderr.write("tableboard: unknown command: %s\n" % line)

    link.on_line = on_line
    app.run()
    if link.closed:
        hw.emit({"link_closed": True})


def main():
    import config
    if config.board() in ("rp2", "esp32"):
        run_board(config)
    else:
        run_unix(config, sys.argv)
