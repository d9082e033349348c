"""Tasks worded as testers word them on apps seen for the first time, planned against real screens of an expense
splitter (ihatemoney) and an issue tracker (Roundup): phrasal verbs, a record said with its kind, a count of one
list among several, an edit said by its result, and the check that a value saved is in that record's row."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from backend_core.verifications.matching import ElementQuery, same_number
from server.planners.restating import restate
from server.planners.records import parse_record
from server.planners.saved_check import saved_clause
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps

SHOTS = Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "third_party.json"
FLAT = "ihatemoney/flatshare/"
ISSUES = "roundup/tracker/"
ISSUE3 = "roundup/tracker/issue3"
ELECTRICITY = "Electricity"


def screen(key: str) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SHOTS.read_text())[key])


@pytest.mark.parametrize("task", ["navigate to the settle up page", "go to settle up"])
def test_a_phrasal_verb_names_the_control_of_its_verb(task: str) -> None:
    # before: "Settle" was clicked as a list of "up" records, and "open up page" was planned next (and failed)
    assert steps(plan(task, screen(FLAT))) == [("click_element", {"text": "Settle", "role": "link"}),
                                               ("wait_for_page", {"name": "Settle", "present": True})]


@pytest.mark.parametrize("task, row", [
    ("delete the bill for pizza night", "Pizza night"),
    ("remove the expense for the cinema tickets", "Cinema tickets"),
])
def test_a_record_said_after_its_kind_is_that_row(task: str, row: str) -> None:
    p = plan(task, screen(FLAT))
    ((command, params),) = steps(p)
    assert command == "click_element" and params["text"] == "delete" and row in params["row"]
    assert p.pending[0].startswith("if asked confirm the deletion of the row")


def test_a_record_said_as_one_of_a_kind_is_that_record() -> None:
    got = steps(plan("remove Chloe as a participant", screen(FLAT)))
    assert got == [("click_element", {"text": "deactivate", "role": "button", "row": "Chloe -308.68"})]


def test_shows_up_is_shown_and_she_is_the_one_just_added() -> None:
    p = plan("add a new participant called Hana and make sure she shows up", screen(FLAT))
    assert p.pending == ["make sure Hana is shown"]   # read on the screen the add leads to


def test_a_list_with_an_entry_for_a_name_lists_the_name() -> None:
    got = steps(plan("make sure the bill list has an entry for Electricity", screen(FLAT)))
    assert got == [("wait_for_element", {"text": "Electricity", "present": True})]


def test_a_count_of_a_kind_counts_the_list_of_that_kind_not_the_largest() -> None:
    # the page lists 5 bills in #bill_table and 4 participants in rows #bal-member-N: participants are members
    assert steps(plan("there should be 4 participants", screen(FLAT))) == [
        ("wait_for_element", {"selector": '[id^="bal-member-"]', "count": 4, "present": True})]
    assert steps(plan("check there are 5 bills", screen(FLAT))) == [
        ("wait_for_element", {"selector": "#bill_table > tbody > tr", "count": 5, "present": True})]


def test_a_count_of_a_kind_no_list_shows_is_refused_not_counted_on_another_list() -> None:
    p = plan("there should be 4 widgets", screen(FLAT))
    assert not p.feasible and "not widgets" in p.analysis


def test_a_count_of_a_grouped_table_counts_its_rows_of_data_not_its_group_titles() -> None:
    # Roundup groups issues by priority: a row "critical" heads each group, inside the table's body
    got = steps(plan("there should be 8 issues", screen(ISSUES)))
    assert got == [("wait_for_element", {"selector": "body > div > main > table > tbody > tr:has(> td)", "count": 8,
                                         "present": True})]


@pytest.mark.parametrize("task, field, value", [
    ("update the groceries expense so that it costs 75", "price", "75"),
    ("edit the rent so its amount is 1100", "amount", "1100"),
    ("change who paid for electricity to Chloe", "paid by", "Chloe"),
])
def test_an_edit_said_by_its_result_changes_that_field(task: str, field: str, value: str) -> None:
    p = plan(task, screen(FLAT))
    assert steps(p)[0][1]["text"] == "edit"
    assert p.pending[:2] == [f'fill in {field} "{value}"', "save"]
    assert p.pending[2].startswith(f'check that "{value}" was saved for ')


def test_an_expense_said_with_who_paid_it_last() -> None:
    p = plan("log a 42.50 expense for dinner that Bob paid", screen(FLAT))
    assert p.feasible and p.pending[0] == 'fill in name "dinner", paid by "Bob", of "42.50"'


def test_a_value_saved_on_a_record_is_checked_in_that_records_row() -> None:
    # before: "Chloe" anywhere on the page, where Chloe is always listed as a participant: a pass either way
    got = steps(plan(saved_clause("Chloe", "electricity"), screen(FLAT)))
    assert got == [("wait_for_element", {"text": "Chloe", "row": ELECTRICITY, "present": True})]


@pytest.mark.parametrize("task, command, option", [
    ("give issue 3 to bob", "select_option", "bob"),
    ("raise the priority of issue 3 to critical", "select_option", "critical"),
])
def test_tracker_verbs_are_the_field_changes_they_mean(task: str, command: str, option: str) -> None:
    got = steps(plan(task, screen(ISSUE3)))
    assert got[0][0] == command and got[0][1]["option"] == option


def test_looking_for_records_mentioning_words_searches_for_the_words() -> None:
    got = steps(plan("look for issues mentioning password", screen(ISSUES)))
    assert got[0][0] == "input_text" and got[0][1]["text"] == "password"


def test_a_record_that_has_a_field_value_checks_that_fields_box_not_the_fields_name() -> None:
    # before: the word "status" anywhere on the page (the label itself), then "chatting" anywhere: a false pass
    got = steps(plan("verify issue 3 has status chatting", screen(ISSUE3)))
    assert got == [("wait_for_element", {"text": "chatting", "present": True, "selector":
                                         "body > div > main > div > form > table > tbody > tr:nth-of-type(2) > "
                                         "td:nth-of-type(2) > select"})]


@pytest.mark.parametrize("expected, shown, same", [
    ("1200", "Rent 1,200.00 (300.00 each)", True), ("12.5", "12.50", True), ("855.32", "+855.32", True),
    ("290.18", "-290.18", True), ("-290.18", "+290.18", False), ("1200", "12000", False), ("5", "5.5", False), ("3", "v1.3.2", False),
])
def test_a_number_checked_is_the_number_shown_however_it_is_written(expected: str, shown: str, same: bool) -> None:
    assert same_number(expected, shown) is same
    row = UIElement(role="cell", text=shown)
    assert bool(ElementQuery(text=expected).candidates([row])) is same


WATCHES = "changedetection/"


def test_a_group_that_should_contain_a_number_of_records_is_opened_then_counted() -> None:
    for task, group, n in [("the Competitors group should contain 3 watches", "Competitors", 3),
                           ("the Software releases group has 4 watches", "Software releases", 4),
                           ("check that there are no watches in the Suppliers group", "Suppliers", 0)]:
        p = plan(task, screen(WATCHES))
        assert steps(p) == [("click_element", {"text": group, "role": "link"})], task
        assert p.pending == [f"check there are {n} watches"], task


def test_an_absence_the_page_could_never_show_is_refused_not_passed() -> None:
    # "Suppliers group" is never shown as such, while "Suppliers" is: its absence would pass on any screen
    p = plan("make sure Suppliers group is not shown", screen(WATCHES))
    assert not p.feasible and "never shown as such" in p.analysis
    assert steps(plan("check Wiggle road bikes is not listed", screen(WATCHES))) == [
        ("wait_for_element", {"text": "Wiggle road bikes", "present": False})]


def test_a_list_said_by_its_kind_is_the_list_shown_when_it_lists_the_name() -> None:
    # before: "Watch Groups" was opened (a list of groups), then a group's RSS feed link: the app was left
    got = steps(plan("make sure Python downloads appears in the watch list", screen(WATCHES)))
    assert got == [("wait_for_element", {"text": "Python downloads", "present": True})]


@pytest.mark.parametrize("task, link", [("filter the list to the Software releases group", "Software releases"),
                                        ("filter by the Competitors tag", "Competitors")])
def test_a_filter_said_with_its_kind_of_view_is_the_view_named(task: str, link: str) -> None:
    assert steps(plan(task, screen(WATCHES))) == [("click_element", {"text": link, "role": "link"})]


def test_an_action_said_as_a_noun_is_its_verb() -> None:
    got = steps(plan("trigger a recheck of Wiggle road bikes", screen(WATCHES)))
    assert got[0][0] == "click_element" and got[0][1]["text"] == "Recheck" and "Wiggle road bikes" in got[0][1]["row"]


CUSTOMERS = "django_admin/admin/store/customer/"
NAMES = "#result_list > tbody > tr > th"
CITIES = "#result_list > tbody > tr > td:nth-of-type(3)"


def test_a_name_in_a_rows_header_cell_is_that_column_not_an_email_holding_its_words() -> None:
    # Django's name column is each row's <th>: "Alice Martin" was looked for among the emails, and the run failed
    assert steps(plan("is there a customer named Alice Martin?", screen(CUSTOMERS))) == [
        ("wait_for_element", {"text": "Alice Martin", "selector": NAMES, "present": True})]


def test_a_fact_whose_first_word_begins_a_rows_link_is_no_action_on_that_row() -> None:
    # before: "Bob" was read as a row's verb and the link "Bob Chen" clicked
    assert steps(plan("Bob Chen lives in Boston", screen(CUSTOMERS))) == [
        ("wait_for_element", {"text": "Boston", "row": "Bob Chen", "present": True})]


@pytest.mark.parametrize("task, n", [("2 customers live in Lyon", 2), ("which customers are in Lyon? there should be 2", 2),
                                     ("3 customers come from Lyon", 3)])
def test_a_count_said_without_check_or_asked_with_which_is_checked(task: str, n: int) -> None:
    assert steps(plan(task, screen(CUSTOMERS))) == [
        ("wait_for_element", {"text": "Lyon", "selector": CITIES, "count": n, "present": True})]


def test_a_list_a_tester_would_like_to_see_is_that_list_narrowed() -> None:
    assert steps(plan("I'd like to see all customers based in Lyon", screen(CUSTOMERS))) == [
        ("click_element", {"text": "Lyon", "role": "link"})]


def test_a_value_that_should_now_be_is_a_change_asked_for() -> None:
    p = plan("Bob Chen's email should now be bob@new.example", screen(CUSTOMERS))
    assert steps(p) == [("click_element", {"text": "Bob Chen", "role": "link"})]
    assert p.pending[:2] == ['fill in email "bob@new.example"', "save"]


def test_a_new_record_said_with_its_name_then_its_values_keeps_every_value() -> None:
    # before: the address between commas was dropped, and the record saved without it
    rec = parse_record("a customer: Tom Berg, tom@berg.example, living in Oslo")
    assert (rec.name, rec.fields) == ("Tom Berg", [("email", "tom@berg.example"), ("from", "Oslo")])
    assert restate("register a new customer, Tom Berg, tom@berg.example, living in Oslo") == \
        "register a customer: Tom Berg, tom@berg.example, living in Oslo"


TODOS = "todomvc/index.html#/"


@pytest.mark.parametrize("task, first", [
    ("jot down 'renew passport' as a new todo", ("input_text", "renew passport")),
    ("I've finished calling the plumber", ("set_checked", "Call the plumber")),
    ("Walk the dog isn't done yet, reopen it", ("set_checked", "Walk the dog")),
    ("wipe all the finished ones", ("click_element", "Clear completed")),
    ("remove every todo that is done", ("click_element", "Clear completed")),
])
def test_todo_list_wordings(task: str, first: tuple[str, str]) -> None:
    command, params = steps(plan(task, screen(TODOS)))[0]
    assert command == first[0] and first[1] in (params.get("text"), params.get("row")), (command, params)


def test_a_count_of_open_items_reads_the_apps_counter_of_what_is_left() -> None:
    # before: refused as a list of "open" records (or, earlier, every row counted: done ones too)
    assert steps(plan("how many todos are still open? should be 3", screen(TODOS))) == [
        ("wait_for_element", {"text": "3 items left", "present": True})]


PLANTS = "datasette/nursery/plants"
FAMILY = "body > div:nth-of-type(1) > section > div:nth-of-type(2) > table > tbody > tr > td:nth-of-type(3)"


def test_a_list_that_has_a_number_of_rows_is_counted_not_read_as_a_list_verb() -> None:
    # "the plant list has 9 rows": "list" was read as the verb, and "has 9 rows" looked for as a text
    for task in ("check the plant list has 9 rows", "the plant list should have 9 rows"):
        assert steps(plan(task, screen(PLANTS))) == [("wait_for_element", {"text": "9 rows", "present": True})]


def test_records_that_belong_to_a_value_are_those_showing_it() -> None:
    assert steps(plan("which plants belong to the Araceae family? there should be 2", screen(PLANTS))) == [
        ("wait_for_element", {"text": "Araceae", "selector": FAMILY, "count": 2, "present": True})]


def test_a_count_of_some_rows_said_in_words_no_column_reads_is_refused_not_every_row() -> None:
    p = plan("there should be 3 plants that need full sun", screen(PLANTS))
    assert not p.feasible and "which plants to count" in p.analysis


def test_a_records_own_page_said_with_its_possessive_is_the_record() -> None:
    assert steps(plan("open Basil's record", screen(PLANTS)))[0] == (
        "click_element", {"text": "9", "role": "link", "row": "Basil"})
