"""Pile videos for the run-loop tests: a given list of cards landing one after another, or a
whole simulated game (tableref.game_script), written as a file `tableref run --source` reads."""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, replace
from typing import Any

import cv2

from tableref.actions import landed_event
from tableref.game_script import Step, TableGame, game_scene
from tableref.practice import hand_ends, shown_hands
from tableref.vision.synth.hands_shown import HandsShownScene
from tableref.referee import Referee


@dataclass
class CardsOnly:
    """What game_scene needs of a game: its header and the camera's steps."""
    header: dict[str, Any]
    steps: list[Step]


def write_video(scene: Any, path: pathlib.Path) -> pathlib.Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), scene.fps, scene.size)
    for i in range(scene.n_frames):
        writer.write(scene.frame(i))
    writer.release()
    return path


def cards_clip(folder: pathlib.Path, game: str, players: int, cards: list[str], seed: int = 1,
               size: tuple[int, int] = (640, 480)) -> pathlib.Path:
    """A video of `cards` landing on the pile in order (a flip first, for the UNO family)."""
    ref = Referee(game, players)
    steps = []
    for card in cards:
        steps.append(Step("land", card=card, event=landed_event(ref.state, card)))
        ref.push(steps[-1].event)  # type: ignore[arg-type]
    scene = game_scene(CardsOnly({"game": game, "players": players}, steps), seed, size=size)  # type: ignore[arg-type]
    return write_video(scene, folder / f"{game}_{seed}.avi")


def misread_look_alike(card: str, before: str | None, after: str | None) -> str | None:
    """Another number of the same colour than `card`, unlike the cards on either side of it."""
    colour, _, rank = card.rpartition("-")
    if not rank.isdigit():
        return None
    for step in range(1, 10):
        other = f"{colour}-{(int(rank) + step) % 10}"
        if other not in (before, after):
            return other
    return None


def game_clip(folder: pathlib.Path, tg: TableGame, seed: int, misread_from: int = 6,
              size: tuple[int, int] = (640, 480)) -> tuple[pathlib.Path, str, int | None]:
    """The video of a whole game as `tableref synth` makes it (the hands shown at the end of
    each hand, tableref.practice); from the `misread_from`-th landing on, the first number
    card is shown as another number of its colour, as a misread would give, and the longest
    hand shown is shown without its last card, as a person who forgot a card would (the
    game's truth keeps the real cards: the person corrects both). Returns the video, that
    real card and the seat whose hand lacks a card (None: no hand is shown)."""
    steps = list(tg.steps)
    lands = [i for i, s in enumerate(steps) if s.kind == "land"]
    shown = None
    for k in range(misread_from, len(lands) - 1):
        i = lands[k]
        other = misread_look_alike(steps[i].card or "", steps[lands[k - 1]].card, steps[lands[k + 1]].card)
        if other is not None:
            shown = steps[i].card
            steps[i] = replace(steps[i], card=other)
            break
    assert shown is not None, "no number card to misread"
    pile = game_scene(CardsOnly(tg.header, steps), seed, size=size, linger=hand_ends(steps))  # type: ignore[arg-type]
    hands = shown_hands(steps, pile)
    short = max(range(len(hands)), key=lambda i: len(hands[i].cards), default=None)
    if short is not None and len(hands[short].cards) > 1:
        hands[short] = replace(hands[short], cards=hands[short].cards[:-1])
    scene = HandsShownScene(pile, hands, seed)
    return (write_video(scene, folder / f"{tg.header['game']}_{seed}.avi"), shown,
            hands[short].seat if short is not None and len(hands[short].cards) > 1 else None)
