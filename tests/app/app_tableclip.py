"""Pile videos for the run-loop tests: a given list of cards landing one after another, or a
whole simulated game (tableref.game_script), written as a file `tableref run --source` reads."""
from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any

import cv2

from tableref.actions import landed_event
from tableref.game_script import Step, game_scene
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
