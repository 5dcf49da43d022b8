"""Card codes of spec/rules.md 1.4: parsing, the card set of each game, and UNO points.

Codes are plain strings everywhere (they go straight into JSON records); this module only
answers questions about them. Results are cached in small dicts because the referee asks the
same few questions about the same ~60 codes millions of times in the benchmarks.
"""
from __future__ import annotations

from typing import NamedTuple

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")

# --- 99 games -------------------------------------------------------------------------------

NUMBER_CODES_99 = tuple(f"num-{v}" for v in range(0, 11))
CLASSIC_DECK: tuple[str, ...] = tuple(f"num-{v}" for v in range(2, 11)) + (
    "minus10", "hold", "reverse", "double_play", "ono99")
ONO2022_DECK: tuple[str, ...] = NUMBER_CODES_99 + ("minus10", "reverse", "play2", "ono99")
# Codes accepted by each 99 game. Number values outside the printed deck are still
# well-defined (value = face), so they are accepted; only the other game's action cards are not.
CLASSIC_CODES = frozenset(NUMBER_CODES_99 + ("minus10", "hold", "reverse", "double_play", "ono99"))
ONO2022_CODES = frozenset(ONO2022_DECK)


def number_value(code: str) -> int | None:
    """Face value of a 99-game number card, None for any other code."""
    if code.startswith("num-"):
        return int(code[4:])
    return None


# --- UNO family -----------------------------------------------------------------------------

UNO_RANKS = tuple(str(v) for v in range(10)) + ("skip", "reverse", "draw2")
NO_MERCY_RANKS = UNO_RANKS + ("draw4", "skip_all", "discard_all")
UNO_SPECIAL_WILDS = ("wild_shuffle_hands", "wild_swap_hands", "wild_custom")
UNO_WILDS = ("wild", "wild_draw4") + UNO_SPECIAL_WILDS
NO_MERCY_WILDS = ("wild_reverse_draw4", "wild_draw6", "wild_draw10", "wild_color_roulette")

UNO_DECK_WILDS: dict[str, tuple[str, ...]] = {
    "108": ("wild", "wild_draw4"),
    "112_blank": ("wild", "wild_draw4", "wild_custom"),
    "112_swap": ("wild", "wild_draw4", "wild_swap_hands", "wild_custom"),
    "112_shuffle": ("wild", "wild_draw4", "wild_shuffle_hands", "wild_custom"),
}

UNO_COLOURED = tuple(f"{c}-{r}" for c in COLOURS for r in UNO_RANKS)
NO_MERCY_COLOURED = tuple(f"{c}-{r}" for c in COLOURS for r in NO_MERCY_RANKS)
UNO_CODES = frozenset(UNO_COLOURED + UNO_WILDS)
NO_MERCY_CODES = frozenset(NO_MERCY_COLOURED + NO_MERCY_WILDS)

# Draw value of every draw card (stacking adds these up).
DRAW_VALUES: dict[str, int] = {
    "draw2": 2, "draw4": 4, "wild_draw4": 4, "wild_reverse_draw4": 4,
    "wild_draw6": 6, "wild_draw10": 10,
}


class UnoCard(NamedTuple):
    code: str
    colour: str | None  # None for wilds
    rank: str           # "0".."9", "skip", ..., or the wild's code


_PARSED: dict[str, UnoCard] = {}


def parse_uno(code: str) -> UnoCard:
    """Split an UNO-family code (already validated) into colour and rank."""
    card = _PARSED.get(code)
    if card is None:
        colour, sep, rank = code.partition("-")
        card = UnoCard(code, colour, rank) if sep else UnoCard(code, None, code)
        _PARSED[code] = card
    return card


def is_number_rank(rank: str) -> bool:
    return len(rank) == 1 and rank.isdigit()


def draw_value(rank: str) -> int:
    """Cards this card makes the victim draw (0 for a card that is not a draw card)."""
    return DRAW_VALUES.get(rank, 0)


def uno_points(code: str) -> int:
    """Scoring value (spec 5.5): numbers face value, coloured actions 20, wilds 50, special 40."""
    card = parse_uno(code)
    if card.colour is not None:
        return int(card.rank) if is_number_rank(card.rank) else 20
    if code in UNO_SPECIAL_WILDS:
        return 40
    return 50


def uno_card_set(deck: str = "108") -> tuple[str, ...]:
    """Codes of the cards an UNO deck holds (used by legal_cards, sorted)."""
    return tuple(sorted(UNO_COLOURED + UNO_DECK_WILDS.get(deck, UNO_DECK_WILDS["108"])))
