# Board configuration: pins, pixel count, brightness cap and timings.
# The hardware README's pin table, the Wokwi diagram and this file must agree
# (tests/hardware checks it). Plain dicts so the same file loads on CPython.
import sys

# GPIO numbers. Buttons are wired to GND and use the internal pull-ups (pressed = 0).
PINS = {
    "rp2": {  # Raspberry Pi Pico / Pico W
        "ring": 16,        # WS2812 data in (through the ring's DIN)
        "tm1637_clk": 2,
        "tm1637_dio": 3,
        "buzzer": 15,      # PWM, drives the piezo through an NPN transistor
        "btn_draw": 10,
        "btn_pass": 11,
        "btn_undo": 12,
        "btn_colour": 13,
    },
    "esp32": {  # ESP32 DevKit (WROOM-32); avoids strapping and input-only pins
        "ring": 13,
        "tm1637_clk": 18,
        "tm1637_dio": 19,
        "buzzer": 25,
        "btn_draw": 32,
        "btn_pass": 33,
        "btn_undo": 26,
        "btn_colour": 27,
    },
}

PIXELS = 12              # 12, 16 or 24 pixel ring
# Cap on every colour channel (0-255). Keeps a 24-pixel ring at full white under
# 24 * 60 mA * 64/255 = 361 mA, inside USB's 500 mA with the Pico's own draw.
BRIGHTNESS_CAP = 64
PIXEL_MA_FULL_WHITE = 60  # WS2812 datasheet: about 20 mA per channel at 255

# Added by firmware (new keys only): where seat 0 sits on the physical ring and which way
# the pixel index runs when the ring is seen from above (tablelink.show draws pixel 0 at
# seat 0, clockwise); and the TM1637's own brightness step (0-7).
RING_FIRST_PIXEL = 0
RING_CLOCKWISE = True
TM1637_BRIGHTNESS = 3

DEBOUNCE_MS = 30
LONG_PRESS_MS = 800
LINK_TIMEOUT_MS = 3000   # no valid frame from the host for this long -> "LOSt"
HEARTBEAT_MS = 1000
BAUD = 115200            # ignored by USB CDC; used by UART links


def board():
    """The board name for the running port: 'rp2', 'esp32', or 'unix' (simulated hardware)."""
    if sys.platform in PINS:
        return sys.platform
    return "unix"


def pins():
    return PINS.get(board(), PINS["rp2"])
