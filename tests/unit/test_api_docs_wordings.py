"""An API documentation browser as testers word their tasks (pdoc, never seen before), planned on captured screens.

Written from a fresh batch run on the live app: a module index, one page per module with its members in a sidebar
of in-page links, a search that answers as it is typed (its results under a heading "3 search results for …"),
and a "View Source" toggle drawn as the label of a hidden box, one per member. Each case is a general rule the
batch showed missing.
"""
from __future__ import annotations

from server.planners import record_ids
from server.planners.state import State
from tests.unit.test_screen_planning import ctx_for, plan, steps
from tests.unit.test_tester_phrasings import screen

INDEX, JSON, HTTP = "api-docs/", "api-docs/json.html", "api-docs/http.html"


def test_a_name_with_a_digit_is_one_name_not_a_record_number() -> None:
    # "sqlite3" is the module, not record 3 of a kind "sqlite" (the link to sqlite3/dbapi2.html)
    assert record_ids.named_whole(State(ctx_for(screen(INDEX)), None, screen=screen(INDEX)), "sqlite3")
    assert record_ids.parse("ticket 2") is not None and record_ids.parse("issue3") is not None
    assert record_ids.parse("order no. 7") is not None and record_ids.parse("#3") is not None
    assert steps(plan("open sqlite3", screen(INDEX)))[0] == ("click_element", {"text": "sqlite3", "role": "link"})


def test_a_page_named_with_words_for_what_kind_of_page_it_is_is_that_page() -> None:
    for task in ("open the csv module documentation", "show me the zipfile module reference"):
        s = steps(plan(task, screen(INDEX)))
        assert s[0][0] == "click_element" and s[0][1]["text"] in ("csv", "zipfile") and len(s) == 2, (task, s)
    # and a check of "the json docs" on json's page is read there
    p = plan("check the json docs list the functions dump, dumps, load and loads", screen(JSON))
    assert [s[1]["text"] for s in steps(p)] == ["dump", "dumps", "load", "loads"]


def test_the_title_of_a_page_not_shown_is_checked_on_that_page_never_on_its_link() -> None:
    # a false pass: the index's link "json" says "json", and the check passed without opening the page
    for task in ("check the title of the json page is json", "verify the json page title reads json"):
        p = plan(task, screen(INDEX))
        assert steps(p) == [("click_element", {"text": "json", "role": "link"}),
                            ("wait_for_page", {"name": "json", "present": True})], task
        assert p.pending == ["check the title is json"]
    assert steps(plan("check the title of the json page is json", screen(JSON))) == [
        ("wait_for_page", {"name": "json", "present": True})]


def test_a_list_of_names_after_a_check_is_one_check_per_name_whatever_words_they_are() -> None:
    # "load" reads as a verb, "loads" as a noun: in a list of functions after a check, each is a name to check
    p = plan("check the page lists the functions dump, dumps, load and loads", screen(JSON))
    assert [s for s in steps(p)] == [("wait_for_element", {"text": t, "present": True})
                                     for t in ("dump", "dumps", "load", "loads")]
    p = plan("check JSONDecoder, JSONEncoder and dumps are shown", screen(JSON))
    assert [s[1]["text"] for s in steps(p)] == ["JSONDecoder", "JSONEncoder", "dumps"]
    # never a clause of its own, said after the list: "… and save", "…, then delete"
    p = plan("check the page lists dumps and save", screen(JSON))
    assert [s[1].get("text") for s in steps(p)][:1] == ["dumps"] and "save" not in [s[1].get("text") for s in steps(p)
                                                                                 if s[0] == "wait_for_element"]
    # a list ended by a clause of its own keeps that clause
    p = plan("check the page lists dump, then open loads", screen(JSON))
    # (a place on the page, "#loads": the address names it once it is gone to)
    assert steps(p)[-2:] == [("click_element", {"text": "loads", "role": "link"}),
                             ("wait_for_page", {"name": "loads", "present": True})]


def test_a_place_said_first_without_a_comma_is_opened_then_the_rest_done_there() -> None:
    p = plan("from the module list go to zipfile", screen(INDEX))
    assert steps(p)[0] == ("click_element", {"text": "zipfile", "role": "link"})
    p = plan("on the json page check dumps is listed", screen(INDEX))
    assert steps(p)[0] == ("click_element", {"text": "json", "role": "link"}) and p.pending == ["check dumps is listed"]


def test_find_a_constant_said_with_its_kind_goes_to_it_on_the_page() -> None:
    # before: "status" opened the constant MULTI_STATUS as if it were a list of statuses; "NOT_FOUND" a negation
    for task in ("find the status NOT_FOUND", "find NOT_FOUND"):
        assert steps(plan(task, screen(HTTP))) == [("click_element", {"text": "NOT_FOUND", "role": "link"}),
                                                   ("wait_for_element", {"text": "NOT_FOUND", "present": True})]
    # a search said as one still searches
    assert steps(plan("search for NOT_FOUND", screen(HTTP)))[0][0] == "input_text"


def test_the_first_result_is_the_first_of_the_results_and_only_once_they_are_shown() -> None:
    # a false pass: "search for DictWriter and open the first result" opened the sidebar's first link
    p = plan("search for DictWriter and open the first result", screen(INDEX))
    assert [s[0] for s in steps(p)] == ["input_text"] and p.pending[-1] == "open the first result"
    p = plan("open the first result", screen("api-docs/csv.html?search=reader"))
    assert steps(p) == [("click_element", {"text": "def csv.reader(unknown):", "role": "link"}),
                        ("wait_for_page", {"name": "csv.reader", "present": True})]
    assert steps(plan("click the second search result", screen("api-docs/csv.html?search=reader")))[0][1]["text"] \
        == "csv.DictReader.reader"
    assert not plan("open the 5th result", screen("api-docs/csv.html?search=reader")).feasible
    # a result named: the one that documents it, not a word of a docstring
    p = plan("open JSONEncoder", screen("api-docs/?search=JSONEncoder"))
    assert steps(p)[0] == ("click_element", {"text": "class json.JSONEncoder:", "role": "link"})


def test_no_results_is_the_app_saying_so_and_fails_where_it_lists_results() -> None:
    assert steps(plan("check there are no results", screen("api-docs/csv.html?search=frobnicate"))) == [
        ("wait_for_element", {"text": "No search results for 'frobnicate'.", "present": True})]
    assert steps(plan("verify the search found nothing", screen("api-docs/csv.html?search=reader"))) == [
        ("wait_for_element", {"text": "3 search results for 'reader'.", "present": False})]


def test_listed_on_a_page_and_not_in_the_list_are_presence_checks() -> None:
    assert steps(plan("is zipfile listed on the home page?", screen(INDEX))) == [
        ("wait_for_element", {"text": "zipfile", "present": True})]
    for task in ("make sure yaml is not in the list of modules", "check that the module list does not include yaml"):
        assert steps(plan(task, screen(INDEX))) == [("wait_for_element", {"text": "yaml", "present": False})], task


def test_a_qualified_name_is_its_member_on_its_owner_s_page_and_opens_the_owner_elsewhere() -> None:
    p = plan("show me the docs for json.loads", screen(JSON))
    assert steps(p) == [("click_element", {"text": "loads", "role": "link"}),
                        ("wait_for_page", {"name": "loads", "present": True})]
    p = plan("view the source code of json.dumps", screen(INDEX))
    assert steps(p) == [("click_element", {"text": "json", "role": "link"})]
    assert p.pending == ["view the source code of json.dumps"]


def test_a_control_every_section_has_is_the_one_of_the_section_named() -> None:
    # "View Source" is the label of a hidden box, one per member: the one after dumps' name, not the page's first
    for task in ("view the source code of dumps", "show the source of the dumps function"):
        assert steps(plan(task, screen(JSON))) == [
            ("click_element", {"text": "View Source", "role": "button", "index": 2})], task
    assert steps(plan("click View Source for loads", screen(JSON)))[0][1]["index"] == 4


def test_a_page_said_as_a_page_is_opened_by_a_control_never_by_words_of_a_paragraph() -> None:
    # csv's docstring has a line "SETTINGS:": no page to open ("open the settings page" is impossible here)
    assert not plan("open the settings page", screen("api-docs/csv.html")).feasible
    assert not plan("go to settings", screen("api-docs/csv.html")).feasible


def test_a_question_naming_the_thing_then_it() -> None:
    p = plan("what's in sqlite3.dump? open it", screen(INDEX))
    assert steps(p)[0] == ("click_element", {"text": "sqlite3.dump", "role": "link"})
    p = plan("what is in the csv module? show it to me", screen(INDEX))
    assert steps(p)[0] == ("click_element", {"text": "csv", "role": "link"})


def test_review_cases_on_other_apps_stay_as_they_were() -> None:
    """False passes a review found in these rules, on other apps' screens: each stays closed."""
    # a title of a page not shown, that nothing here opens: never read on the page shown
    p = plan("check the csv page's title is json", screen(JSON))
    assert ("wait_for_page", {"name": "json", "present": True}) not in (steps(p) if p.feasible else [])
    # a record number written run together is still one
    assert steps(plan("open ticket2", screen("trac/report/1")))[0] == ("click_element", {"text": "#2", "role": "link"})
    # a verb after a check's list is done, not checked as a word
    s = steps(plan("check the form shows Alice Martin, then delete", screen("django_admin/admin/store/customer/1/change/")))
    assert s[0] == ("wait_for_element", {"text": "Alice Martin", "present": True}) and s[1][0] == "click_element"
    # a report's "(5 matches)" heads no search results: its first row is the first match
    assert steps(plan("open the last match", screen("trac/report/1")))[0] == (
        "click_element", {"text": "#4", "role": "link"})
    # "find" a row of a list with a search: the search, as before
    assert steps(plan("find Alice Martin", screen("django_admin/admin/store/customer/")))[0][0] == "input_text"
    # a member with no View Source of its own gets none of the next member's
    assert ("click_element", {"text": "View Source", "role": "button", "index": 4}) not in \
        steps(plan("view the source of object_hook", screen(JSON)))
