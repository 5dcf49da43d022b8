"""The real parts on an rp2/esp32 board: NeoPixel ring, our TM1637 driver, PWM buzzer,
buttons to GND with pull-ups. Pin numbers and limits come from config.py."""
import time

from machine import PWM, Pin
from neopixel import NeoPixel

from tableboard.tm1637 import TM1637
from tableboard.tones import ToneSequencer

BUTTON_PINS = (("DRAW", "btn_draw"), ("PASS", "btn_pass"), ("UNDO", "btn_undo"),
               ("COLOUR", "btn_colour"))


class Ring:
    """Logical pixel i (0 at seat 0, clockwise) -> physical pixel, per config.RING_*."""

    def __init__(self, pin, pixels, first=0, clockwise=True):
        self.np = NeoPixel(Pin(pin, Pin.OUT), pixels)
        self.pixels = pixels
        self.first = first
        self.clockwise = clockwise

    def write(self, colours):
        n = self.pixels
        for i in range(n):
            j = (self.first + i) % n if self.clockwise else (self.first - i) % n
            self.np[j] = colours[i]
        self.np.write()


class Buzzer:
    def __init__(self, pin):
        self.pwm = PWM(Pin(pin, Pin.OUT))
        self.pwm.duty_u16(0)
        self.freq = 0

    def play(self, freq):
        if freq == self.freq:
            return
        self.freq = freq
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)  # 50 %: the loudest square wave for a piezo
        else:
            self.pwm.duty_u16(0)


class BoardHardware:
    def __init__(self, cfg):
        pins = cfg.pins()
        self.ring = Ring(pins["ring"], cfg.PIXELS, cfg.RING_FIRST_PIXEL, cfg.RING_CLOCKWISE)
        self.display = TM1637(Pin(pins["tm1637_clk"], Pin.OPEN_DRAIN, value=1),
                              Pin(pins["tm1637_dio"], Pin.OPEN_DRAIN, value=1),
                              brightness=cfg.TM1637_BRIGHTNESS,
                              sleep_us=time.sleep_us)
        self.buzzer = Buzzer(pins["buzzer"])
        self.buttons = {}
        for name, key in BUTTON_PINS:
            self.buttons[name] = Pin(pins[key], Pin.IN, Pin.PULL_UP)
        self.tones = ToneSequencer()
        self._digits = None
        self._ring = None

    def pressed(self, name):
        return self.buttons[name].value() == 0  # wired to GND

    def any_pressed(self):
        for name in self.buttons:
            if self.pressed(name):
                return name
        return None

    def show(self, now, digits, ring, lost, snap, tone):
        if digits != self._digits:
            self._digits = digits
            self.display.show(digits)
        if ring != self._ring:
            self._ring = ring
            self.ring.write(ring)
        if tone is not None:
            self.tones.start(tone, now)

    def service(self, now):
        self.buzzer.play(self.tones.freq(now))

    def off(self):
        self.buzzer.play(0)
        self.ring.write([(0, 0, 0)] * self.ring.pixels)
        self.display.show("    ")
