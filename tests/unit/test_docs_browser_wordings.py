"""A documentation browser's tasks as testers word them (Python's own ``pydoc -p``), planned on captured screens.

Written for this file from a fresh batch of tasks run on the live app; each case is a general rule the batch
showed missing: a kind said beside a name ("the FUNCTIONS topic", "the function heappush"), a list said as
"the list of X", a field named by the button that sends it, a name written as code ("os.path").
"""
from __future__ import annotations

import pytest

from server.planners.language import fix_word
from server.planners.restating import restate
from tests.unit.test_tester_phrasings import screen
from tests.unit.test_screen_planning import plan, steps


def test_a_name_in_capitals_or_a_real_word_is_not_corrected_into_a_lookalike() -> None:
    known = frozenset({"fractions", "functools", "settings"})
    assert fix_word("FUNCTIONS", known) == "FUNCTIONS"
    assert fix_word("functions", known) == "functions"   # two slips from functools: a word of its own
    assert fix_word("setings", known) == "settings"      # one slip is still a typo


@pytest.mark.parametrize("task", ["pls open the FUNCTIONS topic", "please open the functions topic"])
def test_a_topic_said_after_its_name_opens_the_topics_first(task: str) -> None:
    p = plan(task, screen("pydoc/"))
    assert steps(p) == [("click_element", {"text": "Topics", "role": "link"})]
    assert p.pending[0].lower() == "open functions"


def test_the_list_of_a_kind_is_its_link_in_the_plural_not_an_item_named_like_the_kind() -> None:
    # pydoc's index has a module called "keyword": "the keyword while" is on the list of keywords
    p = plan("open the keyword while", screen("pydoc/"))
    assert steps(p) == [("click_element", {"text": "Keywords", "role": "link"})] and p.pending == ["open while"]
    assert steps(plan("show me the list of topics", screen("pydoc/")))[0] == \
        ("click_element", {"text": "Topics", "role": "link"})


def test_a_page_said_with_a_possessive_is_the_page_of_the_name() -> None:
    got = steps(plan("Navigate to the string module's documentation", screen("pydoc/")))
    assert got[0][1]["text"] == "string" and got[-1] == ("wait_for_page", {"name": "string", "present": True})


def test_a_link_said_whole_wins_over_a_cell_that_says_its_last_word() -> None:
    got = steps(plan("go back to the module index", screen("pydoc/topics.html")))
    assert got[0] == ("click_element", {"text": "Module Index", "role": "link"})


@pytest.mark.parametrize("task, key, text", [
    ("make sure there's a LOOPING topic", "pydoc/topics.html", "LOOPING"),
    ("check the topic LOOPING is listed", "pydoc/topics.html", "LOOPING"),
    ("confirm it lists the function heappush", "pydoc/heapq.html", "heappush"),
    ("check the function dumps is shown", "pydoc/json.html", "dumps"),
    ("verify the keyword lambda appears", "pydoc/keywords.html", "lambda"),
])
def test_a_kind_said_beside_a_name_is_not_looked_for_as_text(task: str, key: str, text: str) -> None:
    assert steps(plan(task, screen(key))) == [("wait_for_element", {"text": text, "present": True})]


def test_a_name_of_a_kind_not_shown_here_is_checked_on_the_list_of_that_kind() -> None:
    p = plan("make sure there's a LOOPING topic", screen("pydoc/"))
    assert steps(p) == [("click_element", {"text": "Topics", "role": "link"})]
    assert p.pending == ['check "LOOPING" is shown']
    # a name that is not shown keeps the kind's word: the check cannot pass on another text
    assert steps(plan("check the function frobnicate is shown", screen("pydoc/json.html"))) == \
        [("wait_for_element", {"text": "function frobnicate", "present": True})]


def test_a_check_of_a_kind_after_a_step_that_opens_a_page_is_planned_on_that_page() -> None:
    p = plan("open heapq and confirm it lists the function heappush", screen("pydoc/"))
    assert steps(p)[0] == ("click_element", {"text": "heapq", "role": "link"})
    assert p.pending == ['confirm "heapq" lists the function heappush']


def test_the_page_just_opened_named_as_the_subject_of_a_check_is_the_page_itself() -> None:
    assert steps(plan("check json mentions dumps", screen("pydoc/json.html"))) == \
        [("wait_for_element", {"text": "dumps", "present": True})]


@pytest.mark.parametrize("task", ["check the page title is Pydoc: Index of Modules",
                                  "the title should read 'Pydoc: Index of Modules'"])
def test_a_title_with_a_colon_is_one_title(task: str) -> None:
    assert steps(plan(task, screen("pydoc/"))) == [("wait_for_page", {"name": "Pydoc: Index of Modules",
                                                                       "present": True})]


def test_a_field_with_no_name_is_named_by_the_button_that_sends_it() -> None:
    got = steps(plan("type heapq in the Get box and press Get", screen("pydoc/")))
    # both of pydoc's boxes are called "key": the one of the form whose button says Get, by its selector
    assert got[0][0] == "input_text" and "form:nth-of-type(1)" in got[0][1]["selector"]
    assert got[-1] == ("click_element", {"text": "Get", "role": "button"})
    searched = steps(plan("enter json into the search box and hit Search", screen("pydoc/")))
    assert "form:nth-of-type(2)" in searched[0][1]["selector"]
    assert searched[-1] == ("click_element", {"text": "Search", "role": "button"})


def test_a_name_written_as_code_is_one_token_and_an_inert_line_is_not_opened() -> None:
    # the index lists "os" and "pathlib" in one cell: no "os.path" there; the app's search finds it
    p = plan("open os.path", screen("pydoc/"))
    assert steps(p)[0][0] == "input_text" and steps(p)[0][1]["text"] == "os.path" and p.pending == ["open os.path"]
    # the results say "key = os.path" on a line nothing opens: nothing to click, refused
    assert not plan("open os.path", screen("pydoc/search?key=os.path")).feasible


def test_looking_up_the_docs_of_a_name_opens_them() -> None:
    assert restate("look up the docs for os.path") == "open the docs for os.path"
    assert steps(plan("find the documentation for heapq", screen("pydoc/")))[0] == \
        ("click_element", {"text": "heapq", "role": "link"})


def test_a_name_after_an_underscore_is_not_the_name() -> None:
    # "_heapq" in the list of built-in modules does not show "heapq": no column of that list is checked
    assert steps(plan("is there a module named heapq?", screen("pydoc/"))) == \
        [("wait_for_element", {"text": "heapq", "present": True})]


def test_a_place_said_first_is_the_page_shown_or_its_link() -> None:
    # on the index already: nothing to open first
    got = steps(plan("from the module index, open the textwrap docs", screen("pydoc/")))
    assert got[0] == ("click_element", {"text": "textwrap", "role": "link"})
    # elsewhere: the link to it, then the rest on the page it shows
    p = plan("from the module index, open the textwrap docs", screen("pydoc/topics.html"))
    assert steps(p) == [("click_element", {"text": "Module Index", "role": "link"})]
    assert p.pending == ["open the textwrap docs"]


@pytest.mark.parametrize("task", ["check it documents the class JSONDecoder", "check that it describes JSONDecoder"])
def test_what_a_page_documents_is_what_it_says(task: str) -> None:
    assert steps(plan(task, screen("pydoc/json.html"))) == [("wait_for_element", {"text": "JSONDecoder",
                                                                                  "present": True})]
