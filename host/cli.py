"""`tableref` command line: one subcommand per module, loaded only when used.

Each command module exposes `add_arguments(parser)` and `run(args) -> int`. Keeping the
table here (and the code in the modules) lets each part of the project own its command
without touching the others, and keeps `tableref --help` fast: OpenCV is only imported by
the commands that need it.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from .errors import Exit, UserError

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("tableref.demo", "play a complete built-in game with no camera and no board"),
    "run": ("tableref.app", "referee a real game: camera -> referee -> board"),
    "scenario": ("tableref.scenario_cmd", "run golden scenarios and report differing fields"),
    "replay": ("tableref.replay_cmd", "replay a game record and print the state after every event"),
    "report": ("tableref.report.cmd", "write the after-game report of a journal: plots, figures, pictures"),
    "options": ("tableref.options_cmd", "list every option of a game: default, values, meaning"),
    "simulate": ("tableref.simulate.cmd", "play a seeded simulated game and write its record"),
    "identify": ("tableref.vision.identify_cmd", "recognise the card in each image"),
    "enroll": ("tableref.vision.enroll_cmd", "teach the recogniser a physical deck"),
    "watch": ("tableref.vision.watch_cmd", "watch a pile video and report cards landing/removed"),
    "synth": ("tableref.vision.synth_cmd", "write synthetic pile clips with ground truth"),
    "ports": ("tableref.ports_cmd", "list boards found on USB serial ports"),
    "flash": ("tableref.flash_cmd", "deploy the firmware to a board with mpremote"),
    "scoreboard": ("tableref.scoreboard.cmd", "one live page for every table of a venue (MQTT), standings in SQLite"),
}


# name -> examples shown at the end of `tableref NAME --help`
EXAMPLES: dict[str, list[str]] = {
    "demo": ["tableref demo", "tableref demo --game uno --speed 1", "tableref demo --web 8080 --report demo.html"],
    "run": ["tableref run --game uno --players 3 --names Ana Bo Cy --port sim://",
            "tableref run --game uno --players 3 --source game.mp4 --port sim:// --confirm",
            "tableref run --resume                 # the newest game, where it stopped"],
    "scenario": ["tableref scenario ../shared/scenarios/*.json"],
    "replay": ["tableref replay game.jsonl", "tableref replay game.jsonl --json"],
    "report": ["tableref report game.jsonl                # game.html beside it",
               "tableref report game.jsonl --out game.html --png plots/"],
    "options": ["tableref options", "tableref options uno"],
    "simulate": ["tableref simulate --game uno --players 4 --seed 3 --out game.jsonl"],
    "identify": ["tableref identify card.jpg", "tableref identify shots/*.jpg --deck uno --json",
                 "tableref identify --all hand.jpg      # every card of a hand spread out"],
    "enroll": ["tableref enroll --deck mydeck shots/", "tableref enroll --deck mydeck camera:0 --cards uno"],
    "watch": ["tableref watch pile.mp4", "tableref watch 0 --json"],
    "synth": ["tableref synth --game uno practice/      # a whole legal game: video + input script",
              "tableref synth clips/ --clips 5 --deck ono99_2022"],
    "ports": ["tableref ports", "tableref ports --json"],
    "flash": ["tableref flash", "tableref flash --port /dev/ttyACM0 --compile"],
    "scoreboard": ["tableref scoreboard mqtt://localhost/venue --web 0.0.0.0:8099"],
}


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("tableref")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser(modules: dict[str, object] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tableref", description="Referee card games played on a real table.",
                                     epilog="examples:\n  tableref demo\n  tableref run --help",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tableref {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES.get(name, []))
        p = sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if modules is not None and name in modules:
            modules[name].add_arguments(p)  # type: ignore[attr-defined]
    return parser


def _load(name: str):
    module_name = COMMANDS[name][0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise UserError(f"command '{name}' is not available in this build") from None
        raise


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Find the subcommand first so that only its module (and its imports) load.
    name = next((a for a in argv if not a.startswith("-")), None)
    try:
        modules = {name: _load(name)} if name in COMMANDS else {}
        args = build_parser(modules).parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return Exit.USAGE
        return int(modules[args.command].run(args) or Exit.OK)
    except UserError as exc:
        print(f"tableref: error: {exc}", file=sys.stderr)
        return Exit.USAGE
    except KeyboardInterrupt:
        print("tableref: interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return Exit.OK


if __name__ == "__main__":
    sys.exit(main())
