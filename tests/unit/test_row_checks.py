"""Checks about the rows of a table, worded as testers do: a kind said with a name, a value said with its column,
some row or none showing a value, and a row by its place. Planned against a real Datasette screen."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.screen import ScreenObservation
from tests.unit.test_screen_planning import plan, steps

SHOTS = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "third_party.json"
PLANTS = "datasette/nursery/plants"
FAMILY = "body > div:nth-of-type(1) > section > div:nth-of-type(2) > table > tbody > tr > td:nth-of-type(3)"
ROWS = "body > div:nth-of-type(1) > section > div:nth-of-type(2) > table > tbody > tr"


def screen(key: str = PLANTS) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SHOTS.read_text())[key])


@pytest.mark.parametrize("task", ["is there a plant called Basil?", "check there is a plant named Basil"])
def test_the_kind_of_record_is_no_value_of_a_row(task: str) -> None:
    # "plant" is also in the cell "Snake Plant": it named that row, and Basil was looked for in it
    assert steps(plan(task, screen())) == [("wait_for_element", {"text": "Basil", "selector": ROWS + " > td:nth-of-type(2)",
                                                                 "present": True})]


def test_a_value_said_with_its_column_is_the_value_alone() -> None:
    got = steps(plan("Monstera is in the Araceae family", screen()))
    assert got == [("wait_for_element", {"text": "Araceae", "row": "Monstera",
                                         "present": True})]


@pytest.mark.parametrize("task, value, present", [
    ("check there are plants in the Araceae family", "Araceae", True),
    ("are there any plants from the Araceae family?", "Araceae", True),
    ("make sure there are no plants in the Cactaceae family", "Cactaceae", False),
    ("there aren't any plants in the Cactaceae family", "Cactaceae", False),
])
def test_some_row_or_none_shows_the_value_in_its_column(task: str, value: str, present: bool) -> None:
    # before: the whole phrase as a text ("plants in the Cactaceae family" is never shown: a pass either way)
    assert steps(plan(task, screen())) == [("wait_for_element", {"text": value, "selector": FAMILY,
                                                                 "present": present})]


@pytest.mark.parametrize("task, place, value", [
    ("check the first row is Monstera", ":nth-of-type(1)", "Monstera"),
    ("the top plant should be Monstera", ":nth-of-type(1)", "Monstera"),
    ("Monstera should be at the top", ":nth-of-type(1)", "Monstera"),
    ("make sure the last plant listed is Basil", ":last-of-type", "Basil"),
    ("check the second row shows Rosemary", ":nth-of-type(2)", "Rosemary"),
])
def test_a_row_by_its_place_is_that_row_by_position(task: str, place: str, value: str) -> None:
    assert steps(plan(task, screen())) == [("wait_for_element", {"text": value, "selector": ROWS + place,
                                                                 "present": True})]


def test_the_order_of_two_records_is_refused_not_guessed() -> None:
    p = plan("verify Monstera comes before Rosemary", screen())
    assert not p.feasible and "order of two records" in p.analysis


def test_a_facet_link_of_the_page_is_no_list_of_records() -> None:
    # Datasette's "Suggested facets: family" link re-views this page; it is not a list called "family"
    got = steps(plan("Basil is a plant in the Lamiaceae family", screen()))
    assert len(got) == 1 and got[0][0] == "wait_for_element" and got[0][1]["text"] == "Lamiaceae"


TODOS = "todomvc/index.html#/"
BOXES = "#todo-list > li input[type=checkbox], #todo-list > li [role=checkbox]"


def test_a_list_item_by_its_place_is_that_item_of_the_main_list() -> None:
    # the todo list (its items hold checkboxes), not the filters' list beside it
    assert steps(plan("the first todo should be buy milk", screen(TODOS))) == [
        ("wait_for_element", {"text": "buy milk", "selector": "#todo-list > li:nth-of-type(1)", "present": True})]


@pytest.mark.parametrize("task, unwanted", [
    ("check nothing is completed", "checked"),
    ("make sure none of the todos are ticked", "checked"),
    ("verify every todo is done", "unchecked"),
    ("check all todos are still active", "checked"),
])
def test_all_or_none_of_the_items_in_a_state_is_no_box_in_the_other(task: str, unwanted: str) -> None:
    # before: "nothing" was looked for as an element's text
    assert steps(plan(task, screen(TODOS))) == [
        ("wait_for_element", {"selector": BOXES, "state": unwanted, "present": False})]


def test_a_bare_answer_after_a_question_is_the_count_expected() -> None:
    assert steps(plan("how many todos are left? 2", screen(TODOS))) == [
        ("wait_for_element", {"text": "2 items left", "present": True})]


@pytest.mark.parametrize("task", ["clear the finished ones", "remove the finished todos"])
def test_a_state_said_in_other_words_names_the_same_control(task: str) -> None:
    # and a completed row is gone: a control that did nothing (or only unticked it) leaves it there
    got = steps(plan(task, screen(TODOS)))
    assert got[0] == ("click_element", {"text": "Clear completed", "role": "button"})
    assert got[1][0] == "wait_for_element" and got[1][1]["present"] is False and got[1][1]["text"]


def test_a_list_that_should_include_a_name_is_that_name_listed() -> None:
    assert steps(plan("the customer list should include Bob Chen", screen("django_admin/admin/store/customer/"))) == [
        ("wait_for_element", {"text": "Bob Chen", "present": True})]


@pytest.mark.parametrize("task", ["show the customers in Lyon", "list customers located in Lyon",
                                  "search for customers in Lyon"])
def test_customers_in_a_city_narrow_the_list_to_the_city(task: str) -> None:
    # before: "Lyon" (the city filter's link) was taken for a list, and "customers" was searched for in it
    got = steps(plan(task, screen("django_admin/admin/store/customer/")))
    assert got[0] in (("click_element", {"text": "Lyon", "role": "link"}),
                      ("input_text", {"text": "Lyon", "field": "searchbar q", "clear": True, "submit": True}))
    assert all("customers" not in str(params) for _, params in got)


def test_a_value_absent_from_every_column_is_checked_absent_from_the_row() -> None:
    # before: the name column, which never shows a city: a pass whatever the city
    got = steps(plan("confirm Bob Chen is not in Paris", screen("django_admin/admin/store/customer/")))
    assert got[-1] == ("wait_for_element", {"text": "Paris", "row": "Bob Chen",
                                            "present": False})


@pytest.mark.parametrize("task, command, row", [
    ("tick the third todo", "set_checked", "Call the plumber"),
    ("untick the second one", "set_checked", "Walk the dog"),
    ("delete the last todo", "click_element", "Pay rent"),
])
def test_a_row_named_by_its_place_is_acted_on_by_its_name(task: str, command: str, row: str) -> None:
    got = plan(task, screen(TODOS))
    assert got.feasible and got.steps[0].command == command and got.steps[0].params["row"] == row


def test_deleting_the_first_customer_opens_that_customer_to_delete_it() -> None:
    # before: "the first customer" clicked the Customers link of the list already shown
    got = plan("delete the first customer", screen("django_admin/admin/store/customer/"))
    assert steps(got)[0] == ("click_element", {"text": "Alice Martin", "role": "link"})
    assert any("Alice Martin" in p for p in got.pending)


def test_a_lowercase_record_with_its_kind_is_the_row_that_shows_it() -> None:
    # "the electricity bill": the row Electricity; "bill" also names the page's Bills tab, which was clicked
    got = steps(plan("delete the electricity bill", screen("ihatemoney/flatshare/")))
    assert got[0] == ("click_element", {"text": "delete", "role": "button",
                                        "row": "Electricity"})


def test_an_expense_of_an_amount_for_a_thing_paid_by_someone_is_that_expense() -> None:
    from server.planners.restating import restate

    assert restate("add an expense of 30 for pizza paid by Bob for everyone") == \
        "add an expense 'pizza' of 30 paid by Bob"
    assert restate("log a 12.50 bill for taxi, paid by Dan") == "add an expense 'taxi' of 12.50 paid by Dan"


def test_a_tag_is_an_element_named_exactly_so_not_a_word_of_a_title() -> None:
    # "python" is also a word of the title "Python 3 documentation"
    assert steps(plan("check there are bookmarks tagged python", screen("buku/bookmark/"))) == [
        ("wait_for_element", {"text": "python", "exact": True, "present": True})]


def test_the_first_row_is_the_first_of_the_list_not_of_a_sidebar_table() -> None:
    # Django's sidebar lists its models in tables of their own, before the list of customers
    assert steps(plan("the first customer should be Alice Martin", screen("django_admin/admin/store/customer/"))) == [
        ("wait_for_element", {"text": "Alice Martin", "selector": "#result_list > tbody > tr:nth-of-type(1)",
                              "present": True})]


def test_a_row_verb_on_a_row_by_its_place_takes_the_first_row_of_the_table() -> None:
    # rows of one table hold different controls (one has a History link): still the first row is the first
    got = steps(plan("pause the first watch", screen("changedetection/")))
    assert got[0][0] == "click_element" and got[0][1]["text"] == "Pause checks"
    assert got[0][1]["row"].startswith("Schwalbe tyres")


def test_a_tag_taken_off_a_record_is_refused_never_a_deletion() -> None:
    # before: the tag's link (the bookmarks that have it), then that page's Delete Record: a bookmark deleted,
    # and the run passed because the tag was gone with it
    p = plan("remove the tech tag from Hacker News", screen("buku/bookmark/"))
    assert not p.feasible and "edit Hacker News" in p.analysis


def test_deleting_a_tag_goes_to_the_tags_and_deletes_its_row() -> None:
    p = plan("get rid of the pizza tag", screen("buku/bookmark/"))
    assert steps(p) == [("click_element", {"text": "Tags", "role": "link"})]
    assert p.pending == ["get rid of the pizza tag"]
    p = plan("get rid of the pizza tag", screen("buku/tag/"))
    assert steps(p) == [("click_element", {"text": "Delete Record", "role": "button", "row": "pizza"})]
    assert p.pending == ['if asked confirm the deletion of the row "pizza"']


def test_a_record_shown_here_with_its_kind_is_deleted_here_not_on_a_list_of_another_kind() -> None:
    # "watch" also names the "Watch Groups" link; the row Weather warnings is on this page
    p = plan("pls remvoe the weather warnings watch", screen("changedetection/"))
    assert steps(p)[0][1]["row"].startswith("Weather warnings")
