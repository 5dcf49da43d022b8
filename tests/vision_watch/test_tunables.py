"""The evaluation tools' --set: a tunables object changed by FIELD=VALUE (vision/tunables.py)."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from tableref.vision.spread_read import SpreadConfig
from tableref.vision.tunables import settable, with_settings
from tableref.vision.watch_config import WatcherConfig

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_fields_are_set_with_the_defaults_types_nested_ones_by_a_dotted_name() -> None:
    base = WatcherConfig()
    got = with_settings(base, ["settle_s=0.06", "motion.settled_reach=2", "bearings=false", "look_frames=3"])
    assert got.settle_s == 0.06 and got.look_frames == 3 and isinstance(got.look_frames, int)
    assert got.motion.settled_reach == 2 and type(got.motion.settled_reach) is type(base.motion.settled_reach)
    assert got.bearings is False  # not bool("false")
    assert got.motion.work_width == base.motion.work_width and got.history == base.history
    assert base.settle_s == WatcherConfig().settle_s  # the object given is left as it was
    assert with_settings(base, []) == base


def test_a_pair_is_written_with_a_comma_and_a_nested_default_is_reached_inside() -> None:
    got = with_settings(SpreadConfig(), ["size_spread=0.7,1.5", "scan.sure=0.9"])
    assert got.size_spread == (0.7, 1.5) and got.scan is not None and got.scan.sure == 0.9
    assert "scan.sure" in settable(SpreadConfig()) and "scan" not in settable(SpreadConfig())


@pytest.mark.parametrize("item, says", [
    ("nope=1", "FIELD one of"), ("settle_s", "FIELD one of"), ("settle_s=", "FIELD one of"),
    ("settle_s=soon", "not a valid float"), ("look_frames=1.5", "not a valid int"),
    ("bearings=maybe", "not a valid bool"), ("motion=3", "FIELD one of"),
])
def test_a_bad_setting_is_one_line_naming_what_would_do(item: str, says: str) -> None:
    with pytest.raises(ValueError) as err:
        with_settings(WatcherConfig(), [item])
    text = str(err.value)
    assert says in text and "\n" not in text and repr(item) in text
    if "FIELD one of" in text:
        assert "motion.settled_reach" in text and "look_frames" in text


def test_a_pair_needs_both_numbers() -> None:
    for bad in ("size_spread=0.7", "size_spread=0.7,1.5,2"):
        with pytest.raises(ValueError, match="not a valid pair a,b"):
            with_settings(SpreadConfig(), [bad])


def test_the_clip_tool_refuses_a_bad_setting_before_any_clip_is_made() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "other_clips.py"), "--clips", "1",
                          "--set", "settle_s=soon"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "'soon' is not a valid float" in run.stderr.strip().splitlines()[-1]
    assert "Traceback" not in run.stderr and not run.stdout.strip()


def test_a_field_left_none_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="is not a valid NoneType"):
        with_settings(SpreadConfig(scan=None), ["scan=0.9"])
