"""A ledger's tasks as testers word them (Fava, the web interface of Beancount, from PyPI), planned on captured
screens. Written for this file from a fresh batch of tasks run on the live app; each case is a general rule the
batch showed missing: a hierarchical name reached through the app's "Go to account" box, a free-text filter drawn as
a combobox, "limit X to Y", and a capitalised "Documents" that is a name, not the verb of a check."""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen


def test_a_thing_of_a_kind_no_link_shows_is_reached_through_the_box_that_goes_to_that_kind() -> None:
    p = plan("look at the Assets:US:BofA:Checking account", screen("ledger/"))
    assert steps(p) == [("input_text", {"text": "Assets:US:BofA:Checking", "field": "Go to account", "clear": True,
                                        "submit": True})]


def test_a_search_with_no_search_box_uses_the_free_text_filter() -> None:
    got = steps(plan("search the journal for Chichipotle", screen("ledger/journal/")))
    assert got[0] == ("input_text", {"text": "Chichipotle", "field": "Filter by tag, payee, …", "clear": True,
                                     "submit": True})


def test_limit_a_filter_to_a_value_sets_it() -> None:
    got = steps(plan("limit the time range to 2025", screen("ledger/")))
    assert len(got) == 1 and got[0][1].get("field") == "Time" and "2025" in (got[0][1].get("option"),
                                                                            got[0][1].get("text"))


def test_a_capitalised_documents_is_a_name_not_what_a_page_documents() -> None:
    got = steps(plan("check there's a link to the Documents", screen("ledger/")))
    assert got == [("wait_for_element", {"text": "Documents", "role": "link", "present": True})]


def test_a_year_to_show_only_goes_in_the_time_filter_not_the_text_filter() -> None:
    # typed into "Filter by tag, payee, …" it would filter the entries whose text says 2024, and pass on its own box
    got = steps(plan("show only 2024", screen("ledger/")))
    assert got[0] == ("input_text", {"text": "2024", "field": "Time", "clear": True, "submit": True})
