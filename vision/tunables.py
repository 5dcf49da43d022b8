"""A tunables object (a frozen config dataclass: WatcherConfig, RecogniserConfig,
SpreadConfig) changed by "FIELD=VALUE" strings, as the evaluation tools' `--set` takes them:
a sweep changes a tunable on the command line, not by editing the code, and the command in a
note reproduces the figure.

A field whose default is itself such an object is reached by a dotted name ("motion.settled_reach",
"scan.sure"); a pair is written "a,b"; a yes/no field true/false (bool("false") would be
True). The value's type is the default's.
"""
from __future__ import annotations

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


def _parsed(text: str, default: Any) -> Any:
    """`text` as a value of the default's type; ValueError if it is not one."""
    if isinstance(default, bool):
        if text.lower() not in _YES + _NO:
            raise ValueError(text)
        return text.lower() in _YES
    if isinstance(default, tuple):
        parts = [type(d)(v) for d, v in zip(default, text.split(","))]
        if len(parts) != len(default) or text.count(",") != len(default) - 1:
            raise ValueError(text)
        return tuple(parts)
    if default is None:
        raise ValueError(text)  # no type to read it as
    return type(default)(text)


def with_settings(config: T, settings: Iterable[str]) -> T:
    """`config` with each "FIELD=VALUE" of `settings` set. ValueError, one line naming the
    settable fields, where a field is unknown; naming the type where a value does not parse."""
    changes: dict[str, str] = {}
    for item in settings:
        name, eq, value = item.partition("=")
        if not eq or not value or name not in settable(config):
            raise ValueError(f"--set {item!r}: expected FIELD=VALUE, FIELD one of {', '.join(settable(config))}")
        changes[name] = value
    return _changed(config, changes, item_of={name: f"{name}={value}" for name, value in changes.items()})


def _changed(config: T, changes: dict[str, str], item_of: dict[str, str], prefix: str = "") -> T:
    here: dict[str, Any] = {}
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            inner = {k: v for k, v in changes.items() if k.startswith(f"{prefix}{f.name}.")}
            if inner:
                here[f.name] = _changed(value, inner, item_of, f"{prefix}{f.name}.")
        elif prefix + f.name in changes:
            text = changes[prefix + f.name]
            try:
                here[f.name] = _parsed(text, value)
            except ValueError:
                kind = "pair a,b" if isinstance(value, tuple) and len(value) == 2 else \
                    f"{len(value)} numbers a,b,..." if isinstance(value, tuple) else \
                    "bool (true or false)" if isinstance(value, bool) else type(value).__name__
                raise ValueError(f"--set {item_of[prefix + f.name]!r}: {text!r} is not a valid {kind}") from None
    return dataclasses.replace(config, **here) if here else config  # type: ignore[type-var]


__all__ = ["settable", "with_settings"]
