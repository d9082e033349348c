"""An issue tracker of the old school (Roundup, a corpus app added after the planner's tuning): forms laid
out as tables with no <label>, "Create New" links told apart only by the side-menu section above them,
records addressed as "issue3", a search box above the form. Planned on its real captured screens; the
wordings are variations, not the corpus's own.
"""
from __future__ import annotations

from server.planners import record_ids
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import ctx_for, plan
from tests.unit.test_tester_phrasings import screen, steps

LIST = "roundup/tracker/"
FORM = "roundup/tracker/issue?@template=item"
ISSUE = "roundup/tracker/issue3"


def test_the_add_link_of_the_kind_is_the_one_under_its_section() -> None:
    # two "Create New" links, under "Issues" and under "Keywords": the list page's display form is not it
    assert steps(plan("log a new issue 'Fridge list loses items' with priority bug", screen(LIST))) == [
        ("click_element", {"text": "Create New", "role": "link"})]
    assert steps(plan("create a keyword named frontend", screen(LIST))) == [
        ("click_element", {"text": "Create New", "role": "link", "index": 1})]


def test_fields_named_by_their_table_cells_are_filled_and_the_form_s_own_button_saves() -> None:
    got = steps(plan("create a new issue 'Fridge list loses items' with priority wish and assign it to alice",
                     screen(FORM)))
    assert got[0] == ("input_text", {"text": "Fridge list loses items", "field": "Title", "clear": True})
    assert ("select_option", {"option": "wish", "field": "Priority"}) in got
    assert ("select_option", {"option": "alice", "field": "Assigned To"}) in got
    # the search box's "Search" button above the form submits another form
    assert ("click_element", {"text": "Submit New Entry", "role": "button"}) in got
    assert ("click_element", {"text": "Search", "role": "button"}) not in got
    edit = steps(plan("set the status of issue 3 to testing", screen(ISSUE)))
    assert edit[:2] == [("select_option", {"option": "testing", "field": "Status"}),
                        ("click_element", {"text": "Submit Changes", "role": "button"})]


def test_the_form_asked_for_is_the_one_shown() -> None:
    [(command, params)] = steps(plan("bring me to the form", screen(FORM)))
    assert command == "wait_for_element" and params["selector"].endswith("textarea")   # the form's own field


def test_a_record_by_number_opens_by_its_row_link_and_its_value_is_read_where_it_is_shown() -> None:
    assert steps(plan("go to issue 3", screen(LIST)))[0] == (
        "click_element", {"text": "Export to CSV drops the last row", "role": "link"})   # not the plain cell "3"
    [(_, chatting)] = steps(plan("confirm issue 3 is chatting", screen(ISSUE)))
    assert chatting["text"] == "chatting" and chatting["selector"].endswith("td:nth-of-type(2)")   # its Status
    # not shown as a value ("resolved" is only an option of the closed dropdown): a check that will fail
    assert steps(plan("verify issue 3 is resolved", screen(ISSUE))) == [
        ("wait_for_element", {"text": "resolved", "exact": True, "present": True})]


def test_record_addresses_with_the_kind_and_number_run_together() -> None:
    assert record_ids.is_record_of("issue3", "issue") and record_ids.is_record_of("/tracker/user4", "users")
    assert record_ids.is_record_of("/ticket/2", "ticket") and not record_ids.is_record_of("/v2/api", "issue")
    ctx_screen = screen(LIST)
    st_ref = record_ids.parse("issue 12")
    assert st_ref is not None
    from server.planners.state import State

    st = State(ctx_for(ctx_screen), None, ctx_screen)
    assert record_ids.address(st, st_ref) == "/tracker/issue12"


def test_a_link_is_the_way_to_a_page_and_a_quoted_text_keeps_its_negation() -> None:
    assert steps(plan("open the search page", screen(LIST)))[0] == ("click_element", {"text": "Search", "role": "link"})
    assert steps(plan('check "Timer does not ring when the app is closed" is shown', screen(FORM))) == [
        ("wait_for_element", {"text": "Timer does not ring when the app is closed", "present": True})]
    assert steps(plan("check Fridge isnt shown", screen(FORM))) == [
        ("wait_for_element", {"text": "Fridge", "present": False})]


def test_a_record_on_no_list_shown_is_looked_up_with_the_app_s_search_then_opened_from_its_results() -> None:
    got = plan("make sure the ticket 'Guide scrolls slowly' is closed", screen("trac/"))
    assert steps(got) == [("input_text", {"text": "Guide scrolls slowly", "field": "Search:", "clear": True,
                                          "submit": True})]
    results = ScreenObservation("web", "http://trac.test/search?q=Guide+scrolls+slowly", "Search", (
        UIElement("heading", "Results (1 of 1)", level=2),
        UIElement("link", "#5: defect: Guide scrolls slowly (closed: fixed)", href="/ticket/5", selector="dt > a"),
        UIElement("text", text="Scrolling the programme guide takes a second per page."),
        UIElement("link", "TracSearch", href="/wiki/TracSearch", selector="p > a")))
    [seek, then] = got.pending
    assert steps(plan(f"{seek}, then {then}", results)) == [
        ("click_element", {"text": "#5: defect: Guide scrolls slowly (closed: fixed)", "role": "link"})]


def test_a_record_s_workflow_is_done_with_its_fields_where_no_control_is_named_for_it() -> None:
    issue = screen(ISSUE)
    # "reassign" (misspelt) to someone: the field named by the verb; "close": the state its dropdown offers
    got = steps(plan("reasign issue 3 to carol", issue))
    assert got[0][0] == "select_option" and got[0][1]["option"] == "carol" and got[1] == (
        "click_element", {"text": "Submit Changes", "role": "button"})
    assert steps(plan("close issue 3", issue))[0][1]["option"] == "resolved"
    tagged = steps(plan("tag issue 3 with the ui keyword", issue))
    assert tagged[0][0] == "input_text" and tagged[0][1]["text"].endswith("ui")
    # a value names its own field: the one dropdown that offers it
    got = steps(plan("move issue 3 to testing", issue))
    assert got[0][1]["option"] == "testing" and got[0][1]["selector"].endswith("td:nth-of-type(2) > select")
    assert steps(plan("set issue 3 to feature", issue))[0][1]["option"] == "feature"
    # another record of the kind is opened at its address, learnt from the page shown (/tracker/issue3)
    assert steps(plan("set issue 7 to testing", issue)) == [("navigate_to_url", {"url": "/tracker/issue7"})]
    # "its" is the record just handled: the change is saved with its form
    assert [c for c, _ in steps(plan("bump its priority to urgent", issue))] == [
        "select_option", "click_element", "wait_for_element"]


def test_a_field_of_a_numbered_record_is_read_on_its_page() -> None:
    [(_, title)] = steps(plan("check the title of issue 3 reads 'Export to CSV drops the last row'", screen(ISSUE)))
    assert title["selector"] == "#title" and title["text"] == "Export to CSV drops the last row"
    # "owner" names "Owned by:", and the value is the cell beside it
    [(_, owner)] = steps(plan("make sure the owner of ticket 1 is bob", screen("trac/ticket/1")))
    assert owner["text"] == "bob" and owner["selector"].endswith("td:nth-of-type(2)")


def test_workflow_verbs_are_read_through_their_typos() -> None:
    from server.planners.intents_workflow import WORKFLOW_VERBS
    from server.planners.language import WORKFLOW_WORDS, fix_verb_typo

    assert WORKFLOW_VERBS <= WORKFLOW_WORDS
    assert fix_verb_typo("reasign") == "reassign" and fix_verb_typo("resovle") == "resolve"


def test_a_note_on_a_record_goes_in_its_comment_box_and_is_saved() -> None:
    got = steps(plan("post a comment on issue 3 saying: retested on build 215", screen(ISSUE)))
    assert got[0][0] == "input_text" and got[0][1]["text"] == "retested on build 215"
    assert got[0][1]["selector"].endswith("textarea") and got[1] == (
        "click_element", {"text": "Submit Changes", "role": "button"})
    trac = steps(plan("leave the note 'seen on build 12' on ticket 1", screen("trac/ticket/1")))
    assert trac[0] == ("input_text", {"text": "seen on build 12", "selector": "#comment", "clear": True})


def test_a_thing_named_with_its_kind_is_found_on_that_kind_s_list() -> None:
    listing = screen(LIST)
    # bob is only in the cells of issues here: the users' list first, then bob on it
    assert steps(plan("show me carol's user page", listing)) == [("click_element", {"text": "User List", "role": "link"})]
    assert steps(plan("open carol", screen("roundup/tracker/user")))[0] == (
        "click_element", {"text": "carol", "role": "link"})
    # "nobody is assigned to" is the list's own view "Show Unassigned"; a section names where a link is
    assert steps(plan("list the issues no one is assigned to", listing))[0] == (
        "click_element", {"text": "Show Unassigned", "role": "link"})
    assert steps(plan("open User List under Administration", listing))[0] == (
        "click_element", {"text": "User List", "role": "link"})
    # a record not listed here, described by what it is about: the app's search
    assert steps(plan("open the issue about the expired password link", listing))[0][0] == "input_text"


def test_a_record_s_action_page_is_its_row_s_control_and_its_number_may_sit_in_the_query() -> None:
    bookmarks = screen("buku/bookmark/")   # Flask-Admin: "/bookmark/edit/?id=7", icons named "Edit Record"
    assert record_ids.is_record_of("/bookmark/edit/?id=7&url=/bookmark/", "bookmark")
    [(command, params)] = steps(plan("open the edit form of bookmark 7", bookmarks))
    assert command == "click_element" and params["text"] == "Edit Record" and params["row"].startswith("Budget Bytes")
    [(command, params)] = steps(plan("go to the edit page for the Flask tutorial bookmark", bookmarks))
    assert params["text"] == "Edit Record" and params["row"].startswith("Flask tutorial")
    # a description is no name: "the ticket about …" is looked up, not a kind's list opened for a name "about …"
    got = plan("look at the ticket about the remote's battery warning", screen("trac/"))
    assert steps(got)[0][0] == "input_text" and steps(got)[0][1]["text"] == "remote battery warning"


def test_a_record_whose_first_value_is_a_field_s_and_a_row_cut_short() -> None:
    from server.planners import records

    rec = records.parse_record("bookmark: url https://pypi.org/, title PyPI, description The Python Package Index")
    assert rec.name == "PyPI" and ("url", "https://pypi.org/") in rec.fields
    assert ("description", "The Python Package Index") in rec.fields   # its capital "The" is part of it
    assert records.parse_record("a todo: buy milk").name == "buy milk"   # not a field "buy"
