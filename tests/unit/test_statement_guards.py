"""Two false passes a fresh batch of tester wordings found in the statement check, on captured screens: a fact
about a record must be read from something other than the record's own name, and a number said with its unit is
that number of those units."""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen


def test_words_of_the_records_own_name_are_no_fact_about_it() -> None:
    # before: "CSV" and "drops the last row" (both its title) were checked in its row, and "resolved" never: passed
    p = plan("Confirm the CSV export bug that drops the last row has been resolved", screen("roundup/tracker/"))
    assert all("Export to CSV drops the last row" not in str(params.get("row", "")) for _, params in steps(p))
    assert any("resolved" in str(params.get("text", "")) for _, params in steps(p))


def test_a_number_with_its_unit_is_never_a_bare_number_of_the_row() -> None:
    # before: a 3 anywhere in the row ("3 minutes ago") passed "checked every 3 hours"
    p = plan("Confirm the Shimano dealer news page gets checked every 3 hours", screen("changedetection/"))
    assert steps(p) == [("wait_for_element", {"text": "3 hours", "row": "Shimano dealer news Suppliers", "present": True})]


def test_a_name_said_with_its_kind_after_as_is_the_name_alone() -> None:
    # before: "Emma as a participant" was typed as the new participant's name, and its check found it: passed
    p = plan("Emma moved in this week. Add her as a participant and then check she starts with a zero balance",
             screen("ihatemoney/flatshare/"))
    assert steps(p)[0] == ("input_text", {"text": "Emma", "field": '_("Add participant")', "clear": True, "submit": True})


def test_quoted_words_with_more_said_of_them_are_no_text_to_find_alone() -> None:
    # before: 'check "Alice" starts with a zero balance' checked that Alice is shown
    assert steps(plan('check "Alice" starts with a zero balance', screen("ihatemoney/flatshare/"))) != [
        ("wait_for_element", {"text": "Alice", "present": True})]
    assert steps(plan('check "Alice" is listed', screen("ihatemoney/flatshare/"))) == [
        ("wait_for_element", {"text": "Alice", "present": True})]


def test_a_check_asked_for_after_the_statement() -> None:
    from server.planners.restating import restate

    assert restate("there should be exactly 4 bookmarks tagged docs, can you confirm?") == \
        "check there should be exactly 4 bookmarks tagged docs"
    assert restate("is the Schwalbe tyres watch in the Prices group? please check") == \
        "is the Schwalbe tyres watch in the Prices group"
    # only a question or what there is: a request followed by "confirm" is still that request, never a text to find
    for task in ("delete buy milk, confirm", "The Groceries bill should be removed - confirm that"):
        assert restate(task) == task
    assert restate("Verify that Chain Reaction clearance is paused at the moment") == \
        "Verify that Chain Reaction clearance is paused"


def test_a_value_said_after_the_verb_is_a_fact_though_the_name_cell_shows_it() -> None:
    # a bookmark's cell shows its title and its tags: "has the python tag" is still checked
    assert steps(plan("Verify that the Flask tutorial bookmark has the python tag", screen("buku/bookmark/"))) == [
        ("wait_for_element", {"text": "python", "row": "Flask tutorial", "present": True})]
