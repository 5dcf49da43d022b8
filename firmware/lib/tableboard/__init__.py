"""tableboard: the board app. Pure modules (debounce, tones, segments, tm1637 over any pin
objects) never import `machine`; `hardware` wraps the real parts, `simhw` simulates them on
the unix port; `app` runs the link and the display; `boot` picks the port and starts it."""

FW_VERSION = "0.1.0"
