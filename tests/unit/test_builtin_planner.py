"""The built-in planner grounds tasks in the device's context, or says why it cannot."""
from __future__ import annotations

import pytest

from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner, split_clauses
from shared.models import Plan, PlanningContext
from shared.plan import validate_plan
from tests.unit.conftest import demo_context


def plan(task: str, ctx: PlanningContext | None = None, node: str | None = None) -> Plan:
    ctx = ctx or demo_context(node)
    raw = BuiltinPlanner().plan(PlanRequest(task, ctx, node))
    validated = validate_plan(raw, ctx)
    assert validated.notes == [], f"the built-in planner produced invalid steps: {validated.notes}"
    return validated


def steps(p: Plan) -> list[tuple[str, dict]]:
    return [(s.command, s.params) for s in p.steps]


def test_go_to_a_screen_by_its_label() -> None:
    assert steps(plan("go to the guide")) == [("goto", {"node": "guide"})]
    assert steps(plan("Navigate to Settings")) == [("goto", {"node": "settings"})]
    assert steps(plan("open live tv")) == [("goto", {"node": "live"})]


def test_channel_change_and_banner_check() -> None:
    p = plan("switch to channel 5 and check the banner shows Melody TV")
    assert p.feasible
    assert steps(p) == [
        ("goto", {"node": "live"}),
        ("press_key", {"key": "DIGIT_5"}),
        ("wait_for_element", {"present": True, "selector": "#channel-banner", "text": "Melody TV"}),
    ]
    assert [s.controller_type for s in p.steps] == ["navigation", "remote", "verification"]


def test_already_on_the_screen_skips_the_goto() -> None:
    p = plan("switch to channel 7", node="live")
    # ... and ends by checking the channel's number is shown (the task's end state)
    assert steps(p) == [("press_key", {"key": "DIGIT_7"}),
                        ("wait_for_element", {"present": True, "text": "7", "selector": "#channel-banner"})]


def test_open_movies_and_play_a_title_goes_through_its_detail_page() -> None:
    p = plan("open movies and play The Last Orbit")
    commands = [c for c, _ in steps(p)]
    assert commands[0:2] == ["goto", "click_element"]
    assert steps(p)[0] == ("goto", {"node": "movies"})
    assert "the-last-orbit" in steps(p)[1][1]["selector"]
    # the title opens its detail page, whose Play button opens the player, which shows the title
    assert steps(p)[2] == ("click_element", {"selector": "#btn-play"})
    assert steps(p)[3][0] == "wait_for_element" and steps(p)[3][1]["text"] == "The Last Orbit"


def test_turn_a_setting_on() -> None:
    assert steps(plan("turn subtitles on")) == [
        ("goto", {"node": "settings"}),
        ("click_until", {"selector": "#setting-subtitles", "expect": "On"}),
    ]
    assert steps(plan("set audio language to French"))[-1] == (
        "click_until", {"selector": "#setting-audio", "expect": "French"})
    assert steps(plan("disable subtitles"))[-1][1]["expect"] == "Off"
    # the tree lists the audio language's values: another is refused before anything runs
    refused = plan("set audio to German")
    assert not refused.feasible and not refused.steps and "English, French, Spanish" in refused.analysis


def test_search_and_open_the_first_result() -> None:
    assert steps(plan("search for harbor and open the first result")) == [
        ("goto", {"node": "search"}),
        ("input_text", {"text": "harbor", "selector": "#search-input", "clear": True}),
        ("click_element", {"selector": ".search-result", "index": 0}),
    ]


def test_press_keys_with_counts_and_an_inherited_verb() -> None:
    assert steps(plan("press down twice then OK")) == [
        ("press_key", {"key": "DOWN", "repeat": 2}),
        ("press_key", {"key": "OK"}),
    ]
    # channel keys only mean something where channels play: the planner goes there first
    assert steps(plan("press channel up 3 times")) == [
        ("goto", {"node": "live"}), ("press_key", {"key": "CHANNEL_UP", "repeat": 3})]
    assert steps(plan("press channel up 3 times", node="live")) == [
        ("press_key", {"key": "CHANNEL_UP", "repeat": 3})]


def test_select_an_item_by_name_on_another_screen() -> None:
    assert steps(plan("open the guide and select Wild Earth")) == [
        ("goto", {"node": "guide"}),
        ("click_element", {"selector": ".guide-row[data-channel='6']"}),
        ("wait_for_element", {"present": True, "text": "Wild Earth", "selector": "#channel-banner"}),   # in its banner
    ]


def test_a_screen_check_uses_ocr() -> None:
    assert steps(plan("check the screen shows Melody TV")) == [("wait_for_text", {"present": True, "text": "Melody TV"})]


def test_negative_check_uses_the_disappear_verification() -> None:
    p = plan("check the banner is not shown", node="live")
    assert steps(p) == [("wait_for_element", {"present": False, "selector": "#channel-banner"})]


@pytest.mark.parametrize("task, reason", [
    ("go to the weather screen", "weather"),
    ("make coffee", "cannot tell what to do"),
    ("open the spaceship", "spaceship"),
    ("check the radar shows rain", "radar"),
])
def test_infeasible_tasks_say_why_and_plan_nothing(task: str, reason: str) -> None:
    p = plan(task)
    assert not p.feasible and p.steps == []
    assert reason in p.analysis


def test_unknown_screen_lists_the_real_screens() -> None:
    p = plan("go to the weather screen")
    for label in ("Home", "Live TV", "Guide", "Settings"):
        assert label in p.analysis


def test_planner_follows_the_context_not_fixed_phrases() -> None:
    """Rename a screen in the context: the same words now reach the new label, the old one is gone."""
    from dataclasses import replace

    ctx = demo_context()
    nodes = tuple(replace(n, label="Programme Listings", keywords=("listings",)) if n.id == "guide" else n
                  for n in ctx.navigation.nodes)
    renamed = replace(ctx, navigation=replace(ctx.navigation, nodes=nodes))
    assert steps(plan("go to programme listings", renamed)) == [("goto", {"node": "guide"})]
    assert not plan("go to the schedule screen", renamed).feasible   # a keyword of the guide before it was renamed


def test_clause_splitting_keeps_quoted_and_known_names_whole() -> None:
    assert split_clauses('type "salt and pepper" then press OK', []) == ['type "salt and pepper"', "press OK"]
    assert split_clauses("open Rock and Roll Hour and press OK", ["Rock and Roll Hour"]) == [
        "open Rock and Roll Hour", "press OK"]
    assert split_clauses("go home, press down twice then OK", []) == ["go home", "press down twice", "OK"]


def test_words_that_introduce_the_text_are_not_part_of_it() -> None:
    assert steps(plan("check that the text Melody TV appears")) == [("wait_for_element", {"present": True, "text": "Melody TV"})]
    assert steps(plan("check the message 'No results' is shown")) == [
        ("wait_for_element", {"present": True, "text": "No results"})]


def test_deleting_an_item_nothing_on_its_screens_deletes_is_refused() -> None:
    # StreamTV's tree says where Neon Tides is (Movies, and the detail screen it opens): nothing there
    # deletes; the delete key of the search keyboard is elsewhere and deletes a letter
    refused = plan("delete the movie Neon Tides")
    assert not refused.feasible and not refused.steps and "deletes" in refused.analysis


@pytest.mark.parametrize("task, first_steps", [
    ("put on channel three", [("goto", {"node": "live"}), ("press_key", {"key": "DIGIT_3"})]),
    ("what's on the guide", [("goto", {"node": "guide"})]),
    ("audio: spanish", [("goto", {"node": "settings"}), ("click_until", {"selector": "#setting-audio", "expect": "spanish"})]),
    ("is Melody TV on channel 5?", [("goto", {"node": "live"}), ("press_key", {"key": "DIGIT_5"})]),
    ("play Ocean Giants from the replay", [("goto", {"node": "replay"})]),
])
def test_tester_wordings_on_the_tv(task: str, first_steps: list) -> None:
    assert steps(plan(task))[:len(first_steps)] == first_steps


def test_a_negated_existence_check_looks_for_the_thing_not_for_the_verb() -> None:
    # "does not exist" once checked that the text "channel 9 does" was absent: always true
    assert steps(plan("verify channel 9 does not exist"))[-1] == (
        "wait_for_element", {"text": "channel 9", "present": False})
