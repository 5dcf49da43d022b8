"""settled_change and chroma_change: what counts as a change of the pile between two still views."""
from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.motion import MotionConfig, Normaliser, chroma_change, settled_change


def _views(ref_bgr: np.ndarray, cur_bgr: np.ndarray):
    norm = Normaliser((ref_bgr.shape[1], ref_bgr.shape[0]), MotionConfig(work_width=ref_bgr.shape[1]))
    return norm(cur_bgr), norm(ref_bgr)


def _changed(ref_bgr: np.ndarray, cur_bgr: np.ndarray) -> np.ndarray:
    cur, ref = _views(ref_bgr, cur_bgr)
    return settled_change(cur.ratio, ref.ratio, cur.small, ref.small, MotionConfig().diff_threshold) > 0


@pytest.mark.parametrize("skin", [(140, 170, 215), (180, 200, 235)])  # BGR; the second pale
def test_a_hand_on_a_table_that_was_clipped_white_is_a_change(skin: tuple[int, int, int]) -> None:
    ref = np.full((90, 160, 3), 255, np.uint8)          # over-exposed white table
    cur = np.full((90, 160, 3), 200, np.uint8)          # the same table, exposure settled
    cur[40:90, 60:100] = skin                           # a hand from the edge
    changed = _changed(ref, cur)
    assert changed[50:90, 65:95].mean() > 0.9           # the hand's flat inside counts too
    assert changed[:, :50].mean() < 0.01 and changed[:30].mean() < 0.01  # the grey table does not


def test_a_warm_lamp_on_a_clipped_table_is_not_a_change() -> None:
    ref = np.full((90, 160, 3), 255, np.uint8)
    cur = np.full((90, 160, 3), (190, 205, 215), np.uint8)  # the white table under a warm lamp
    assert _changed(ref, cur).mean() < 0.01


def test_a_grey_shadow_on_a_clipped_table_is_not_a_change() -> None:
    ref = np.full((90, 160, 3), 255, np.uint8)
    cur = np.full((90, 160, 3), 215, np.uint8)
    cur[30:70, 40:120] = 150                             # a soft grey shadow
    assert _changed(ref, cur)[35:65, 45:115].mean() < 0.05


def _table() -> np.ndarray:
    return np.full((90, 160, 3), (200, 205, 210), np.uint8)   # a plain light table


def test_a_flat_hand_on_a_plain_table_changes_colour_all_over() -> None:
    cur = _table()
    cur[40:90, 60:100] = (150, 180, 225)                 # pale skin, as bright as the table
    changed = chroma_change(cur, _table(), MotionConfig().chroma_threshold) > 0
    assert changed[40:90, 60:100].mean() > 0.95
    assert changed[:, :55].mean() == 0


def test_light_shadow_and_a_lamp_tint_do_not_change_colour() -> None:
    ref = _table()
    darker = (ref * 0.6).astype(np.uint8)
    shadow = ref.copy()
    shadow[20:70, 30:130] = (ref[20:70, 30:130] * 0.7).astype(np.uint8)
    tinted = np.clip(ref * np.array([1.07, 1.0, 0.93]), 0, 255).astype(np.uint8)
    for cur in (darker, shadow, tinted):
        assert not chroma_change(cur, ref, MotionConfig().chroma_threshold).any()


def test_colour_is_not_judged_where_either_view_is_clipped() -> None:
    ref = np.full((10, 10, 3), 255, np.uint8)
    cur = np.full((10, 10, 3), (150, 180, 225), np.uint8)
    assert not chroma_change(cur, ref, MotionConfig().chroma_threshold).any()
