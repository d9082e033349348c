"""Tasks as testers word them, planned against real screens of two third-party apps.

The screens are observations of Django's admin and sqlite-web captured by
``python -m evals.capture_screens``; each case asserts the plan a tester would
expect (the end state itself is judged by the eval corpus, on the live apps).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from shared.models import Plan
from shared.screen import ScreenObservation
from tests.unit.test_screen_planning import plan

SCREENS = Path(__file__).resolve().parent.parent / "fixtures" / "screens" / "third_party.json"


@lru_cache(maxsize=None)
def screen(key: str) -> ScreenObservation:
    return ScreenObservation.from_dict(json.loads(SCREENS.read_text())[key])


def first(p: Plan) -> tuple[str, dict]:
    assert p.feasible, p.analysis
    return p.steps[0].command, p.steps[0].params


@pytest.mark.parametrize("task, step", [
    ("Products", ("click_element", {"text": "Products", "role": "link"})),            # a bare name is a click
    ("log out", ("click_element", {"text": "LOG OUT", "role": "button"})),
    ("click on the Add link next to Products",
     ("click_element", {"text": "Add", "role": "link", "row": "Products"})),
    ("is the Customers link there?", ("wait_for_element", {"text": "Customers", "role": "link", "present": True})),
    ("confirm that I see a Products entry", ("wait_for_element", {"text": "Products", "present": True})),
])
def test_on_the_admin_home(task: str, step: tuple[str, dict]) -> None:
    assert first(plan(task, screen("django_admin/admin/"))) == step


@pytest.mark.parametrize("task, step", [
    ("filter by category Toys", ("click_element", {"text": "Toys", "role": "link"})),
    ("show only toys", ("click_element", {"text": "Toys", "role": "link"})),
    ("sort by name", ("sort_table", {"column": "NAME", "order": "any"})),
    ("the list should contain Desk Lamp", ("wait_for_element", {"text": "Desk Lamp", "present": True})),
    ("add product Garden Gnome in Garden priced 19.99", ("click_element", {"text": "ADD PRODUCT", "role": "link"})),
    ("mark Rake as out of stock", ("click_element", {"text": "Rake", "role": "link"})),
    ("uncheck in stock for Rake", ("click_element", {"text": "Rake", "role": "link"})),
])
def test_on_a_django_list(task: str, step: tuple[str, dict]) -> None:
    assert first(plan(task, screen("django_admin/admin/store/product/"))) == step


def test_record_flags_and_lists_of_values_are_read_as_such() -> None:
    flagged = plan("mark Rake as out of stock", screen("django_admin/admin/store/product/"))
    assert flagged.pending == ['fill in stock "no"', "save"]
    added = plan("create a new product: Tea Cup, kitchen, 4.50", screen("django_admin/admin/store/product/"))
    assert added.pending[0] == 'fill in name "Tea Cup", _ "kitchen", _ "4.50"'


def test_on_a_record_page_fields_are_named_as_testers_name_them() -> None:
    page = screen("django_admin/admin/store/customer/1/change/")
    assert first(plan("verify that the name field shows Alice Martin", page)) == (
        "wait_for_element", {"text": "Alice Martin", "role": "textbox", "present": True})
    inactive = plan("make the customer inactive and save", page)
    assert [(s.command, s.params) for s in inactive.steps] == [
        ("set_checked", {"checked": False, "text": "Active", "role": "checkbox"}),
        ("click_element", {"text": "Save", "role": "button"})]          # "and save" is not a second save


@pytest.mark.parametrize("task, step", [
    ("sort by year", ("sort_table", {"column": "year", "order": "any"})),
    ("insert a new row with title Ubik, author Philip K. Dick, year 1969", ("click_element", {"text": "Insert", "role": "link"})),
    ("check that Dune's year is 1965",
     ("wait_for_element", {"text": "1965", "row": "Dune", "present": True})),
])
def test_on_a_sqlite_web_table(task: str, step: tuple[str, dict]) -> None:
    assert first(plan(task, screen("sqlite_web/books/content/"))) == step


def test_queries_as_testers_type_them() -> None:
    page = screen("sqlite_web/query/")
    typed = plan("type SELECT title FROM books WHERE year > 1900 and execute it", page)
    # a query asked with no check of its own ends proving its rows are shown (a failed query shows none)
    assert [s.command for s in typed.steps] == ["input_text", "click_element", "wait_for_element"]
    assert typed.steps[0].params["text"] == "SELECT title FROM books WHERE year > 1900"
    assert plan("run this sql: select * from loans", page).steps[0].params["text"] == "select * from loans"


def test_a_filter_never_clicks_a_column_header() -> None:
    # a false pass: "out of stock" once clicked the IN STOCK column header (a sort) and the run passed
    p = plan("show only products that are out of stock", screen("django_admin/admin/store/product/"))
    assert [(s.command, s.params["text"]) for s in p.steps] == [("click_element", "No")]   # By in stock: No
    assert plan("filter products by in stock", screen("django_admin/admin/store/product/")).steps[0].params["text"] == "Yes"


def test_a_flag_before_the_list_noun_filters_and_never_clicks_the_list_itself() -> None:
    # a false pass: "show only inactive customers" clicked the Customers link (the list, unfiltered) and passed
    customers = screen("django_admin/admin/store/customer/")
    assert [s.params["text"] for s in plan("show only inactive customers", customers).steps] == ["No"]
    assert [s.params["text"] for s in plan("show only customers that are active", customers).steps] == ["Yes"]


@pytest.mark.parametrize("task, step", [
    ("open the first customer", ("click_element", {"text": "Alice Martin", "role": "link"})),   # the list's, not the sidebar's
    ("click the second customer", ("click_element", {"text": "Bob Chen", "role": "link"})),
    ("Bob Chen needs to be deleted", ("click_element", {"text": "Bob Chen", "role": "link"})),
    ("enter Chen in the search box", ("input_text", {"text": "Chen", "field": "searchbar q", "clear": True})),
    ("Kim Lee should not be in the list", ("wait_for_element", {"text": "Kim Lee", "present": False})),
])
def test_on_a_django_customer_list(task: str, step: tuple[str, dict]) -> None:
    assert first(plan(task, screen("django_admin/admin/store/customer/"))) == step


def test_counts_facts_and_questions_on_a_table() -> None:
    table = screen("sqlite_web/books/content/")
    assert first(plan("check the table shows 8 books", table)) == ("wait_for_element", {"role": "row", "count": 8, "present": True})
    assert first(plan("verify that Rebecca is by Daphne du Maurier", table))[1]["row"] == "Rebecca"
    asked = plan("how many rows are there", table)       # a question is not a check: nothing to expect
    assert not asked.feasible and "what to expect" in asked.analysis
    added = plan("register a customer called Kim Lee living in Seoul", screen("django_admin/admin/store/customer/"))
    assert added.pending[0] == 'fill in name "Kim Lee", from "Seoul"'


def test_all_the_records_of_a_list_are_shown_not_only_its_page() -> None:
    # false passes: "show me all the books" and "look at the rows in loans" ended on the table's structure page
    home, structure, content = screen("sqlite_web/"), screen("sqlite_web/books/"), screen("sqlite_web/books/content/")
    for task in ("Could you show me all the books?", "look at the rows in books"):
        p = plan(task, home)
        assert first(p) == ("click_element", {"text": "books", "role": "link"})
        assert p.pending == ['show the records of "books"']
    assert first(plan('show the records of "books"', structure)) == ("click_element", {"text": "Content", "role": "link"})
    assert first(plan('show the records of "books"', content)) == ("wait_for_element", {"role": "row", "present": True})


def test_field_colon_and_moved_to_wordings_are_edits() -> None:
    customers = screen("django_admin/admin/store/customer/")
    for task in ("change Bob Chen city: Denver", "Bob Chen moved to Denver, update his city"):
        p = plan(task, customers)
        assert first(p) == ("click_element", {"text": "Bob Chen", "role": "link"})
        assert p.pending[0] == 'fill in city "Denver"'
    edited = plan("update Emma: year 1816", screen("sqlite_web/books/content/"))
    assert first(edited)[1] == {"text": "Edit", "role": "link", "row": "Emma"}


def test_paths_typos_negations_and_what_it_refers_to() -> None:
    home = screen("django_admin/admin/")
    assert first(plan("got to products", home)) == ("click_element", {"text": "Products", "role": "link"})
    path = plan("Customers -> Add", home)
    assert first(path) == ("click_element", {"text": "Customers", "role": "link"}) and path.pending == ["click Add"]
    assert plan("open products > Blue Mug", home).pending == ["open Blue Mug"]
    assert plan("go to products and verify Blue Mug is there, then open it", home).pending == [
        "verify Blue Mug is there", "open it"]   # read on the list of products, then "it" is Blue Mug
    assert plan("make sure no error is displayed", home).steps[-1].params == {"text": "error", "present": False}
    form = screen("django_admin/admin/store/customer/1/change/")
    assert first(plan("replace the name with Alicia", form)) == (
        "input_text", {"text": "Alicia", "field": "Name:", "clear": True})
    assert first(plan("check the Active box is ticked", form)) == (
        "wait_for_element", {"text": "Active", "state": "checked", "present": True})


def test_python_docs_browser_search_topics_and_lookalike_names() -> None:
    home = screen("pydoc/")
    searched = plan("search for urllib", home)
    # the unlabelled field of the form whose button says Search (not the one beside "Get")
    assert searched.steps[0].command == "input_text" and "form:nth-of-type(2)" in searched.steps[0].params["selector"]
    topic = plan("open the topic CLASSES", home)
    assert first(topic) == ("click_element", {"text": "Topics", "role": "link"}) and topic.pending == ["open CLASSES"]
    assert first(plan("open CLASSES", screen("pydoc/topics.html"))) == ("click_element", {"text": "CLASSES", "role": "link"})
    # pydoc's index names json "json (package)", beside "_json", which merely reads the same: the link named json
    # with its aside is opened, and the page must be json's (a false pass once: "/_json.html" was read as json)
    looked = plan("open the json module", home)
    assert first(looked) == ("click_element", {"text": "json (package)", "role": "link"})
    assert looked.steps[-1].command == "wait_for_page" and looked.steps[-1].params["name"] == "json"
    assert not home.truncated   # the whole index is read (up to 1500 elements)


def _steps(p: Plan) -> list[tuple[str, dict]]:
    assert p.feasible, p.analysis
    return [(s.command, s.params) for s in p.steps]


def test_a_filter_row_of_column_operator_and_value() -> None:
    plants = screen("datasette/nursery/plants")
    for task in ("filter the plants where family is Lamiaceae", "show plants whose family is Lamiaceae",
                 "list the plants with family Lamiaceae"):
        assert _steps(plan(task, plants))[:4] == [
            ("select_option", {"option": "family", "field": "filter column"}),
            ("select_option", {"option": "=", "field": "filter op"}),
            ("input_text", {"text": "Lamiaceae", "field": "filter value", "clear": True}),
            ("click_element", {"text": "Apply", "role": "button"})], task
    contains = _steps(plan("find plants whose name contains lily", plants))
    assert contains[1] == ("select_option", {"option": "contains", "field": "filter op"})
    # the rows left show the value in a cell: the filter's own field, or the page's "where name contains
    # lily", would show it with no row left
    assert contains[-1] == ("wait_for_element", {"text": "lily", "role": "cell", "present": True})
    over = _steps(plan("filter by height_cm greater than 100", plants))
    assert over[1][1]["option"] == ">" and over[-1][0] == "click_element"   # the rows left need not show "100"
    value_first = _steps(plan("show only plants with full sun light", plants))
    assert value_first[0][1]["option"] == "light" and value_first[2][1]["text"] == "full sun"
    # "low light" is a value the light column shows, so it is the value, not "low" (which matched no row, and
    # passed on the page's own "light = low")
    whole = _steps(plan("only show plants with low light", plants))
    assert whole[0][1]["option"] == "light" and whole[2][1]["text"] == "low light"
    assert whole[-1] == ("wait_for_element", {"text": "low light", "role": "cell", "present": True})
    # from the start page: the list first, then the filter (closed loop)
    assert plan("find plants whose name contains lily", screen("datasette/")).pending


def test_a_record_shown_as_plain_text_opens_through_its_rows_link() -> None:
    plants = screen("datasette/nursery/plants")
    for task in ("open Basil", "open the plant Basil", "open the row of the plant Basil"):
        assert _steps(plan(task, plants)) == [
            ("click_element", {"text": "9", "role": "link", "row": "Basil"}),
            ("wait_for_element", {"text": "Basil", "present": True})], task
    assert first(plan("view the row of the book Kindred", screen("sqlite_web/books/content/")))[1]["text"] == "View"


def test_names_with_and_icons_and_breadcrumbs() -> None:
    plants = screen("datasette/nursery/plants")
    # "View and edit SQL" is one link (shown with an icon), not two clauses
    assert _steps(plan("click View and edit SQL", plants)) == [
        ("click_element", {"text": "✎ View and edit SQL", "role": "link"})]
    # the breadcrumb links of a nav bar whose links float (the nav itself has no height) are seen
    assert first(plan("go back to the home page", plants)) == ("click_element", {"text": "home", "role": "link"})


def test_sql_in_a_code_editor_and_facts_about_a_record() -> None:
    database = screen("datasette/nursery")
    ran = _steps(plan("execute select count(*) from deliveries in the query box", database))
    assert ran == [("input_text", {"text": "select count(*) from deliveries", "field": "sql editor", "clear": True}),
                   ("click_element", {"text": "Run SQL", "role": "button"}),
                   ("wait_for_element", {"role": "row", "present": True})]
    assert first(plan("query the nursery database with select company from suppliers", screen("datasette/"))) == (
        "click_element", {"text": "nursery", "role": "link"})
    suppliers = screen("datasette/nursery/suppliers")
    assert _steps(plan("check that Bloom & Co is located in Paris", suppliers)) == [
        ("wait_for_element", {"text": "Paris", "row": "Bloom & Co", "present": True})]
    # where a record is listed is a presence check, not a fact about its row
    assert _steps(plan("Basil should be in the plants table", screen("datasette/nursery/plants"))) == [
        ("wait_for_element", {"text": "Basil", "present": True})]
    assert _steps(plan("Desk Lamp is in the list", screen("django_admin/admin/store/product/"))) == [
        ("wait_for_element", {"text": "Desk Lamp", "present": True})]


TODO = "todomvc/index.html#/"


def steps(p: Plan) -> list[tuple[str, dict]]:
    assert p.feasible, p.analysis
    return [(s.command, s.params) for s in p.steps]


def test_a_bulk_control_is_named_by_a_sentence_around_its_label() -> None:
    """TodoMVC: "Clear completed (1)" and "Mark all as complete" said the way a tester says them."""
    for task in ("clear every completed item", "remove all the completed todos"):
        assert first(plan(task, screen(TODO))) == \
            ("click_element", {"text": "Clear completed", "role": "button"})   # the count in the label is not kept
    ticked = steps(plan("please mark all items as complete", screen(TODO)))
    assert ticked[0] == ("set_checked", {"checked": True, "text": "Mark all as complete", "role": "checkbox"})
    assert ticked[-1][1]["state"] == "checked"
    # a clause that names an item is that item's own checkbox, not the bulk one
    assert steps(plan("mark Pay rent as complete", screen(TODO)))[0][1].get("row") == "Pay rent"


def test_list_wordings_on_a_todo_list() -> None:
    assert first(plan("new item: defrost the freezer", screen(TODO)))[1]["text"] == "defrost the freezer"
    assert first(plan('put "water the ferns" on my list', screen(TODO)))[1]["text"] == "water the ferns"
    assert first(plan("just show me the active entries", screen(TODO))) == \
        ("click_element", {"text": "Active", "role": "link"})
    assert first(plan("filter down to finished todos", screen(TODO))) == \
        ("click_element", {"text": "Completed", "role": "link"})   # never "TodoMVC", a link off the app
    delete_all = steps(plan("remove all of them", screen(TODO)))
    assert [s[1]["row"] for s in delete_all if s[0] == "click_element"] == \
        ["Buy milk", "Walk the dog", "Call the plumber", "Pay rent"]
    assert all(s == ("wait_for_element", {"text": s[1]["text"], "present": False}) for s in delete_all[4:])
    hovered = plan("move the mouse over Buy milk, then press its remove icon", screen(TODO))
    assert steps(hovered)[-1] == ("click_element", {"text": "destroy", "role": "button", "row": "Buy milk"})


def test_a_counter_the_app_shows_is_checked_with_the_number_asked() -> None:
    assert first(plan("two items remain", screen(TODO))) == \
        ("wait_for_element", {"text": "2 items left", "present": True})
    assert first(plan("confirm the item counter reads 3 items left", screen(TODO))) == \
        ("wait_for_element", {"text": "3 items left", "present": True})
    # a count of the list's items counts the main list, not the filters beside it
    assert first(plan("verify exactly 4 todos are listed", screen(TODO))) == \
        ("wait_for_element", {"selector": "#todo-list > li", "count": 4, "present": True})


def test_questions_and_statements_about_a_row_are_checks_never_ticks() -> None:
    for task, state in (("is buy milk done?", "checked"), ('ensure "Call the plumber" is not completed', "unchecked"),
                        ("Walk the dog should be crossed out", "checked")):
        p = steps(plan(task, screen(TODO)))
        assert [c for c, _ in p] == ["wait_for_element"], (task, p)
        assert p[0][1]["state"] == state
    assert first(plan("toggle pay rent", screen(TODO))) == \
        ("set_checked", {"checked": True, "row": "Pay rent", "role": "checkbox"})     # it is not done now
    assert first(plan("toggle walk the dog", screen(TODO)))[1]["checked"] is False   # it is done now
    every = steps(plan("untick everything", screen(TODO)))
    assert [p["row"] for c, p in every if c == "set_checked"] == \
        ["Buy milk", "Walk the dog", "Call the plumber", "Pay rent"]


def test_items_added_one_after_another_and_the_field_called_the_input() -> None:
    added = steps(plan("add butter, jam and toast to my list", screen(TODO)))
    assert [p["text"] for c, p in added if c == "input_text"] == ["butter", "jam", "toast"]
    assert added[-1] == ("wait_for_element", {"text": "toast", "present": True})
    assert first(plan("add stamps", screen(TODO)))[1]["text"] == "stamps"     # never an empty item
    typed = steps(plan("enter 'buy stamps' in the input and hit enter", screen(TODO)))
    assert typed[0][1]["text"] == "buy stamps" and typed[-1] == ("press_key", {"key": "OK"})
    edited = steps(plan("edit buy milk so it reads buy oat milk", screen(TODO)))
    assert edited[1][1]["text"] == "buy oat milk"


def test_a_record_named_by_one_word_of_its_title_is_that_row_when_only_it_has_the_word() -> None:
    p = plan("open the battery ticket", screen("trac/report/1"))
    assert first(p) == ("click_element", {"text": "Remote battery warning", "role": "link"})
    # a table's header names columns: "the channel ticket" never clicks the "Ticket" column's sort link
    p = plan("open the channel ticket", screen("trac/report/1"))
    assert not any(str(s.params.get("row", "")).startswith("Ticket Summary") for s in p.steps), p.steps
