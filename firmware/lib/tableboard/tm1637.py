"""Our own TM1637 driver: bit-banged two-wire bus over any two pin objects with .value().

Wiring: CLK and DIO as open-drain outputs (machine.Pin.OPEN_DRAIN, value=1) with the
module's pull-ups, so releasing DIO (value 1) lets the chip pull it low for its ACK.
Bus: start = DIO falls while CLK is high; bits are sent LSB first, DIO set while CLK is low
and taken on CLK's rising edge; after 8 bits the master releases DIO for a 9th (ACK) clock;
stop = DIO rises while CLK is high. A frame update is three transfers: 0x40 (write, auto
increment), 0xC0 (address 0) + 4 segment bytes, 0x88 | brightness (display on).
"""
from tableboard.segments import encode as _encode

CMD_DATA_AUTO = 0x40
CMD_ADDRESS = 0xC0
CMD_DISPLAY_ON = 0x88


def _no_wait(us):
    pass


class TM1637:
    def __init__(self, clk, dio, brightness=3, sleep_us=_no_wait, half_period_us=5):
        self.clk = clk
        self.dio = dio
        self.brightness = brightness & 7
        self._sleep = sleep_us
        self._half = half_period_us
        self.nacks = 0  # bytes the chip did not acknowledge (no chip, bad wiring)
        clk.value(1)
        dio.value(1)

    def _wait(self):
        self._sleep(self._half)

    def _start(self):
        self.dio.value(1)
        self.clk.value(1)
        self._wait()
        self.dio.value(0)
        self._wait()

    def _stop(self):
        self.clk.value(0)
        self._wait()
        self.dio.value(0)
        self._wait()
        self.clk.value(1)
        self._wait()
        self.dio.value(1)
        self._wait()

    def _byte(self, b):
        for i in range(8):
            self.clk.value(0)
            self.dio.value((b >> i) & 1)
            self._wait()
            self.clk.value(1)
            self._wait()
        self.clk.value(0)
        self.dio.value(1)  # release: the chip pulls DIO low to acknowledge
        self._wait()
        self.clk.value(1)
        self._wait()
        if self.dio.value():
            self.nacks += 1
        self.clk.value(0)
        self._wait()

    def _transfer(self, data):
        self._start()
        for b in data:
            self._byte(b)
        self._stop()

    def write_segments(self, segs):
        """Show raw segment bytes (up to 4) starting at the leftmost digit."""
        self._transfer((CMD_DATA_AUTO,))
        self._transfer(bytes((CMD_ADDRESS,)) + bytes(segs))
        self._transfer((CMD_DISPLAY_ON | self.brightness,))

    def show(self, text):
        """Show up to 4 characters (see tableboard.segments for the character set)."""
        self.write_segments(_encode(text))
