"""Data-app phrasings on captured Datasette screens: a column named by the words a person says of it
("height" for ``height_cm``), comparatives of a measure ("taller than 100 cm", "under 50 cm tall"), a fact stated
bare or asked back ("Basil needs full sun", "…, right?"), and a record named with its kind ("the Basil row").
The wordings are the tests' own, not the corpus's."""
from __future__ import annotations

import pytest

from server.planners.filter_builder import named_column
from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

PLANTS = "datasette/nursery/plants"
HOME = "datasette/nursery"


def test_a_column_is_named_by_its_leading_or_whole_words_only_when_one_column_fits() -> None:
    assert named_column("height", ["id", "name", "height_cm"]) == "height_cm"
    assert named_column("price", ["id", "unit_price", "name"]) == "unit_price"
    assert named_column("date", ["start_date", "end_date"]) is None     # two fit: neither is guessed
    assert named_column("colour", ["id", "name"]) is None
    assert steps(plan("sort the plants by height", screen(PLANTS))) == [
        ("sort_table", {"column": "height_cm", "order": "any"})]


@pytest.mark.parametrize("task, op, value", [
    ("show plants taller than 100 cm", ">", "100"),
    ("only plants under 50 cm tall", "<", "50"),
    ("list the plants that are shorter than 1,000", "<", "1000"),
    ("filter to plants with a height above 100", ">", "100"),
])
def test_a_comparative_of_a_measure_filters_on_the_column_that_measures_it(task: str, op: str, value: str) -> None:
    assert steps(plan(task, screen(PLANTS)))[:3] == [
        ("select_option", {"option": "height_cm", "field": "filter column"}),
        ("select_option", {"option": op, "field": "filter op"}),
        ("input_text", {"text": value, "field": "filter value", "clear": True})], task


def test_a_measure_the_table_has_no_column_for_is_not_guessed() -> None:
    assert not plan("show plants heavier than 2 kg", screen(PLANTS)).feasible


def test_a_fact_said_bare_or_asked_back_is_checked_in_the_record_s_row() -> None:
    for task, value in (("Basil needs full sun", "full sun"), ("Rosemary belongs to the Lamiaceae family, right?",
                                                              "Lamiaceae")):
        (cmd, params), = steps(plan(task, screen(PLANTS)))
        assert (cmd, params["text"], params["present"]) == ("wait_for_element", value, True), task
    # not on this screen: the lists are looked through for the record the fact is about
    p = plan("Rosemary belongs to the Lamiaceae family right?", screen(HOME))
    assert p.pending[0].startswith('look through the lists for "Rosemary"')
    # a clause that only shares a row's words is no statement ("export" here is a word of a row, not a fact)
    assert not plan("export every plant to a PDF file", screen(PLANTS)).feasible
    # a capitalised unknown verb is still an unknown verb
    assert "do not know how to 'frobnicate'" in plan("Frobnicate items", screen(HOME)).analysis


def test_a_record_said_with_its_kind_is_looked_for_in_the_lists_whatever_its_name() -> None:
    for task in ("I'd like to see the Basil row", "open the Basil record", "show me the Peace Lily entry"):
        p = plan(task, screen(HOME))
        assert p.pending[0].startswith('look through the lists for "'), task
    assert not plan("open Billing", screen(HOME)).feasible   # one word, said with no kind: not a record's name


DJANGO_HOME = "django_admin/admin/"
PRODUCTS = "django_admin/admin/store/product/"


def test_an_ordinal_with_a_kind_is_taken_from_the_list_of_that_kind() -> None:
    # the home page lists the app's models: "the second customer" is no second link of that list
    assert steps(plan("open the second customer", screen(DJANGO_HOME))) == [
        ("click_element", {"text": "Customers", "role": "link"})]
    assert steps(plan("open the second customer", screen("django_admin/admin/store/customer/")))[0] == (
        "click_element", {"text": "Bob Chen", "role": "link"})


def test_a_new_record_wanted_is_added_and_again_is_only_a_word() -> None:
    p = plan("I need a new product called Lamp Shade in category office for 19.90", screen(PRODUCTS))
    assert p.pending[-1] == 'check that "Lamp Shade" was saved'
    assert plan("make Tea Kettle available again", screen(PRODUCTS)).analysis.startswith(
        "1 part(s): 'make Tea Kettle available'")
    # a fact about a record no screen shows starts with "the": the lists are looked through for the name
    p = plan("the Chef Knife costs 42.00", screen(DJANGO_HOME))
    assert p.pending[0].startswith('look through the lists for "Chef Knife"')


def test_all_of_a_kind_is_the_list_s_all_view_not_its_heading() -> None:
    """TodoMVC on its Completed view: "show all todos" is the "All" filter; the page's heading "todos" is no control
    (clicking it changed nothing, and a check that some todo is listed passed on the wrong view)."""
    for task in ("show all todos", "show all the todos again", "display all my todos"):
        assert steps(plan(task, screen("todomvc/index.html#/completed"))) == [
            ("click_element", {"text": "All", "role": "link"}),
            ("wait_for_page", {"name": "All", "present": True})], task   # its route's link is then the current one


@pytest.mark.parametrize("task, op, value", [
    ("show me the plants published after 1950", ">", "1950"),
    ("only plants added before 2024-03-01", "<", "2024-03-01"),
    ("list the plants released since 2000", "≥", "2000"),
])
def test_a_time_said_of_records_filters_on_the_column_that_dates_them(task: str, op: str, value: str) -> None:
    from shared.screen import ScreenObservation

    data = screen(PLANTS).to_dict()
    for e in data["elements"]:   # the same table with a year where the height is
        e["options"] = ["year" if o == "height_cm" else o for o in e.get("options", [])]
    assert steps(plan(task, ScreenObservation.from_dict(data)))[:3] == [
        ("select_option", {"option": "year", "field": "filter column"}),
        ("select_option", {"option": op, "field": "filter op"}),
        ("input_text", {"text": value, "field": "filter value", "clear": True})], task


@pytest.mark.parametrize("task", ["show only indoor plants", "show the indoor plants", "list the plants that are indoor"])
def test_a_yes_no_column_said_as_the_kind_s_adjective_filters_on_yes_and_proves_no_row_says_no(task: str) -> None:
    got = steps(plan(task, screen(PLANTS)))
    assert got[:3] == [("select_option", {"option": "indoor", "field": "filter column"}),
                       ("select_option", {"option": "=", "field": "filter op"}),
                       ("input_text", {"text": "1", "field": "filter value", "clear": True})], task
    absent, present = got[-2][1], got[-1][1]
    assert (absent["text"], absent["present"], present["text"], present["present"]) == ("0", False, "1", True)
    assert absent["selector"] == present["selector"] and absent["selector"].endswith("td:nth-of-type(6)")



def test_a_count_of_records_with_a_value_said_with_its_column_counts_that_column() -> None:
    (cmd, params), = steps(plan("how many plants are in the Araceae family? there should be 2", screen(PLANTS)))
    assert (params["text"], params["count"]) == ("Araceae", 2) and params["selector"].endswith("tr > td:nth-of-type(3)")


@pytest.mark.parametrize("task, column, value", [
    ("show me only the plants that need full sun", "light", "full sun"),
    ("filter plants that need full shade", "light", "full shade"),
    ("list the plants in the Lamiaceae family", "family", "Lamiaceae"),
])
def test_a_value_said_after_the_kind_listed_filters_on_the_one_column_that_shows_it(task: str, column: str,
                                                                                    value: str) -> None:
    # before: "no filter 'plants that need full sun' on the screen"; the linking words ("that need", "in the")
    # are no value, and the value is a whole cell of one column
    got = steps(plan(task, screen(PLANTS)))
    assert got[0] == ("select_option", {"option": column, "field": "filter column"}), task
    assert got[2] == ("input_text", {"text": value, "field": "filter value", "clear": True})
    assert got[-1] == ("wait_for_element", {"text": value, "role": "cell", "present": True})


def test_a_list_shown_in_an_order_is_sorted_and_a_column_is_no_value_to_narrow_to() -> None:
    assert steps(plan("show the plants sorted by name", screen(PLANTS))) == [
        ("sort_table", {"column": "name", "order": "any"})]
    assert steps(plan("list plants sorted alphabetically", screen(PLANTS))) == [
        ("sort_table", {"column": "name", "order": "ascending"})]
    # words naming no list shown narrow nothing
    assert not plan("show me only the customers that need full sun", screen(PLANTS)).feasible


def test_a_tag_said_after_the_kind_listed_is_its_link() -> None:
    assert steps(plan("show me the bookmarks tagged video", screen("buku/bookmark/"))) == [
        ("click_element", {"text": "video", "role": "link"})]
