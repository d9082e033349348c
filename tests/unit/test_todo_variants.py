"""One app, other markup: the React and AngularJS examples of npm ``todomvc@0.1.1`` (screens captured from the live
pages, four todos, "Walk the dog" done), planned from tasks written for this file before they were first run.

The corpus drives the VanillaJS example; these show the same wordings hold where the markup differs: a counter split
over three elements, a destroy button with no name, classes of a framework on every field.
"""
from __future__ import annotations

import pytest

from server.planners.restating import restate
from tests.unit.test_tester_phrasings import screen
from tests.unit.test_screen_planning import plan, steps


FRAMEWORKS = ["todomvc-react/", "todomvc-angularjs/"]


@pytest.mark.parametrize("key", FRAMEWORKS)
@pytest.mark.parametrize("task", ["how many todos are left? should be 3", "3 items are left", "check 3 todos remain"])
def test_a_counter_split_over_elements_is_read_as_its_line(key: str, task: str) -> None:
    assert steps(plan(task, screen(key))) == [("wait_for_element", {"text": "3 items left", "present": True})]


def test_a_count_said_without_its_items_is_what_is_left() -> None:
    assert restate("remove every finished item and confirm only 3 remain") == \
        "remove every finished item and confirm 3 items are left"
    p = plan("remove every finished item and confirm only 3 remain", screen("todomvc-react/"))
    assert steps(p)[0] == ("click_element", {"text": "Clear completed", "role": "button"})
    assert p.pending == ["confirm 3 items are left"]   # read on the screen the click leaves


@pytest.mark.parametrize("key", FRAMEWORKS)
def test_purging_the_completed_ones_proves_the_completed_one_is_gone(key: str) -> None:
    assert steps(plan("purge all completed todos", screen(key))) == [
        ("click_element", {"text": "Clear completed", "role": "button"}),
        ("wait_for_element", {"text": "Walk the dog", "role": "listitem", "present": False})]


def test_a_new_name_with_and_in_it_is_one_name() -> None:
    got = steps(plan("rename Pay rent to Pay rent and bills", screen("todomvc-react/")))
    assert ("input_text", {"text": "Pay rent and bills", "clear": True, "submit": True}) in got


def test_un_complete_unticks() -> None:
    assert steps(plan("un-complete walk the dog", screen("todomvc-react/")))[0] == \
        ("set_checked", {"checked": False, "row": "Walk the dog", "role": "checkbox"})


def test_a_check_of_a_todo_about_something_looks_for_its_words_and_never_leaves_the_app() -> None:
    # the kind "todo" once opened the footer's link "TodoMVC", to another site
    assert steps(plan("is there a todo about the plumber?", screen("todomvc-react/"))) == \
        [("wait_for_element", {"text": "plumber", "present": True})]


@pytest.mark.parametrize("task, link", [("switch to the Active filter", "Active"), ("show the Completed view", "Completed"),
                                        ("select the All filter", "All")])
def test_a_filter_said_with_its_kind_is_its_link_and_its_route_is_checked(task: str, link: str) -> None:
    assert steps(plan(task, screen("todomvc-react/"))) == [("click_element", {"text": link, "role": "link"}),
                                                            ("wait_for_page", {"name": link, "present": True})]


def test_among_them_is_listed() -> None:
    got = steps(plan("look at the completed todos and check Walk the dog is among them", screen("todomvc-react/")))
    assert got == [("click_element", {"text": "Completed", "role": "link"}),
                   ("wait_for_page", {"name": "Completed", "present": True})]
    p = plan("look at the completed todos and check Walk the dog is among them", screen("todomvc-react/"))
    assert p.pending == ["check Walk the dog is listed"]   # read on the Completed view, once it is shown


@pytest.mark.parametrize("key", ["todomvc-react/editing", "todomvc-angularjs/editing"])
def test_the_box_being_edited_is_known_by_the_text_it_holds(key: str) -> None:
    got = steps(plan('change "Buy milk" to Buy oat milk', screen(key)))
    assert got[0][0] == "input_text" and got[0][1]["text"] == "Buy oat milk" and got[0][1]["submit"] is True
    # by where it is: AngularJS's classes ("edit ng-pristine ng-valid") change as it is typed into
    assert "selector" in got[0][1] and "field" not in got[0][1]
    assert got[-1] == ("wait_for_element", {"text": "Buy oat milk", "present": True})


def test_words_that_only_look_like_a_kind_or_a_description_stay_what_the_tester_wrote() -> None:
    # "lamp" is no kind because a link says "Desk Lamp": the check is of the whole name, which no product has
    assert steps(plan("check Office lamp is shown", screen("django_admin/admin/store/product/"))) == \
        [("wait_for_element", {"text": "Office lamp", "present": True})]
    # "an error about the email" is not the word "email", which the form's label shows anyway
    got = steps(plan("check there is an error about the email", screen("django_admin/admin/store/customer/1/change/")))
    assert got[0][1].get("text") != "email"
    # a counter said as "only 2 left" is a text to find where no list counts what is left
    assert steps(plan("check only 2 left", screen("django_admin/admin/store/product/"))) == \
        [("wait_for_element", {"text": "only 2 left", "present": True})]


def test_a_link_to_another_site_is_opened_only_by_its_very_name() -> None:
    assert not plan("show me the list of todos", screen("todomvc-react/")).feasible   # not "Part of TodoMVC"
    assert steps(plan("open TodoMVC", screen("todomvc-react/")))[0] == ("click_element", {"text": "TodoMVC",
                                                                                          "role": "link"})


def test_a_possessive_of_a_generic_owner_opens_nothing_by_guess() -> None:
    assert not plan("open the site's settings", screen("django_admin/admin/store/product/")).feasible


@pytest.mark.parametrize("task, said", [
    ("Buy milk — delete it please", "delete Buy milk please"),
    ("strike Walk the dog from the list", "remove Walk the dog"),
    ("make 'Pay rent' say 'Pay rent on Friday'", "rename 'Pay rent' to 'Pay rent on Friday'"),
    ("are there 4 todos in total?", "check there are 4 todos?"),
    ("back up the database to Dropbox", "backup the database to Dropbox"),   # no Back key
    ("who wrote Neuromancer? it should be William Gibson", "check that Neuromancer was written by William Gibson"),
    ("give Sam Lee the email sam.lee@mail.org", "set the email of Sam Lee to sam.lee@mail.org"),
])
def test_testers_turns_of_phrase_are_restated(task: str, said: str) -> None:
    assert restate(task) == said


def test_a_state_said_in_other_words_is_the_list_s_view_of_it() -> None:
    assert steps(plan("show only the todos that are still open", screen("todomvc-react/")))[0] == \
        ("click_element", {"text": "Active", "role": "link"})
    assert steps(plan("show only the done ones", screen("todomvc-react/")))[0] == \
        ("click_element", {"text": "Completed", "role": "link"})


def test_typing_into_the_editor_a_double_click_opened_then_enter_is_checked_as_shown() -> None:
    # no field named: the one the double-click focused; the plan then proves the row shows the new text (it once
    # passed with "Pay rentPay the landlord" in the row)
    got = steps(plan("double click on Pay rent, type Pay the landlord and hit enter", screen("todomvc-react/")))
    assert got[-2:] == [("press_key", {"key": "OK"}), ("wait_for_element", {"text": "Pay the landlord", "present": True})]
