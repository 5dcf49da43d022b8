"""A pile video of a whole simulated game, with its ground truth, for the end-to-end tests."""
from __future__ import annotations

import json
import pathlib
from typing import Any

import cv2

from tableref.game_script import TableGame, find_game, game_scene

# a three-player ONO 99 (2022) game that the camera alone can referee: every input is a card
# landing or an illegal card taken back (eliminations come from bust cards), so no button
# press has to be timed against the video
GAME = "ono99_2022"
PLAYERS = 3
FEATURES = {"illegal_taken_back", "elimination", "winner"}


def camera_only(tg: TableGame) -> bool:
    return all(s.kind in ("land", "remove") for s in tg.steps)


def make_clip(folder: pathlib.Path, size: tuple[int, int] = (800, 600)) -> dict[str, Any]:
    seed, tg = find_game(GAME, PLAYERS, {}, FEATURES, misplay_rate=0.2, max_landings=30, accept=camera_only)
    scene = game_scene(tg, seed, size=size)
    path = folder / f"game_{seed}.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), scene.fps, scene.size)
    for i in range(scene.n_frames):
        writer.write(scene.frame(i))
    writer.release()
    truth = {"seed": seed, "header": tg.header, "camera": scene.ground_truth()["events"],
             "events": tg.expected_events, "final": tg.sim.truth[-1], "frames": scene.n_frames}
    (folder / "truth.json").write_text(json.dumps(truth))
    return {"video": path, **truth}
