"""A failed check is not re-planned into the same check after steps that already passed."""
from __future__ import annotations

from server.runs import _only_repeats
from shared.models import PlanStep

GOTO = PlanStep(1, "goto", {"node": "guide"})
CHECK = PlanStep(2, "wait_for_text", {"text": "Zebra"})


def test_the_same_path_then_the_same_check_is_a_repeat() -> None:
    assert _only_repeats([PlanStep(3, "goto", {"node": "guide"}), PlanStep(4, "wait_for_text", {"text": "Zebra"})],
                         CHECK, (GOTO,))
    assert _only_repeats([PlanStep(3, "wait_for_text", {"text": "Zebra"})], CHECK)
    # the path ran as its edge's own actions: a goto to the screen the device is on changes nothing
    walked = (PlanStep(1, "click_element", {"selector": "#guide"}),)
    assert _only_repeats([PlanStep(3, "goto", {"node": "guide"}), PlanStep(4, "wait_for_text", {"text": "Zebra"})],
                         CHECK, walked, "guide")
    assert not _only_repeats([PlanStep(3, "goto", {"node": "guide"}), PlanStep(4, "wait_for_text", {"text": "Zebra"})],
                             CHECK, walked, "home")


def test_a_new_step_first_or_a_different_check_is_kept() -> None:
    assert not _only_repeats([PlanStep(3, "goto", {"node": "home"}), PlanStep(4, "wait_for_text", {"text": "Zebra"})],
                             CHECK, (GOTO,))
    assert not _only_repeats([PlanStep(3, "wait_for_text", {"text": "Zebra!"})], CHECK, (GOTO,))
    assert not _only_repeats([GOTO], CHECK, (GOTO,))   # no check at all: not a retry of it
    assert not _only_repeats([], CHECK, (GOTO,))
