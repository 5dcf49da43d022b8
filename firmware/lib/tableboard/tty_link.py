"""The host link over a tty on the unix port (a pty slave in the tests), plus the stdin
command channel of the simulated board.

The tty is put in raw mode with VMIN=0/VTIME=0 so that read(n) returns what is there
instead of waiting for n bytes (the unix port's FileIO.read loops until n bytes otherwise).
"""
import select
import sys

import termios  # pyright: ignore[reportMissingImports]  (unix port only, not in rp2 stubs)

_VTIME = 5  # indices into the termios cc array (Linux); the unix port names neither
_VMIN = 6
MAX_READ = 512


class LinkClosed(Exception):
    pass


def _ignore_line(line):
    pass


class TtyLink:
    """read()/write()/wait() for App; wait() also hands each stdin line to on_line."""

    def __init__(self, path):
        self.f = open(path, "r+b")
        fd = self.f.fileno()
        termios.setraw(fd)
        attrs = termios.tcgetattr(fd)
        attrs[6][_VMIN] = 0
        attrs[6][_VTIME] = 0
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self.on_line = _ignore_line
        self.poll = select.poll()
        self.poll.register(self.f, select.POLLIN)
        self._stdin = True
        self.poll.register(sys.stdin, select.POLLIN)
        self.closed = False

    def read(self):
        if self.closed:
            return b""
        try:
            return self.f.read(MAX_READ) or b""
        except OSError:  # EIO: the other end of the pty is gone
            self.closed = True
            return b""

    def write(self, data):
        if data and not self.closed:
            try:
                self.f.write(data)
            except OSError:
                self.closed = True

    def wait(self, ms):
        for obj, ev in self.poll.poll(ms):
            if obj is self.f:
                if ev & (select.POLLHUP | select.POLLERR):
                    self.closed = True
            elif ev & select.POLLIN:
                line = sys.stdin.readline()
                if not line:  # EOF: no more commands, keep running
                    self.poll.unregister(sys.stdin)
                    continue
                self.on_line(line.strip())
            elif ev & (select.POLLHUP | select.POLLERR):
                self.poll.unregister(sys.stdin)
