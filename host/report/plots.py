"""The report's plots, drawn with matplotlib's Agg canvas (no display, no pyplot state).

`game_plots(figures)` gives the figures a game has: the running total (99 games) or the cards
in each hand (UNO family), each series drawn as it is in tableref.report.series with its
markers on it. `png_bytes` renders one; the PNG carries no version stamp, so the same game
always gives the same bytes on the same matplotlib.
"""
from __future__ import annotations

import io

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .series import GameFigures, Marker

matplotlib.use("Agg")

SIZE_IN = (9.0, 3.6)
DPI = 100
SEAT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
# marker kind -> (matplotlib marker, colour, legend label)
STYLES = {
    "bust": ("X", "#d62728", "bust"),
    "elimination": ("v", "#222222", "elimination"),
    "reverse": ("D", "#1f77b4", "reverse"),
    "play2": ("^", "#2ca02c", "Play 2"),
    "draw": ("o", None, "draw"),
    "penalty": ("X", "#d62728", "penalty"),
}


def game_plots(fig: GameFigures) -> dict[str, Figure]:
    """name -> matplotlib Figure ("total" for the 99 games, "hands" for the UNO family)."""
    return {"total": total_plot(fig)} if fig.ninety_nine else {"hands": hand_counts_plot(fig)}


def _axes(title: str, ylabel: str) -> tuple[Figure, Axes]:
    figure = Figure(figsize=SIZE_IN, dpi=DPI)
    figure.subplots_adjust(left=0.07, right=0.82, top=0.9, bottom=0.14)  # fixed: no layout pass per save
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.set_title(title, loc="left", fontsize=11)
    ax.set_xlabel("journal record")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return figure, ax


def _scatter(ax: Axes, markers: list[Marker], kind: str, colour: str | None = None, label: str | None = None,
             below: float = 0.0) -> None:
    """Markers of one kind; `below` draws them that far under the point (a bust's elimination)."""
    chosen = [m for m in markers if m.kind == kind]
    if not chosen:
        return
    shape, default, name = STYLES[kind]
    ax.scatter([m.x for m in chosen], [m.y - below for m in chosen], marker=shape, s=46, zorder=3,
               color=colour or default, label=label or name, edgecolors="white", linewidths=0.5)


def total_plot(fig: GameFigures) -> Figure:
    figure, ax = _axes("Running total", "total")
    ax.plot(fig.x, fig.total, drawstyle="steps-post", color="#555555", linewidth=1.4, label="total")
    for kind in ("bust", "reverse", "play2"):
        _scatter(ax, fig.markers, kind)
    _scatter(ax, fig.markers, "elimination", below=6.0)
    ax.set_ylim(bottom=min(0, min(fig.total)) - 8, top=max(100, max(fig.total)) + 6)
    _legend(ax)
    return figure


def hand_counts_plot(fig: GameFigures) -> Figure:
    figure, ax = _axes("Cards in hand", "cards")
    for seat, (name, series) in enumerate(zip(fig.names, fig.hand_counts)):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        ax.plot(fig.x, series, drawstyle="steps-post", color=colour, linewidth=1.3, label=name)
        _scatter(ax, [m for m in fig.markers if m.seat == seat], "draw", colour, label="_nolegend_")
    _scatter(ax, fig.markers, "penalty")
    for m in fig.markers:
        if m.kind == "new_hand":
            ax.axvline(m.x, color="#999999", linestyle="--", linewidth=0.8)
    if any(m.kind == "draw" for m in fig.markers):
        ax.plot([], [], marker="o", linestyle="", color="#888888", label="draw (seat's colour)")
    ax.set_ylim(bottom=0)
    _legend(ax)
    return figure


def _legend(ax: Axes) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def png_bytes(figure: Figure) -> bytes:
    buf = io.BytesIO()
    figure.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
