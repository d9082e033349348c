"""Tester phrasings on captured screens. Counts with a value ("2 customers live in Lyon"), a count asked as a question with the answer expected, a record
looked up in an app with no search, and a list operation said after the step that opens the list. On captured
Django admin screens; the wordings are the tests' own, not the corpus's."""
from __future__ import annotations

import pytest

from server.planners.restating import restate
from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

HOME = "django_admin/admin/"
CUSTOMERS = "django_admin/admin/store/customer/"


@pytest.mark.parametrize("task", [
    "check there are 2 customers in Lyon",
    "make sure that 2 customers live in Lyon",
    "verify there are two customers from Lyon",
    "how many customers live in Lyon? there should be 2",
])
def test_a_count_with_a_value_counts_the_rows_that_show_it_not_every_row(task: str) -> None:
    (cmd, params), = steps(plan(task, screen(CUSTOMERS)))
    assert cmd == "wait_for_element" and params["text"] == "Lyon" and params["count"] == 2, (task, params)


def test_a_count_whose_words_name_no_value_counts_the_whole_list() -> None:
    (cmd, params), = steps(plan("check there are 4 customers in the list", screen(CUSTOMERS)))
    assert params.get("count") == 4 or params.get("text", "").startswith("4 customers"), params
    assert "Lyon" not in str(params)


@pytest.mark.parametrize("question, check", [
    ("how many customers live in Lyon? there should be 2", "check there are 2 customers in Lyon"),
    ("How many products are there? Should be 4.", "check there are 4 products"),
    ("how many tickets are open? it must be three", "check that three tickets are open"),
    ("how many todos are left? should be 2", "check that 2 todos are left"),
])
def test_a_count_asked_with_its_answer_is_the_count_checked(question: str, check: str) -> None:
    assert restate(question) == check


def test_a_question_with_no_answer_expected_is_still_refused() -> None:
    assert not plan("how many customers live in Lyon?", screen(CUSTOMERS)).feasible


@pytest.mark.parametrize("task", ["look up Emma Schmidt", "find Emma Schmidt", "search for blue mug"])
def test_looking_up_a_record_where_no_search_is_looks_through_the_lists_not_another_site(task: str) -> None:
    p = plan(task, screen(HOME))
    assert p.feasible and p.pending and p.pending[0].startswith("look through the lists for"), (task, p.pending)
    clicked = [params["text"] for cmd, params in steps(p)]
    assert "VIEW SITE" not in clicked, clicked


def test_sorting_said_after_opening_the_list_is_planned_on_the_list() -> None:
    p = plan("go into products and sort them by price", screen(HOME))
    assert p.feasible and steps(p)[0] == ("click_element", {"text": "Products", "role": "link"})
    assert p.pending and p.pending[0].startswith("sort")
    assert steps(plan(p.pending[0], screen("django_admin/admin/store/product/"))) == [
        ("sort_table", {"column": "PRICE", "order": "any"})]


@pytest.mark.parametrize("task, counter", [
    ("how many todos are left? should be 2", "2 items left"),
    ("check 2 tasks remain", "2 items left"),
    ("verify one todo is left", "1 item left"),
])
def test_things_left_are_read_from_the_app_s_own_counter_in_its_words(task: str, counter: str) -> None:
    (cmd, params), = steps(plan(task, screen("todomvc/index.html#/")))
    assert (cmd, params["text"]) == ("wait_for_element", counter), task


def test_things_left_with_no_counter_on_screen_are_not_counted_as_every_row() -> None:
    p = plan("check that 2 customers are left", screen(CUSTOMERS))
    assert not p.feasible and "left" in p.analysis


@pytest.mark.parametrize("task, value", [
    ("how many bookmarks are tagged news? should be 2", "news"),
    ("check there are 2 bookmarks tagged with news", "news"),
])
def test_a_count_of_things_tagged_a_value_counts_the_rows_that_show_it(task: str, value: str) -> None:
    (cmd, params), = steps(plan(task, screen("buku/bookmark/")))
    assert (params["text"], params["count"]) == (value, 2), task


@pytest.mark.parametrize("task, value", [
    ("make sure no bookmark points to example.net", "example.net"),
    ("verify nobody lives in Lyon", "Lyon"),
    ("check none of the bookmarks is tagged film", "film"),
])
def test_a_value_no_record_has_is_checked_not_shown(task: str, value: str) -> None:
    (cmd, params), = steps(plan(task, screen("buku/bookmark/")))
    assert (cmd, params["text"], params["present"]) == ("wait_for_element", value, False), task


def test_a_verb_said_with_its_particle_clicks_the_control_the_verb_names() -> None:
    assert steps(plan("settle up", screen("ihatemoney/flatshare/")))[0] == (
        "click_element", {"text": "Settle", "role": "link"})


@pytest.mark.parametrize("task", ["add a bill: Bob paid 30 for pizza", "log an expense - Bob spent 30 on pizza"])
def test_an_expense_said_after_the_kind_and_a_colon_is_the_expense(task: str) -> None:
    assert restate(task) == "add an expense 'pizza' of 30 paid by Bob"


@pytest.mark.parametrize("task, check", [
    ("open the books table and count the rows; there should be 6", "open the books table and check there are 6 rows"),
    ("count the todos - should be 4", "check there are 4 todos"),
])
def test_count_them_with_the_number_expected_is_the_count_checked(task: str, check: str) -> None:
    assert restate(task) == check


@pytest.mark.parametrize("task", ["add https://example.com/pricing", "add a watch for https://example.com/pricing",
                                  "add https://example.com/pricing to the list"])
def test_a_value_added_where_the_list_s_one_field_takes_it_is_typed_there_and_submitted(task: str) -> None:
    assert steps(plan(task, screen("changedetection/")))[0] == (
        "input_text", {"text": "https://example.com/pricing", "field": "Web page URL", "clear": True, "submit": True})


@pytest.mark.parametrize("task, column, value", [
    ("how many issues are assigned to admin? should be 3", 6, "admin"),    # Assigned To, not Creator (admin too)
    ("check 2 issues were created by alice", 5, "alice"),                   # Creator
])
def test_a_count_by_a_person_counts_the_column_the_participle_names(task: str, column: int, value: str) -> None:
    (cmd, params), = steps(plan(task, screen("roundup/tracker/")))
    assert params["selector"].endswith(f"tr > td:nth-of-type({column})") and params["text"] == value, params


def test_a_count_by_a_person_no_column_names_is_refused_not_counted_anywhere_in_the_row() -> None:
    p = plan("check 2 issues were written by alice", screen("roundup/tracker/"))
    assert not p.feasible and "no column" in p.analysis


def test_a_count_with_a_value_counts_the_cells_of_the_one_column_that_shows_it() -> None:
    (cmd, params), = steps(plan("check there are 2 customers in Lyon", screen(CUSTOMERS)))
    assert params["selector"].endswith("tr > td:nth-of-type(3)")


def test_a_count_in_a_group_the_screen_links_to_opens_that_group_first() -> None:
    p = plan("check that the Software releases group has 4 watches", screen("changedetection/"))
    assert steps(p) == [("click_element", {"text": "Software releases", "role": "link"})]
    assert p.pending == ["check there are 4 watches"]


def test_a_name_is_not_typed_into_a_field_that_takes_a_web_address() -> None:
    p = plan("create a group called Bike shows", screen("changedetection/"))
    assert ("input_text", {"text": "Bike shows", "field": "Web page URL", "clear": True, "submit": True}) not in steps(p)
    assert steps(p)[0] == ("click_element", {"text": "Watch Groups", "role": "link"})


def test_a_list_named_with_its_kind_of_screen_is_that_list() -> None:
    assert steps(plan("show me the deliveries table", screen("datasette/"))) == [
        ("click_element", {"text": "deliveries", "role": "link"}), ("wait_for_page", {"name": "deliveries", "present": True})]


@pytest.mark.parametrize("question, check", [
    ("what milestone is ticket 2 in? should be milestone1", "check the milestone of ticket 2 is milestone1"),
    ("What is the price of the Blue Mug? It should be 12.50", "check the price of the Blue Mug is 12.50"),
    ("which city is Emma Schmidt from? should be Berlin.", "check the city of Emma Schmidt is Berlin"),
])
def test_a_value_asked_with_its_answer_is_the_value_checked(question: str, check: str) -> None:
    assert restate(question) == check


def test_a_field_of_a_record_on_its_own_page_with_no_label_is_its_value_shown() -> None:
    for task in ("check the status of ticket 1 is new", "check ticket 1's status is new"):
        (cmd, params), = steps(plan(task, screen("trac/ticket/1")))
        assert params["text"] == "new" and params["selector"].startswith("#ticketbox"), task


@pytest.mark.parametrize("task, parts", [
    ("update the city to Munich, then save and check the list shows Munich",
     ["update the city to Munich", "save", "check the list shows Munich"]),
    ("select French, then click Save", ["select French", "click Save"]),
    ("run UPDATE books SET year = 1966 WHERE id = 1, then check 1966 is shown",
     ["run UPDATE books SET year = 1966 WHERE id = 1", "check 1966 is shown"]),
])
def test_only_a_statement_shaped_like_sql_is_held_whole(task: str, parts: list[str]) -> None:
    from server.planners.language import split_clauses

    assert split_clauses(task, []) == parts


@pytest.mark.parametrize("task, said", [
    ("On MDN Web Docs change the title to MDN", "change the title of MDN Web Docs to MDN"),
    # a second change would lose whose it is as a clause of its own: left as said
    ("On MDN Web Docs change the title to MDN and add the tag javascript",
     "On MDN Web Docs change the title to MDN and add the tag javascript"),
    ("For ticket 3, set the priority to major", "set the priority of ticket 3 to major"),
    # a place is no record whose field changes: the place is gone to first
    ("on the home page, change the title to X", "open the home page, then change the title to X"),
])
def test_a_record_said_first_is_the_record_whose_field_changes(task: str, said: str) -> None:
    assert restate(task) == said


def test_the_field_changed_is_not_taken_for_a_list_to_open() -> None:
    p = plan("change the title of MDN Web Docs to MDN", screen("buku/bookmark/"))
    assert ("click_element", {"text": "title", "role": "link"}) not in steps(p)


def test_a_name_not_on_this_page_of_a_paged_list_is_not_proved_absent_by_this_page() -> None:
    p = plan("check MDN Web Docs is not shown", screen("buku/bookmark/"))   # 12 bookmarks, 10 a page
    assert not p.feasible and "page" in p.analysis
    # shown here, the check is sound: it fails while the row stays
    assert steps(plan('check that "Hacker News" is not listed', screen("buku/bookmark/"))) == [
        ("wait_for_element", {"text": "Hacker News", "present": False})]
    # said as gone after its deletion: the page it was deleted from
    assert steps(plan('check "Hacker News" is gone', screen("buku/bookmark/"))) == [
        ("wait_for_element", {"text": "Hacker News", "present": False})]
    # a list on one page: the page is the whole list
    assert steps(plan("check that Zed Zebra is not listed", screen(CUSTOMERS))) == [
        ("wait_for_element", {"text": "Zed Zebra", "present": False})]


def test_a_tag_added_to_a_record_is_refused_not_a_new_record_made() -> None:
    p = plan("add the tag javascript to MDN Web Docs", screen("buku/bookmark/"))
    assert not p.feasible and "set the tags of MDN Web Docs" in p.analysis


def test_a_record_past_the_first_page_is_looked_for_on_the_next_page_first() -> None:
    p = plan("change the title of MDN Web Docs to MDN", screen("buku/bookmark/"))
    assert steps(p) == [("click_element", {"text": ">", "role": "link"})]
    assert p.pending[0].startswith('look through the lists for "MDN Web Docs"')


@pytest.mark.parametrize("task, row", [("delete the Rent bill", "Rent"), ("remove the Electricity expense", "Electricity")])
def test_a_record_named_before_its_kind_is_that_record_not_a_list_named_after_it(task: str, row: str) -> None:
    p = plan(task, screen("ihatemoney/flatshare/"))
    (cmd, params), = steps(p)
    assert cmd == "click_element" and params["text"] == "delete" and params["row"] == row, params
