"""Characters -> 7-segment patterns (bit 0 = segment a ... bit 6 = g, bit 7 = the colon/dp),
the bit order the TM1637 expects. Covers every text tablelink.show produces. '+' has no true
7-segment form: it is drawn as e+f+g (a left-hand tee). 'I' is the left-hand bar (e+f), so it
differs from '1' (b+c). Unknown characters show blank."""

_SEG = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E, "E": 0x79, "F": 0x71, "G": 0x3D,
    "H": 0x76, "h": 0x74, "I": 0x30, "L": 0x38, "n": 0x54, "O": 0x3F, "o": 0x5C, "P": 0x73, "r": 0x50,
    "S": 0x6D, "t": 0x78, "U": 0x3E, "u": 0x1C, "y": 0x6E, "-": 0x40, "+": 0x70, " ": 0x00, "_": 0x08,
}


def known(ch):
    return ch in _SEG or ch.upper() in _SEG or ch.lower() in _SEG


def segment(ch):
    s = _SEG.get(ch)
    if s is None:
        s = _SEG.get(ch.upper(), _SEG.get(ch.lower(), 0))
    return s


def encode(text, width=4):
    """Segment bytes for `text`, padded/cut to `width` characters."""
    text = (text + " " * width)[:width]
    return bytes(segment(ch) for ch in text)
