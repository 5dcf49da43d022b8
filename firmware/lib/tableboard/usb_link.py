"""The host link over the board's USB CDC serial (the REPL's stdin/stdout).

Reads only what select.poll says is there, one byte at a time, so the loop never blocks;
the protocol is printable ASCII so it never collides with the REPL's control bytes, and
boot disables Ctrl-C (micropython.kbd_intr(-1)) while the link runs so that it can never
interrupt the app half-way through a step. A 0x03 byte (Ctrl-C, which a valid frame never
contains) is instead taken here as "the host wants the REPL" (mpremote sends it before it
enters the raw REPL, e.g. for `tableref flash`): the link closes, the app stops cleanly,
Ctrl-C is re-enabled and the board drops to the REPL.
"""
import select
import sys

MAX_READ = 256  # bytes per step: a burst cannot starve the buttons


class UsbLink:
    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.closed = False  # set by a Ctrl-C byte from the host

    def read(self):
        buf = bytearray()
        while len(buf) < MAX_READ and self.poll.poll(0):
            b = self.rx.read(1)
            if not b:
                break
            if b == b"\x03":
                self.closed = True
                break
            buf.extend(b)
        return bytes(buf)

    def write(self, data):
        if data:
            self.tx.write(data)

    def wait(self, ms):
        self.poll.poll(ms)
