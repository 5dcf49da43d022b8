"""A tunables object (a frozen config dataclass: WatcherConfig, RecogniserConfig,
SpreadConfig) changed by "FIELD=VALUE" strings, as the evaluation tools' `--set` takes them:
a sweep changes a tunable on the command line, not by editing the code, and the command in a
note reproduces the figure.

A field whose default is itself such an object is reached by a dotted name ("motion.settled_reach",
"scan.sure"); a pair is written "a,b"; a yes/no field true/false (bool("false") would be
True). The value's type is the default's.
"""
from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Iterable, TypeVar

T = TypeVar("T")

_YES, _NO = ("true", "yes", "1"), ("false", "no", "0")


def settable(config: Any, prefix: str = "") -> list[str]:
    """The names `with_settings` takes for `config`, nested ones dotted."""
    names: list[str] = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            names += settable(value, f"{prefix}{f.name}.")
        else:
            names.append(prefix + f.name)
    return names


def _kind(default: Any) -> str:
    """What a value for a field with this default is written as, for an error."""
    if isinstance(default, bool):
        return "bool (true or false)"
    if isinstance(default, tuple):
        return "pair a,b" if len(default) == 2 else f"{len(default)} numbers a,b,..."
    return type(default).__name__


def _parsed(text: str, default: Any) -> Any:
    """`text` as a value of the default's type; ValueError if it is not one."""
    if isinstance(default, bool):
        if text.lower() not in _YES + _NO:
            raise ValueError(text)
        return text.lower() in _YES
    if isinstance(default, tuple):
        parts = text.split(",")
        if len(parts) != len(default):
            raise ValueError(text)
        return tuple(type(d)(v) for d, v in zip(default, parts))
    return type(default)(text)


def _with(config: T, path: list[str], text: str) -> T:
    """`config` with the field at `path` (a nested object's field after its name) read from
    `text`; ValueError naming what the value is written as where it does not parse."""
    value = getattr(config, path[0])
    if len(path) > 1:
        new = _with(value, path[1:], text)
    else:
        try:
            new = _parsed(text, value)
        except (TypeError, ValueError):  # TypeError: a field whose default (None) has no type to read it as
            raise ValueError(_kind(value)) from None
    return dataclasses.replace(config, **{path[0]: new})  # type: ignore[type-var]


def with_settings(config: T, settings: Iterable[str]) -> T:
    """`config` with each "FIELD=VALUE" of `settings` set. ValueError, one line naming the
    settable fields, where a field is unknown; naming the type where a value does not parse."""
    names = settable(config)
    for item in settings:
        name, eq, text = item.partition("=")
        if not eq or not text or name not in names:
            raise ValueError(f"--set {item!r}: expected FIELD=VALUE, FIELD one of {', '.join(names)}")
        try:
            config = _with(config, name.split("."), text)
        except ValueError as kind:
            raise ValueError(f"--set {item!r}: {text!r} is not a valid {kind}") from None
    return config


def add_set_argument(parser: argparse.ArgumentParser, config: str, example: str) -> None:
    """The evaluation tools' `--set FIELD=VALUE ...` (for with_settings), changing fields of
    the tunables object named `config` in its help, with an `example`."""
    parser.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE",
                        help=f"change a field of {config} (e.g. {example})")


__all__ = ["add_set_argument", "settable", "with_settings"]
