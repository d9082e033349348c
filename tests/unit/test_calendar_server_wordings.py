"""A calendar server's page of collections as testers word their tasks (Radicale, never seen before), on captured
screens.

Its collections are cards, each with a heading, a read-only box with its address and tools shown on hover (Edit,
Delete, named by their tooltips); a deletion asks for the phrase DELETE typed first. Each case is a general rule the
batch showed missing; four of them were false passes.
"""
from __future__ import annotations

from server.planners import builtin
from server.planners.language import split_clauses
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

CARDS, ASKS, FORM = "calendar-server/collections", "calendar-server/delete", "calendar-server/create"


def test_a_deletion_that_asks_for_a_phrase_types_it_and_its_question_must_be_answered() -> None:
    # before: Delete was clicked with the box empty, the app kept asking, and the hidden list "lacked" the row
    assert steps(plan('if asked confirm the deletion of the row "Work"', screen(ASKS))) == [
        ("input_text", {"text": "DELETE", "field": "Delete Collection", "clear": True}),
        ("click_element", {"text": "Delete", "role": "button"}),
        ("wait_for_element", {"text": "Delete Collection", "role": "heading", "present": False}),
        ("wait_for_element", {"row": "Work", "present": False})]


def test_a_box_that_only_shows_an_address_is_never_typed_into() -> None:
    # before: "create a calendar called Holidays" typed the name into a card's read-only address box
    p = plan("create a new calendar called Holidays", screen(CARDS))
    assert steps(p) == [("click_element", {"text": "Create a new addressbook or calendar", "role": "link"})]
    assert p.pending[0] == 'fill in name "Holidays", if offered "calendar"'
    p = plan("rename the Work calendar to Office", screen(CARDS))
    assert steps(p) == [("click_element", {"text": "Edit", "role": "link", "row": "Work"})]   # shown on hover


def test_a_kind_of_two_words_is_the_option_the_form_offers() -> None:
    # before: "an address book" made a calendar (the form's default), and the name alone passed the check
    p = plan("add an address book named Suppliers with the description Parts vendors", screen(CARDS))
    fill = p.pending[0]
    assert 'if offered "address book"' in fill
    assert ("select_option", {"option": "Address book", "field": "Type"}) in steps(plan(fill, screen(FORM)))
    p = plan('set up a new collection "Sprint board" of type Tasks', screen(CARDS))
    assert p.pending[0] == 'fill in name "Sprint board", type "Tasks"'


def test_the_apps_own_refresh_is_used_for_its_list_and_the_browsers_for_the_page() -> None:
    # before: a reload of the browser lost the sign-in, and passed with nothing checked
    assert steps(plan("refresh the collections", screen(CARDS))) == [
        ("click_element", {"text": "Refresh", "role": "link"})]
    assert steps(plan("reload the page", screen(CARDS))) == [("reload", {})]


def test_the_cards_headings_name_their_records_not_the_page() -> None:
    p = plan("change the description of Family to Birthdays, trips and holidays", screen(CARDS))
    assert steps(p) == [("click_element", {"text": "Edit", "role": "link", "row": "Family"})]
    # the value as written: never "Birthdays, trips, holidays"
    assert p.pending[0] == 'fill in description "Birthdays, trips and holidays"'
    assert steps(plan("verify the Work calendar says Meetings and deadlines", screen(CARDS))) == [
        ("wait_for_element", {"text": "Meetings and deadlines", "row": "Work", "present": True})]


def test_words_listed_after_to_stay_one_value_but_tags_are_one_after_another() -> None:
    def merged(task: str) -> list[str]:
        return builtin._merge_attributes(split_clauses(task, []), frozenset(), task)

    assert merged("change the description of Family to Birthdays, trips and holidays") == [
        "change the description of Family to Birthdays, trips and holidays"]
    assert merged("set the tags of Dune to scifi, classic and desert") == ["set the tags of Dune to scifi, classic, desert"]
    assert merged("add a product called Tea Cup, category Kitchen, price 4.50") == [
        "add a product called Tea Cup, category Kitchen, price 4.50"]


def test_signing_back_in_after_signing_out_is_planned_on_the_sign_in_form() -> None:
    p = plan("log out and sign back in as bob with the password secret", screen(CARDS))
    assert steps(p) == [("click_element", {"text": "Logout", "role": "link"})]
    assert p.pending == ['log in as "bob" with password "secret"']
