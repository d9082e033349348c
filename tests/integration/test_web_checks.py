"""Checks on a web page in real headless Chromium: one wait_for_element with present/state/count, wait_for_page."""
from __future__ import annotations

import pytest

from backend_core.controllers.web_observe import MAX_ELEMENTS
from shared import vocabulary as V
from shared.errors import RequestError, VerificationFailed
from tests.integration.web_pages import Browser, browser, pages_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def check(browser: Browser, command: str, **params: object) -> str:
    return browser.dom.execute(command, {"timeout": 0.5, **params})


def fails(browser: Browser, command: str, **params: object) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as failure:
        check(browser, command, **params)
    return failure.value


def test_text_matches_names_visible_text_and_field_values(browser: Browser) -> None:
    browser.open("form.html")
    check(browser, V.WAIT_FOR_ELEMENT, text="Edit your profile")             # static text
    check(browser, V.WAIT_FOR_ELEMENT, text="Save", role="button")            # accessible name
    check(browser, V.WAIT_FOR_ELEMENT, text="SELECT 1", role="textbox")       # a field's value
    check(browser, V.WAIT_FOR_ELEMENT, text="Ada", role="textbox", exact=True)
    fails(browser, V.WAIT_FOR_ELEMENT, text="Ad", role="textbox", exact=True)
    # what a field holds is not "shown" to a check that names no field: a typed, unsaved value passes nothing
    fails(browser, V.WAIT_FOR_ELEMENT, text="Ada", exact=True)
    fails(browser, V.WAIT_FOR_ELEMENT, text="Prof")                          # whole words, not a prefix
    failure = fails(browser, V.WAIT_FOR_ELEMENT, text="Publish", role="button")
    assert "on screen: " in str(failure) and "'Save'" in str(failure) and failure.screenshot[:4] == b"\x89PNG"
    check(browser, V.WAIT_FOR_ELEMENT, text="Publish", present=False)
    fails(browser, V.WAIT_FOR_ELEMENT, text="Save", role="button", present=False)
    check(browser, V.WAIT_FOR_ELEMENT, text="Belgium", present=False)         # in a closed listbox: not shown
    with pytest.raises(RequestError):
        check(browser, V.WAIT_FOR_ELEMENT)


def test_a_line_of_text_split_over_elements_is_read_as_one_line(browser: Browser) -> None:
    browser.open("split-counter.html")
    check(browser, V.WAIT_FOR_ELEMENT, text="3 items left")
    fails(browser, V.WAIT_FOR_ELEMENT, text="4 items left")
    fails(browser, V.WAIT_FOR_ELEMENT, text="3 items left", present=False)
    # two paragraphs are two lines: their words together are no text the page shows
    fails(browser, V.WAIT_FOR_ELEMENT, text="to edit a todo")


def test_states_rows_counts_and_selectors(browser: Browser) -> None:
    browser.open("form.html")
    check(browser, V.WAIT_FOR_ELEMENT, role="checkbox", row="Carol", state="checked")
    failure = fails(browser, V.WAIT_FOR_ELEMENT, role="checkbox", row="Bob", state="checked")
    assert "another state" in str(failure) and "unchecked" in str(failure)
    browser.remote.execute(V.SET_CHECKED, {"row": "Bob"})
    check(browser, V.WAIT_FOR_ELEMENT, role="checkbox", row="Bob", state="checked")
    check(browser, V.WAIT_FOR_ELEMENT, text="Editor", row="Bob")
    fails(browser, V.WAIT_FOR_ELEMENT, text="Admin", row="Bob")
    check(browser, V.WAIT_FOR_ELEMENT, text="Delete account", state="disabled")
    check(browser, V.WAIT_FOR_ELEMENT, text="Save", state="enabled")
    check(browser, V.WAIT_FOR_ELEMENT, role="checkbox", text="select row", count=3)
    fails(browser, V.WAIT_FOR_ELEMENT, role="checkbox", text="select row", count=2)
    check(browser, V.WAIT_FOR_ELEMENT, selector="#users tbody tr", count=3)
    check(browser, V.WAIT_FOR_ELEMENT, selector="#lang", text="English")     # a select's value
    check(browser, V.WAIT_FOR_ELEMENT, selector="#status", present=False)    # empty: no box
    # a cell that shows only an icon is named by the icon, as the planners' observation names it
    bob_active = "#users tbody tr:nth-of-type(2) td:nth-of-type(4)"
    check(browser, V.WAIT_FOR_ELEMENT, selector=bob_active, text="False")
    fails(browser, V.WAIT_FOR_ELEMENT, selector=bob_active, text="True")
    with pytest.raises(RequestError, match="not valid CSS"):
        check(browser, V.WAIT_FOR_ELEMENT, selector="##nope")


def test_todo_items_count_and_a_deleted_item_is_gone(browser: Browser) -> None:
    browser.open("todo.html")
    check(browser, V.WAIT_FOR_ELEMENT, role="listitem", count=3)
    check(browser, V.WAIT_FOR_ELEMENT, text="3 items left")
    check(browser, V.WAIT_FOR_ELEMENT, row="buy milk")
    check(browser, V.WAIT_FOR_ELEMENT, role="checkbox", row="call mom", state="checked")
    browser.remote.execute(V.CLICK, {"text": "delete", "row": "buy milk"})
    check(browser, V.WAIT_FOR_ELEMENT, text="buy milk", present=False)
    check(browser, V.WAIT_FOR_ELEMENT, role="listitem", count=2)
    fails(browser, V.WAIT_FOR_ELEMENT, role="button", text="delete", present=True)  # hover-only: not shown


def test_a_field_that_already_held_text_is_checked_on_its_value(browser: Browser) -> None:
    browser.open("form.html")
    browser.remote.execute(V.INPUT_TEXT, {"text": "SELECT name FROM users", "field": "SQL query"})
    check(browser, V.WAIT_FOR_ELEMENT, role="textbox", text="SELECT name FROM users", exact=True)
    fails(browser, V.WAIT_FOR_ELEMENT, role="textbox", text="SELECT 1")


def test_wait_for_page_is_where_you_are_not_a_link(browser: Browser) -> None:
    browser.open("docs.html")  # the Functions page: title, h1, selected tab; "Classes" only a link and an h4
    check(browser, V.WAIT_FOR_PAGE, name="functions")
    check(browser, V.WAIT_FOR_PAGE, name="Built-in functions")
    failure = fails(browser, V.WAIT_FOR_PAGE, name="Classes")
    assert "title 'Python docs: functions'" in str(failure)
    check(browser, V.WAIT_FOR_PAGE, name="Classes", present=False)
    check(browser, V.WAIT_FOR_PAGE, name="Modules", present=False)           # a tab, but not the selected one
    browser.open("form.html")
    check(browser, V.WAIT_FOR_PAGE, name="profile")                         # h1 and aria-current
    check(browser, V.WAIT_FOR_PAGE, name="Billing", present=False)          # only a nav link
    browser.open("todo.html")
    browser.remote.execute(V.CLICK, {"text": "Completed"})
    check(browser, V.WAIT_FOR_PAGE, name="completed")                       # the URL's fragment
    check(browser, V.WAIT_FOR_PAGE, name="todo")                            # the path: todo.html


def test_past_the_observation_cap_text_still_counts(browser: Browser) -> None:
    browser.open("big.html")  # 4,500 list items, then a paragraph
    check(browser, V.WAIT_FOR_ELEMENT, text="The very last line")
    failure = fails(browser, V.WAIT_FOR_ELEMENT, text="The very last line", present=False)
    assert "match" in str(failure)  # never a false pass because the page was long
    assert len(browser.remote.observe().elements) == MAX_ELEMENTS and browser.remote.observe().truncated


def test_a_check_ends_when_the_page_has_stopped_changing_not_at_its_timeout(browser: Browser) -> None:
    """With the default timeout, a check that does not hold on a page that has been still (no change, no
    request, no animation) for 1.5 s fails then, and says why; what comes by itself before that, or while a
    spinner turns, is waited for; a longer timeout the plan asked for is waited in full."""
    browser.open("later.html")
    failure = fails(browser, V.WAIT_FOR_ELEMENT, text="Publish", timeout=5.0)
    assert "stopped changing" in str(failure) and "'Report'" in str(failure)
    failure = fails(browser, V.WAIT_FOR_ELEMENT, text="Report", present=False, timeout=5.0)
    assert "stopped changing" in str(failure)
    browser.remote.execute("click_element", {"text": "Load soon", "role": "button"})
    check(browser, V.WAIT_FOR_ELEMENT, text="Ready soon", timeout=5.0)
    browser.remote.execute("click_element", {"text": "Load slowly", "role": "button"})
    check(browser, V.WAIT_FOR_ELEMENT, text="Ready at last", timeout=5.0)
    assert browser.dom._settled(5.0) is not None and browser.dom._settled(30.0) is None
    failure = fails(browser, V.WAIT_FOR_ELEMENT, text="Publish")    # 0.5 s: its timeout comes first
    assert "not seen within 0.5s" in str(failure)


def test_a_password_boxs_text_is_never_read_out(browser: Browser) -> None:
    """Neither the planners' observation nor a failed check's message says what a password box holds."""
    browser.open("login.html")
    browser.remote.execute(V.INPUT_TEXT, {"text": "hunter22-secret", "field": "Password"})
    assert browser.js("document.getElementById('pw').value") == "hunter22-secret"
    box = next(e for e in browser.remote.observe().elements if e.placeholder == "Password")
    assert box.value == "••••" and "password" in box.hint
    failure = fails(browser, V.WAIT_FOR_ELEMENT, selector="#pw", present=False)
    assert "hunter22-secret" not in str(failure) and "••••" in str(failure)


def test_a_text_said_as_label_and_value_is_read_where_the_page_draws_them_apart(browser: Browser) -> None:
    browser.open("player-info.html")
    check(browser, V.WAIT_FOR_ELEMENT, text="Subtitles: On")       # "Subtitles" then "On", as a list of terms
    check(browser, V.WAIT_FOR_ELEMENT, text="Audio: English")
    fails(browser, V.WAIT_FOR_ELEMENT, text="Subtitles: Off")      # the value after that label, never another's
    fails(browser, V.WAIT_FOR_ELEMENT, text="Audio: On")           # "On" is Subtitles', not Audio's
    fails(browser, V.WAIT_FOR_ELEMENT, text="Rating: On")          # no such label: nothing proved
    check(browser, V.WAIT_FOR_ELEMENT, text="Subtitles: Off", present=False)


def test_a_search_box_s_own_suggestions_are_no_result_of_the_search(browser: Browser) -> None:
    browser.open("suggest.html")
    browser.remote.execute(V.INPUT_TEXT, {"text": "Maria Lopez", "field": "Filter entries", "submit": True})
    # the box's suggestion list still echoes 'payee:"Maria Lopez"'; no entry is hers
    fails(browser, V.WAIT_FOR_ELEMENT, text="Maria Lopez")
    check(browser, V.WAIT_FOR_ELEMENT, text="payee:\"Maria Lopez\"", role="option")   # the choices, by their role
    browser.remote.execute(V.INPUT_TEXT, {"text": "Ali Khan", "field": "Filter entries", "submit": True})
    check(browser, V.WAIT_FOR_ELEMENT, text="Ali Khan")
