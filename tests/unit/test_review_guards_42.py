"""Guards a review of the TV and list wordings asked for, each shown on the demo's tree or a captured screen: no
check turned into a change, no name rewritten, no vacuous check, no destructive pick. Each test fails before."""
from __future__ import annotations

import pytest

from server.planners.restating import restate
from tests.unit.test_builtin_planner import plan as tv_plan
from tests.unit.test_builtin_planner import steps as tv_steps
from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen


def test_a_check_of_two_settings_never_sets_the_second() -> None:
    for task in ("check parental lock and subtitles are on", "verify audio language is French + subtitles on",
                 "make sure the audio language is Spanish and subtitles are off"):
        p = tv_plan(task, node="settings")
        assert not any(s.command == "click_until" for s in p.steps), task


@pytest.mark.parametrize("task, kept", [
    ("add a todo 'lock down the shed'", "'lock down the shed'"),
    ("add an expense 'Fish + chips' of 20 paid by Alice", "'Fish + chips'"),
    ('add a todo called "Ch 4 recap"', '"Ch 4 recap"'),
    ("rename Pay rent to 'Pay rent - should end up on Friday'", "'Pay rent - should end up on Friday'"),
    ("add a todo: buy milk x2", "buy milk x2"),
    ("press OK once the dialog appears", "once the dialog"),
    ("delete Dan's page", "Dan's page"),
    ("add a todo called yesterday's leftovers", "yesterday's leftovers"),
])
def test_what_is_quoted_or_named_is_never_rephrased(task: str, kept: str) -> None:
    assert kept in restate(task), task


def test_a_screen_to_be_back_on_is_read_from_its_title_never_gone_to() -> None:
    got = tv_steps(tv_plan("open the guide, then press back - we should be back on Live TV", node="live"))
    assert got[-1] == ("wait_for_element", {"text": "Live TV", "selector": "#screen-live .screen-title", "present": True})
    assert not any(s == ("goto", {"node": "live"}) for s in got[1:])


def test_a_channel_on_now_is_never_read_from_the_list_of_them() -> None:
    assert tv_steps(tv_plan("check Kids Planet is on now", node="guide"))[0] == ("goto", {"node": "live"})
    # "not on" is the current channel's number, read on the screen that plays channels while it shows
    assert tv_steps(tv_plan("check Wild Earth is not on", node="guide"))[-2:] == [
        ("wait_for_element", {"selector": "#current-channel", "present": True}),
        ("wait_for_element", {"text": "6", "selector": "#current-channel", "present": False})]


@pytest.mark.parametrize("task", ["show the plants that don't need full sun", "show the plants other than full sun",
                                  "show the plants with at least 60"])
def test_a_negation_or_a_comparison_is_no_equality_to_narrow_to(task: str) -> None:
    p = plan(task, screen("datasette/nursery/plants"))
    assert not (p.feasible and any(s.params.get("text") == "full sun" for s in p.steps)), task


def test_an_action_is_no_value_to_narrow_to_and_filtering_out_is_refused() -> None:
    got = plan("show me the books to drop", screen("sqlite_web/books/content/"))
    assert not any(s.params.get("text", "").lower() == "drop" for s in got.steps)
    assert not plan("filter out products in stock", screen("django_admin/admin/store/product/")).feasible


def test_the_thing_that_comes_up_is_a_result_only_after_a_search() -> None:
    assert "the first result" not in restate("delete the item that pops up")
    assert "the first result" in restate("search for neon and open the film that comes up")


def test_what_it_refers_to_is_kept_when_how_things_stand_is_told_first() -> None:
    assert "Rake" in restate("we are on the Rake row - tick it")


def test_a_pin_is_given_only_to_a_lock_that_shows_the_other_state_first() -> None:
    assert not tv_plan("turn on subtitles with PIN 1234", node="settings").feasible
    got = tv_steps(tv_plan("turn on parental lock with PIN 0000", node="settings"))
    assert got[0] == ("wait_for_element", {"text": "Off", "selector": "#setting-parental", "present": True})
    assert not plan("set the city to Office with PIN 1234", screen("django_admin/admin/store/customer/1/change/")).feasible


def test_opening_an_item_to_read_a_fact_never_tunes_or_plays_it() -> None:
    for node, task in (("live", "check Kids Planet is from 2020"), ("replay", "check Ocean Giants is from 2021")):
        assert not any(s.command == "click_element" for s in tv_plan(task, node=node).steps), task


def test_a_dash_before_a_statement_is_no_question() -> None:
    assert "check" not in restate("delete Pay rent - was a duplicate anyway")


def test_a_screen_said_shown_after_a_step_of_unknown_landing_is_read_never_gone_to() -> None:
    # before: "press back and check the home screen is shown" went home, and so passed wherever BACK led
    assert tv_steps(tv_plan("press back and check the home screen is shown", node="live")) == [
        ("press_key", {"key": "BACK"}),
        ("wait_for_element", {"text": "StreamTV", "selector": "#screen-home .screen-title", "present": True})]
    # where the plan is there already, its goto only verifies it
    assert tv_steps(tv_plan("open the guide and check the guide screen is shown", node="home")) == [
        ("goto", {"node": "guide"}), ("goto", {"node": "guide"})]


def test_a_rows_action_never_filters_the_list() -> None:
    # before: "stopped" took the first row's Stop link, and stopped a process
    from tests.unit.test_new_apps import screen as new_app_screen
    p = plan("show only the processes that are stopped", new_app_screen("supervisor/"))
    assert not any(s.params.get("text") == "Stop" for s in p.steps)


def test_a_sentence_about_it_is_no_text_whose_absence_proves_anything() -> None:
    assert not plan("check it's not assigned to carol", screen("trac/ticket/5")).feasible


def test_a_state_said_without_its_verb_is_that_state() -> None:
    assert tv_steps(tv_plan("check subtitles on", node="settings")) == [
        ("wait_for_element", {"text": "On", "selector": "#setting-subtitles", "present": True})]
