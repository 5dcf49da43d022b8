"""Accuracy on the real dev photos (../shared/data/photos; skipped when absent). These are
regression floors a little below the measured figures (tools/eval_photos.py prints the real
table; the targets are 95 % LOSO and 99 % enrolment)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def loso(photos, eval_photos_module):
    return eval_photos_module.run_loso(photos)


def test_leave_one_source_out(loso) -> None:
    # measured 97.9 % (412/421); target 95 %
    assert loso >= 0.93


def test_builtin_profile_alone(photos, eval_photos_module) -> None:
    # no photo used for anything: renders only; measured 97.4 % (auto), 97.9 % (--deck uno);
    # over render seeds 1234, 1, 2, 3 (eval_photos --profile-seeds) the mean is 94.9 % (auto)
    # and 97.3 % (--deck uno)
    assert eval_photos_module.run_builtin(photos, "auto") >= 0.9


def test_enrolment(photos, eval_photos_module) -> None:
    enrol, test = eval_photos_module.enrol_split(photos)
    assert enrol and test
    assert eval_photos_module.run_enroll(photos) >= ENROL_FLOOR  # also prints the set1 -> set2 figure (100 %)


ENROL_FLOOR = 0.93  # measured 100 % (16/16, hemant_img); target 99 %; one miss in 16 is 93.8 %


def test_small_cards(photos, eval_photos_module) -> None:
    """The cards as a far 640x360 webcam shows them (40, 55 and 70 px wide), each end up:
    measured 96.6 %, 98.3 % and 98.6 % with the generator-7 model (95.4 %, 97.5 % and 97.7 %
    with generator 6, whose 6s, 8s and 9s and reverses blurred together)."""
    at_40, at_55, at_70 = eval_photos_module.run_small(photos, "uno")
    assert at_40 >= 0.96 and at_55 >= 0.975 and at_70 >= 0.975
