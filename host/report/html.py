"""The report as one self-contained HTML page: plots and pictures are inlined as data: URIs,
the style is inline, nothing is fetched from the network. Pure: figures and bytes in, text out.

Elements carry data- attributes (record index, reason, picture name, seat) so that a program
can check the page against the journal as well as a person can read it.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from html import escape
from statistics import mean

from ..evidence import picture_name
from ..rules import ruleset_class
from .series import GameFigures, Incident, PlayerFigures

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1000px;padding:0 1em;color:#222}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}.note{background:#fff6d6;padding:.4em .8em;border-radius:4px}
.incident{border:1px solid #ddd;border-radius:6px;padding:.6em .9em;margin:.8em 0}
.incident.illegal{border-left:5px solid #d62728}.incident.undo,.incident.typed{border-left:5px solid #1f77b4}
figure{display:inline-block;margin:.3em .8em .3em 0}figcaption{font-size:.8em;color:#666}
.missing{display:inline-block;padding:2em 1em;border:1px dashed #d62728;color:#d62728;font-size:.85em}
.piles img{margin:2px}.winner{font-weight:bold}
"""


@dataclass
class Pictures:
    """The evidence pictures found for the report, and those it expected but did not find."""
    folder: str
    exists: bool
    found: dict[str, bytes] = field(default_factory=dict)   # file name -> JPEG bytes
    missing: list[str] = field(default_factory=list)
    piles: list[tuple[int, str]] = field(default_factory=list)  # (record index, file name) of pile thumbnails
    asked: list[tuple[int, str]] = field(default_factory=list)  # ... of cards the table was asked about


def data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def report_html(fig: GameFigures, plots: dict[str, bytes], pictures: Pictures, journal_name: str) -> str:
    title = ruleset_class(fig.game).title
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}: after the game"
             f"</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}: after the game</h1>",
             f"<p>{len(fig.names)} players, {fig.records} journal records ({escape(journal_name)}). {_result(fig)}</p>"]
    parts += _notes(fig, pictures)
    parts.append("<h2>Over the game</h2>")
    for name, png in plots.items():
        parts.append(f"<p><img data-plot='{escape(name)}' alt='{escape(name)} plot' src='{data_uri('image/png', png)}'></p>")
    parts += _players(fig)
    parts += _hands(fig)
    parts += _incidents(fig, pictures)
    parts += _asked(fig, pictures)
    if pictures.piles:
        parts.append("<h2>The pile, card by card</h2><p class='piles'>")
        parts += [f"<img data-picture='{escape(n)}' title='record {i}' alt='pile after record {i}' "
                  f"src='{data_uri('image/jpeg', pictures.found[n])}'>" for i, n in pictures.piles if n in pictures.found]
        parts.append("</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _result(fig: GameFigures) -> str:
    if fig.winner is not None:
        return f"<span class='winner' data-winner='{fig.winner}'>Winner: {escape(fig.who(fig.winner))}.</span>"
    return "The game is over without a winner." if fig.game_over else "The journal stops before the game ended."


def _notes(fig: GameFigures, pictures: Pictures) -> list[str]:
    if not pictures.exists:
        if not any(i.pictures for i in fig.incidents):
            return []
        return [f"<p class='note' data-missing='folder'>No evidence folder {escape(pictures.folder)}: "
                "this game was recorded without pictures, so none are shown.</p>"]
    if not pictures.missing:
        return []
    names = ", ".join(escape(n) for n in pictures.missing)
    return [f"<p class='note' data-missing='{len(pictures.missing)}'>{len(pictures.missing)} evidence "
            f"picture{'s' if len(pictures.missing) != 1 else ''} missing from {escape(pictures.folder)}: {names}</p>"]


def _players(fig: GameFigures) -> list[str]:
    rows = ["<h2>Players</h2><table><tr><th>player</th><th>cards played</th><th>illegal plays</th><th>by reason</th>"
            "<th>cards drawn</th><th>of which penalties</th><th>penalty cards given</th><th>calls</th><th>catches</th>"
            "<th>caught</th><th>turns timed</th><th>mean s/turn</th><th>longest s</th></tr>"]
    for seat, p in enumerate(fig.players):
        rows.append(f"<tr data-seat='{seat}'><td>{escape(p.name)}</td>" + "".join(
            f"<td data-figure='{key}'>{escape(str(value))}</td>" for key, value in _player_cells(p)) + "</tr>")
    rows.append("</table>")
    return rows


def _player_cells(p: PlayerFigures) -> list[tuple[str, object]]:
    reasons = ", ".join(f"{r} {n}" for r, n in sorted(p.illegal.items())) or "-"
    times = p.turn_times
    return [("cards_played", p.cards_played), ("illegal", sum(p.illegal.values())), ("reasons", reasons),
            ("drawn", p.drawn), ("penalty_drawn", p.penalty_drawn), ("penalties", p.penalties), ("calls", p.calls),
            ("catches", p.catches), ("caught", p.caught), ("turns_timed", len(times)),
            ("mean_turn_s", f"{mean(times):.1f}" if times else "-"), ("longest_turn_s", f"{max(times):.1f}" if times else "-")]


def _hands(fig: GameFigures) -> list[str]:
    if not fig.hands:
        return []
    if fig.ninety_nine:
        classic = ruleset_class(fig.game).token_hands  # hands and tokens; ONO 99 (2022) is one hand, seats go out
        head = f"<tr><th>{'hand' if classic else 'out'}</th><th>record</th><th>lost by</th><th>total</th>" + (
            "<th>tokens after</th>" if classic else "") + "</tr>"
        rows = [f"<tr data-hand='{h.number}'><td>{h.number if classic else n + 1}</td><td>{h.ended_at}</td>"
                f"<td>{escape(fig.who(h.loser))}</td><td>{h.total}</td>"
                + (f"<td>{'/'.join(map(str, h.scores))}</td>" if classic else "") + "</tr>" for n, h in enumerate(fig.hands)]
        title = "Hands lost" if classic else "Eliminations"
    else:
        head = "<tr><th>hand</th><th>won by</th>" + "".join(f"<th>{escape(n)}</th>" for n in fig.names) + "</tr>"
        rows = [f"<tr data-hand='{h.number}'><td>{h.number}</td><td>{escape(fig.who(h.winner))}</td>" + "".join(
            f"<td>+{pt} = {sc}</td>" for pt, sc in zip(h.points, h.scores)) + "</tr>" for h in fig.hands]
        title = "Scores per hand"
    return [f"<h2>{title}</h2><table>{head}", *rows, "</table>", f"<p>{_result(fig)}</p>"]


def _incidents(fig: GameFigures, pictures: Pictures) -> list[str]:
    flagged = [i for i in fig.incidents if i.kind == "illegal"]
    fixed = [i for i in fig.incidents if i.kind != "illegal"]
    out = [f"<h2>Illegal plays ({len(flagged)})</h2>"] + [_incident(fig, i, pictures) for i in flagged]
    if not flagged:
        out.append("<p>None: every play was legal.</p>")
    out.append(f"<h2>Corrections ({len(fixed)})</h2>")
    out += [_incident(fig, i, pictures) for i in fixed] or ["<p>None: the camera's readings stood.</p>"]
    return out


def _asked(fig: GameFigures, pictures: Pictures) -> list[str]:
    """Cards the camera could not read and then read itself (typed answers are corrections above)."""
    shown = {i.index for i in fig.incidents if "asked" in i.pictures}
    rest = [(i, n) for i, n in pictures.asked if i not in shown]
    if not rest:
        return []
    return [f"<h2>Cards the camera asked about, then read ({len(rest)})</h2><p>"] + [
        f"<figure><img data-picture='{escape(n)}' alt='asked' src='{data_uri('image/jpeg', pictures.found[n])}'>"
        f"<figcaption>before record {i}</figcaption></figure>" for i, n in rest] + ["</p>"]


def _incident(fig: GameFigures, inc: Incident, pictures: Pictures) -> str:
    head = f"<b>record {inc.index}</b>: {escape(inc.what)}"
    lines = [f"<div class='incident {inc.kind}' data-index='{inc.index}' data-kind='{inc.kind}'"
             + (f" data-reason='{escape(inc.reason)}'" if inc.reason else "") + f"><p>{head}</p>"]
    if inc.reason:
        lines.append(f"<p>Rule broken ({escape(inc.reason)}): {escape(inc.rule)}.</p>")
    lines.append(f"<p>The referee: {escape(inc.action)}.</p>")
    for kind in inc.pictures:
        name = picture_name(inc.index, kind)
        if name in pictures.found:
            lines.append(f"<figure><img data-picture='{escape(name)}' alt='{kind}' "
                         f"src='{data_uri('image/jpeg', pictures.found[name])}'><figcaption>{kind}</figcaption></figure>")
        elif pictures.exists:
            lines.append(f"<span class='missing' data-missing-picture='{escape(name)}'>{escape(name)} missing</span>")
    lines.append("</div>")
    return "".join(lines)
