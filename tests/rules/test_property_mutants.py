"""The property test can fail: it catches an engine that still reads C21 or C22 the old way.

Each mutant is the engine's own method with one statement put back as it was before spec 1.2
(rewritten from the method's source, so the rest of the engine is the real one); the
simulator-against-referee property of test_property.py must then report a disagreement on
the field that clarification is about.
"""
from __future__ import annotations

import inspect
import sys
import textwrap
from typing import Any

import pytest

from tableref.rules.uno import UnoRules

from test_property import check_property


def old_reading(monkeypatch: pytest.MonkeyPatch, cls: type, name: str, new: str,
                old: str) -> None:
    """Replace cls.name by its source with `new` put back to `old` (for this test only)."""
    source = textwrap.dedent(inspect.getsource(getattr(cls, name)))
    assert source.count(new) == 1, f"{cls.__name__}.{name} no longer contains {new!r}"
    scope: dict[str, Any] = dict(vars(sys.modules[cls.__module__]))
    exec(compile(source.replace(new, old), f"<old {name}>", "exec"), scope)
    monkeypatch.setattr(cls, name, scope[name])


MUTANTS = {
    # C21: a turn draw under draw-until-playable listed play_or_pass
    "C21": ("uno_no_mercy", "on_draw", "if not self.must_play_drawn():", "if True:",
            "awaiting"),
    # C22: winner_collects ended the game as soon as the tally passed the target
    "C22": ("uno", "check_game_end", "if any(a != w and a not in st.revealed",
            'if scoring == "cumulative_low" and any(a != w and a not in st.revealed',
            "game_over"),
}


@pytest.mark.parametrize("clarification", list(MUTANTS))
def test_property_catches_the_old_reading(clarification: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    game, method, new, old, field = MUTANTS[clarification]
    old_reading(monkeypatch, UnoRules, method, new, old)
    with pytest.raises(pytest.fail.Exception) as failed:
        check_property(game)
    assert f"  {field}: simulator" in str(failed.value)
