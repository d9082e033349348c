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


CHECKS = frozenset({"wait_for_text", "wait_for_element"})


def test_after_a_failed_check_a_re_plan_that_only_checks_again_another_way_is_not_run() -> None:
    """"there should be 15 bookmarks": 15 rows failed; 15 list items could pass on the same screen. Nothing on
    the device changed in between, so the second reading would be a pass the screen never earned."""
    rows = PlanStep(1, "wait_for_element", {"role": "row", "count": 15})
    items = PlanStep(2, "wait_for_element", {"role": "listitem", "count": 15})
    assert _only_repeats([items], rows, (), None, CHECKS)
    assert _only_repeats([PlanStep(3, "wait_for_text", {"text": "Zebra!"})], CHECK, (GOTO,), None, CHECKS)
    assert _only_repeats([GOTO], CHECK, (GOTO,), None, CHECKS)   # walking where it was, and no check at all
    # a step that changes the device first is a new attempt, and is kept
    assert not _only_repeats([PlanStep(3, "goto", {"node": "home"}), items], rows, (GOTO,), None, CHECKS)
    assert not _only_repeats([PlanStep(3, "click_element", {"text": "All"}), items], rows, (), None, CHECKS)
    # an action that failed is re-planned as before
    click = PlanStep(1, "click_element", {"text": "Save"})
    assert not _only_repeats([PlanStep(2, "click_element", {"text": "Submit"})], click, (), None, CHECKS)
