"""The after-game report (`tableref report`): a game's journal replayed by the referee, drawn
and written as one self-contained HTML page.

series.py   pure: the journal replayed into series, markers and per-player figures
reasons.py  the spec's illegal-event reason codes in words
plots.py    matplotlib (Agg) figures of the series, as PNG bytes
html.py     the HTML page (pictures and plots inlined as data: URIs)
cmd.py      the command: read, replay, plot, write; every bad input one clear line
"""
