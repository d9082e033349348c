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
