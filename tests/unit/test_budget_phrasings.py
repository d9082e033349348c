"""Tester wordings on a shared-budget app's real screens (I Hate Money, captured by evals/capture_screens.py).

Items of a closed menu, a row's tools that show on hover, a record named with its kind after it ("the
rent bill"), the one "Add …" field that adds another kind, inline confirmation, relations stated in
words and read from a row, and numbers with thousands separators. The wordings are not those of the
evaluation corpus.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

BILLS, SETTLE, STATS, ADD = ("ihatemoney/flatshare/", "ihatemoney/flatshare/settle_bills",
                             "ihatemoney/flatshare/statistics", "ihatemoney/flatshare/add")


def test_closed_menu_items_and_hover_tools_are_on_the_screen() -> None:
    bills = screen(BILLS)
    menu = [e for e in bills.elements if e.hidden and not e.container]
    assert {"History", "Settings", "Français"} <= {e.name for e in menu}
    tools = [e for e in bills.elements if e.hidden and e.container == "Chloe -308.68"]
    assert sorted(e.name for e in tools) == ["deactivate", "edit"]


def test_a_phrase_less_a_word_of_kind_or_context_names_what_the_screen_shows() -> None:
    # "history" is an item of the project's menu; the resolver opens the menu at run time
    assert steps(plan("show the project's history", screen(BILLS)))[0] == \
        ("click_element", {"text": "History", "role": "link"})
    # a row whose only link says "edit": the record's own page
    assert steps(plan("open the rent bill", screen(BILLS)))[0] == \
        ("click_element", {"text": "edit", "role": "link", "row": "Rent"})
    got = steps(plan("get rid of the groceries expense", screen(BILLS)))
    assert got[0][1]["row"] == "Groceries" and got[0][1]["text"] == "delete"


def test_a_soft_delete_keeps_the_row_and_checks_its_tool_is_gone() -> None:
    p = plan("remove Chloe", screen(BILLS))
    assert steps(p)[0] == ("click_element", {"text": "deactivate", "role": "button", "row": "Chloe -308.68"})
    assert p.pending == ['if asked confirm the deactivation of the row "Chloe"']


def test_the_field_that_adds_another_kind_is_not_this_records_way_in() -> None:
    # "Add participant" is no place for a bill: the control that adds bills is
    assert steps(plan("create a bill called Bus pass, 20, paid by Chloe", screen(BILLS)))[0] == \
        ("click_element", {"text": "Add a new bill", "role": "link"})
    assert not plan("register the refund from Bob to Dan", screen(BILLS)).feasible   # no refund form here
    # a participant is: and a name after "add" with no kind is one
    assert steps(plan("add Zoe Park to the project", screen(BILLS)))[0] == \
        ("input_text", {"text": "Zoe Park", "field": '_("Add participant")', "clear": True, "submit": True})


def test_a_form_is_filled_by_the_shape_of_each_value() -> None:
    got = steps(plan('fill in name "Bus pass", _ "20", by "Chloe"', screen(ADD)))
    assert ("input_text", {"text": "Bus pass", "field": "What?", "clear": True}) in got   # not the date field
    assert ("input_text", {"text": "20", "field": "How much?", "clear": True}) in got
    assert ("select_option", {"option": "Chloe", "field": "Who paid?"}) in got


def test_a_relation_in_words_is_read_from_one_row_in_its_order() -> None:
    assert steps(plan("make sure Chloe pays Bob 308.68", screen(SETTLE))) == [
        ("wait_for_element", {"row": "Chloe Bob 308.68 Register settlement", "present": True})]
    # the other way round is no row: the words themselves are checked, and are not shown
    assert steps(plan("make sure Bob pays Chloe 308.68", screen(SETTLE))) == [
        ("wait_for_element", {"text": "Bob pays Chloe 308.68", "present": True})]


def test_thousands_separators_and_membership_questions() -> None:
    p = plan("open the statistics and check that November 2026 totals 1,390.70", screen(BILLS))
    assert p.pending == ["check that November 2026 totals 1,390.70"]
    assert steps(plan("is Dan a member of the flat?", screen(BILLS))) == [
        ("wait_for_element", {"text": "Dan", "present": True})]
