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


def test_the_reviews_false_passes_on_other_apps_stay_closed() -> None:
    from server.planners import grounding
    from shared.screen import ScreenObservation, UIElement

    # a box for a commit's message is the app's data, no chat
    assert not grounding.conversation_box(UIElement("textbox", name="Commit message"))
    assert grounding.conversation_box(UIElement("textbox", placeholder="Ask a question..."))
    # a greyed "Delete done tasks" deletes what is done, not what is picked: never used for one task
    todo = ScreenObservation("web", "http://todo.test/", "Tasks", (
        UIElement("heading", name="Tasks", level=1),
        UIElement("button", name="Delete done tasks", disabled=True),
        UIElement("row", text="Walk the dog"), UIElement("checkbox", name="Mark Walk the dog done", container="Walk the dog",
                                                         checked=False),
        UIElement("row", text="Pay rent"), UIElement("checkbox", name="Mark Pay rent done", container="Pay rent",
                                                     checked=False)))
    assert not any(s.command == "set_checked" for s in plan("delete Walk the dog", todo).steps)
    # a link to the archive of tasks is not the list of tasks: the search shown here is used
    tasks = ScreenObservation("web", "http://todo.test/", "Home", (
        UIElement("heading", name="Home", level=1), UIElement("textbox", placeholder="Search tasks"),
        UIElement("link", name="Archived tasks", href="/tasks/archived")))
    assert steps(plan("search tasks for milk", tasks))[0] == (
        "input_text", {"text": "milk", "field": "Search tasks", "clear": True, "submit": True})
    # "reload" is the browser's; a "Refresh Build" rebuilds something
    cms = ScreenObservation("web", "http://cms.test/admin/", "Admin", (
        UIElement("heading", name="Pages", level=1), UIElement("button", name="Refresh Build"),
        UIElement("link", name="Home", href="/admin/home")))
    assert steps(plan("reload", cms)) == [("reload", {})]
    assert steps(plan("refresh the pages", cms)) == [("reload", {})]
    # a list of people after "to" is one name after another
    merged = builtin._merge_attributes(split_clauses("set the nosy list to alice, bob and carol", []), frozenset(),
                                       "set the nosy list to alice, bob and carol")
    assert merged == ["set the nosy list to alice, bob, carol"]


def test_a_hover_tool_that_edits_another_part_is_not_the_rows_edit() -> None:
    # "Edit tags" of an experiment's row is shown on hover: renaming it is never a tag
    got = steps(plan("rename churn-model to churn-v2", screen("model-lab/experiments")))
    assert got and got[0][1].get("text") != "Edit tags"
