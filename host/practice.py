"""Practice material: `tableref synth --game GAME OUT_DIR` writes the pile video of a whole
simulated game and the input script a person at the table follows while `tableref run`
watches it, so anyone can try `run` without a table (and tests can use it).

The game comes from game_script (the same search the demo uses): every card that lands is
seen by the camera; everything else (a draw, a pass, a colour, an UNO call) is a key for the
person to type, listed after the card it follows, with that card's time in the video.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

from .game_script import DEMO_SETUP, TableGame, _typed, find_game, game_scene
from .rules import GAME_IDS
from .rules.describe import describe_event

GAMES = GAME_IDS  # every game has a deck the synthetic scenes can draw


def script_steps(tg: TableGame, camera: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table step with what the person sees or does: camera steps carry the video frame
    and time at which the card has settled; keys are typed after the camera step before them."""
    out: list[dict[str, Any]] = []
    seen = 0
    frame, t = 0, 0.0
    for step in tg.steps:
        if step.kind in ("land", "remove"):
            frame, t = camera[seen]["frame"], camera[seen]["t"]
            seen += 1
            what = f"{step.card} lands on the pile" if step.kind == "land" else "the illegal card is taken back"
            out.append({"step": "camera", "frame": frame, "t": t, "what": what})
        else:
            assert step.event is not None
            out.append({"step": "key", "after_frame": frame, "t": t, "key": _typed(step.event),
                        "what": describe_event(step.event)})
    return out


def run_command(game: str, players: int, options: dict[str, Any], video: pathlib.Path) -> list[str]:
    opts = [a for k, v in sorted(options.items()) for a in ("--option", f"{k}={json.dumps(v)}")]
    return ["tableref", "run", "--game", game, "--players", str(players), *opts,
            "--source", str(video), "--port", "sim://"]


def script_text(command: list[str], steps: list[dict[str, Any]]) -> str:
    lines = ["# practice game for `tableref run`; start it with:", "#   " + " ".join(command),
             "# the camera reads the cards; type each key line when the video reaches its time",
             "# (seat numbers count from 0, clockwise)"]
    for s in steps:
        if s["step"] == "camera":
            lines.append(f"{s['t']:7.2f} s  camera  {s['what']}")
        else:
            lines.append(f"{s['t']:7.2f} s  type    {s['key']:<16} # {s['what']}")
    return "\n".join(lines) + "\n"


def write_practice(game: str, players: int, seed: int, options: dict[str, Any], out: pathlib.Path,
                   size: tuple[int, int], fps: float, fmt: str) -> dict[str, Any]:
    """Write `game_<seed>.<fmt>`, `game_<seed>.script.txt` and `game_<seed>.json` (the header,
    the steps and the referee events the game must give) into `out`; returns a summary."""
    from .vision.synth.clip_writer import write_video

    options = {**DEMO_SETUP.get(game, {}).get("options", {}), **options}
    seed, tg = find_game(game, players, options, {"winner"}, start_seed=seed, misplay_rate=0.0)
    scene = game_scene(tg, seed, size=size, fps=fps)
    video = out / f"game_{seed:04d}.{fmt}"
    write_video(scene, video)
    steps = script_steps(tg, scene.ground_truth()["events"])
    command = run_command(game, players, tg.header.get("options") or {}, video)
    script = video.with_suffix(".script.txt")
    script.write_text(script_text(command, steps))
    truth = video.with_suffix(".json")
    truth.write_text(json.dumps({"seed": seed, "header": tg.header, "run": command, "steps": steps,
                                 "events": tg.expected_events, "final": tg.sim.truth[-1]}, indent=1) + "\n")
    return {"video": str(video), "script": str(script), "truth": str(truth), "frames": scene.n_frames,
            "cards": sum(1 for s in steps if s["step"] == "camera"), "keys": sum(1 for s in steps if s["step"] == "key")}
