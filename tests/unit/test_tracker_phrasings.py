"""Tester wordings on an issue tracker's real screens (Trac, captured by evals/capture_screens.py).

Records named by number, records made with a tracker's words, values that only a
dropdown offers, a form folded away behind "Modify", and workflow actions. The
wordings are not those of the evaluation corpus.
"""
from __future__ import annotations

from server.planners import record_ids
from tests.unit.test_screen_planning import plan
from tests.unit.test_tester_phrasings import screen, steps

HOME, REPORTS, ACTIVE, NEW = "trac/", "trac/report", "trac/report/1", "trac/newticket"
TICKET, UNFOLDED = "trac/ticket/1", "trac/ticket/1 >Modify"


def test_a_number_names_a_record_never_a_label_that_holds_the_digit() -> None:
    assert record_ids.parse("ticket #2") == record_ids.IdRef("ticket", "2")
    assert record_ids.parse("issue no. 14") == record_ids.IdRef("issue", "14")
    assert record_ids.parse("page 2") is None and record_ids.parse("row 3") is None   # positions, not records
    # the reports page lists "{2} Active Tickets by Version": never ticket 2
    for task in ("show me issue #2", "open ticket 2"):
        p = plan(task, screen(REPORTS))
        assert all(s.params.get("text") != "{2} Active Tickets by Version" for s in p.steps), p.steps
    assert steps(plan("bring up ticket 3", screen(ACTIVE)))[:2] == [
        ("click_element", {"text": "#3", "role": "link"}), ("wait_for_page", {"name": "#3", "present": True})]
    # no link to it on this page, but links to other tickets: their address pattern gives its own
    assert steps(plan("look at ticket 5", screen(TICKET)))[0] == ("navigate_to_url", {"url": "/ticket/5"})


def test_the_list_of_a_kind_is_opened_to_find_a_record_and_not_reopened() -> None:
    assert steps(plan("open ticket 3", screen(HOME)))[0] == ("click_element", {"text": "VIEW TICKETS", "role": "link"})
    # on that list's own page, the first list it offers, not the same link again
    assert steps(plan("open ticket 3", screen(REPORTS)))[0] == \
        ("click_element", {"text": "{1} Active Tickets", "role": "link"})


def test_a_trackers_words_for_making_a_record_fill_what_the_form_offers() -> None:
    assert steps(plan("lodge an enhancement: record to USB", screen(HOME)))[0] == \
        ("click_element", {"text": "NEW TICKET", "role": "link"})
    made = plan("log a trivial task called Tidy the cable labels", screen(NEW))
    got = steps(made)
    assert ("input_text", {"text": "Tidy the cable labels", "field": "Summary:", "clear": True}) in got
    assert ("select_option", {"option": "trivial", "field": "Priority:"}) in got
    assert ("select_option", {"option": "task", "field": "Type:"}) in got
    assert got[-1] == ("click_element", {"text": "Create ticket", "role": "button"})   # a button that starts "Create"
    # the check is planned on the screen the save leads to
    assert made.pending == ['check that "Tidy the cable labels" was saved']
    # no name said, only a summary: the saved summary is what proves the record was made
    made = plan("create an issue with the summary 'Clock resets at midnight'", screen(NEW))
    assert made.pending == ['check that "Clock resets at midnight" was saved']


def test_a_field_of_a_numbered_record_is_edited_on_its_page_unfolding_the_form() -> None:
    assert steps(plan("set the milestone of ticket 1 to release-1.1", screen(TICKET)))[0] == \
        ("click_element", {"text": "Modify", "role": "link"})
    put = plan("put ticket 1 into version 0.9", screen(UNFOLDED))
    assert steps(put) == [("select_option", {"option": "0.9", "field": "Version:"}),
                          ("click_element", {"text": "Submit changes", "role": "button"})]
    assert put.pending == ['check that "0.9" was saved']


def test_workflow_actions_use_the_control_the_page_offers() -> None:
    got = steps(plan("resolve ticket 1 as duplicate", screen(UNFOLDED)))
    assert got[:3] == [("set_checked", {"checked": True, "selector": "#action_resolve"}),
                       ("select_option", {"option": "duplicate", "selector": "#action_resolve_resolve_resolution"}),
                       ("click_element", {"text": "Submit changes", "role": "button"})]
    reassigned = plan("reassign #1 to 'erin'", screen(UNFOLDED))
    got = steps(reassigned)
    assert got[1] == ("input_text", {"text": "erin", "selector": "#action_reassign_reassign_owner", "clear": True})
    # the new owner is checked on the screen the save leads to, in the ticket's row or page
    assert got[-1] == ("click_element", {"text": "Submit changes", "role": "button"})
    assert reassigned.pending == ['check that "erin" was saved for "#1"']
    # a value the page does not offer is refused with what it does offer
    refused = plan("close ticket 1 as postponed", screen(UNFOLDED))
    assert not refused.feasible and "fixed, invalid, wontfix" in refused.analysis


def test_a_name_no_link_on_the_way_shows_is_looked_up_with_the_apps_own_search() -> None:
    got = plan("bring up the release-1.1 milestone", screen(HOME))
    assert [(s.command, s.params) for s in got.steps] == [
        ("input_text", {"text": "release-1.1", "field": "Search:", "clear": True, "submit": True})]
    assert got.pending == ["bring up release-1.1 milestone"]   # planned again on the results
    # a description is no name, another act is no lookup, and a kind the app never shows is nothing here
    for task in ("open the chart of tickets per milestone for last year", "play the intro video",
                 "open the Netflix console"):
        p = plan(task, screen(HOME))
        assert not any(s.command == "input_text" for s in p.steps), (task, p.steps)


def test_what_a_page_mentions_is_checked_on_the_page_just_opened() -> None:
    p = plan("open TestPlan and make sure it mentions the banner", screen("trac/wiki/TestPlan"))
    assert steps(p)[-1][0] == "wait_for_page" and p.pending == ['make sure "TestPlan" mentions the banner']



def test_a_fact_about_a_record_is_read_beside_its_own_label() -> None:
    """"Reported by: carol  Owned by: carol" is one row: the owner is the cell after "Owned by:"."""
    got = steps(plan("confirm ticket 1 is owned by dave", screen(TICKET)))
    assert got == [("wait_for_element", {"text": "dave", "present": True,
                                         "selector": "#ticketbox > table > tbody > tr:nth-of-type(1) > td:nth-of-type(2)"})]
