"""Wordings of lists and their records on captured screens (a to-do list, an admin's product list and home): what
a request is for is no key, a control's count is no part of its name, a statement asked to be confirmed is a check
(never the change it names), a filter said as "column = value", a record named by "X's customer record". Each case
is a general rule; the wordings are the tests' own."""
from __future__ import annotations

import pytest

from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

TODO, PRODUCTS, ADMIN = "todomvc/index.html#/", "django_admin/admin/store/product/", "django_admin/admin/"


def test_what_a_press_is_for_names_no_key_and_a_controls_count_is_not_its_name() -> None:
    # before: "to tidy up the list" pressed the UP key, and the run passed with nothing cleared
    got = steps(plan("tick Buy milk and then press 'Clear completed' to empty the list", screen(TODO)))
    assert got[-1] == ("click_element", {"text": "Clear completed", "role": "button"})   # its "(1)" changes
    assert not any(s[0] == "press_key" for s in got)


def test_a_statement_asked_to_be_confirmed_is_a_check_never_the_change_it_names() -> None:
    for task in ("Buy milk should already be ticked - confirm?", "Walk the dog should be checked off. check pls"):
        got = steps(plan(task, screen(TODO)))
        assert [s[0] for s in got] == ["wait_for_element"] and got[0][1]["state"] == "checked", task
    # said alone, the same words still ask for the change
    assert steps(plan("Buy milk should be ticked", screen(TODO)))[0][0] == "set_checked"


def test_the_testers_own_doing_is_told_not_asked() -> None:
    assert steps(plan("mark Buy milk done, we bought it yesterday", screen(TODO)))[0] == \
        ("set_checked", {"checked": True, "row": "Buy milk", "role": "checkbox"})
    assert steps(plan("switch the view over to the Active filter", screen(TODO)))[0] == \
        ("click_element", {"text": "Active", "role": "link"})


@pytest.mark.parametrize("task, link", [
    ("only show products in stock", "Yes"),                          # the flag whole, not "in" and "stock"
    ("filter by In stock No", "No"),                                  # a filter group, then its choice
    ("filter the products down to category = Kitchen", "Kitchen"),
])
def test_a_filter_said_as_a_group_and_its_value(task: str, link: str) -> None:
    got = steps(plan(task, screen(PRODUCTS)))
    assert got[0][0] == "click_element" and got[0][1]["text"] == link, task


def test_listed_at_a_price_under_a_group_is_what_the_records_row_shows() -> None:
    assert steps(plan("quick check: the Rake should be listed at 15.00 under Garden", screen(PRODUCTS))) == [
        ("wait_for_element", {"text": "15.00", "row": "Rake", "present": True}),
        ("wait_for_element", {"text": "Garden", "row": "Rake", "present": True})]


def test_a_record_named_by_its_kind_and_owner() -> None:
    p = plan("please open Bob Chen's customer page", screen(ADMIN))
    assert steps(p) == [("click_element", {"text": "Customers", "role": "link"})] and p.pending == ["open Bob Chen"]
    p = plan("Is Bob Chen's account marked as inactive? It should be", screen(ADMIN))
    assert p.feasible and p.pending[-1] == "check Bob Chen is inactive"


def test_a_name_is_never_rephrased_and_a_check_of_a_name_listed_stays_a_presence_check() -> None:
    # found by the dev split: "X shows" read as "X is shown" renamed a group "Bike shows" as it was created
    from server.planners.restating import restate
    assert "Bike shows" in restate("create a group called Bike shows, then check that there are 6 groups")
    assert restate("put channel 2 on to see if Boreal Sports shows").endswith("Boreal Sports is shown")


def test_a_records_assignee_is_read_beside_its_owner_label() -> None:
    got = steps(plan("check ticket 5 is assigned to alice", screen("trac/ticket/5")))
    assert got == [("wait_for_element", {"text": "alice", "selector": "#ticketbox > table > tbody > tr:nth-of-type(1) > "
                                                              "td:nth-of-type(2)", "present": True})]
    # a record numbered in brackets after its name, then a check asked for after the statement
    p = plan("the subtitles ticket (#2) should be owned by bob - verify", screen("trac/ticket/1"))
    assert p.feasible and p.pending == ["check ticket #2 should be owned by bob"]


@pytest.mark.parametrize("key, task, state", [
    ("warehouse/settings", "is Email alerts enabled?", "checked"),
    ("warehouse/settings", "is Email alerts disabled?", "unchecked"),
    ("fleet/settings", "is the weekly mileage report enabled?", "checked"),
])
def test_a_box_asked_enabled_is_on_never_merely_clickable(key: str, task: str, state: str) -> None:
    # before: the question checked the box could be clicked (state enabled), which passes whatever it shows
    from tests.unit.test_new_apps import screen as new_app_screen

    got = steps(plan(task, new_app_screen(key)))
    assert len(got) == 1 and got[0][1]["state"] == state and got[0][1]["role"] in ("switch", "checkbox"), task


@pytest.mark.parametrize("task, said", [
    ("Is Green Leaf Ltd based in Utrecht?", "check Green Leaf Ltd is based in Utrecht"),
    ("Sam Lee has a new email address, update it to sam.lee@library.test",
     "set the email address of Sam Lee to sam.lee@library.test"),
    ("find any plant that has lily in its name", "find plants whose name contains lily"),
])
def test_a_question_a_new_value_told_first_and_a_word_in_a_field(task: str, said: str) -> None:
    from server.planners.restating import restate
    assert restate(task) == said


def test_what_is_to_show_is_the_filter_and_slips_of_the_keyboard_are_read_through() -> None:
    assert steps(plan("filter the bookmarks so only the ones tagged video show", screen("buku/bookmark/"))) == [
        ("click_element", {"text": "video", "role": "link"})]
    from server.planners.restating import restate
    assert restate("list all the issues asigned to bob") == "list all the issues assigned to bob"
    assert restate("there shoud be 2 todos").startswith("there should be")


def test_a_field_named_with_a_word_people_add_is_the_field() -> None:
    # the second fresh batch: "Sam Lee has a new email address, update it to …" found no field "email address"
    got = steps(plan('fill in email address "x@y.org"', screen("sqlite_web/members/update/WzNd/")))
    assert got[-1] == ("input_text", {"text": "x@y.org", "field": "email", "clear": True})
