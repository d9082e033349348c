"""The actions testers use, in real headless Chromium on local pages; each asserts the page's real state."""
from __future__ import annotations

import socket

import pytest

from backend_core.controllers.web import WebRemote
from shared import vocabulary as V
from shared.errors import ControllerError, DeviceFailure, RequestError
from tests.integration.web_pages import Browser, browser, pages_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def run(browser: Browser, command: str, **params: object) -> str:
    return browser.remote.execute(command, params)


def test_commands_are_named_from_the_vocabulary() -> None:
    names = set(WebRemote._commands)
    assert {V.CLICK, V.DOUBLE_CLICK, V.HOVER, V.SCROLL_TO, V.INPUT_TEXT, V.SELECT_OPTION, V.SET_CHECKED,
            V.GO_BACK, V.RELOAD, V.OPEN_URL, V.PRESS_SHORTCUT, V.DUMP_ELEMENTS, V.PRESS_KEY} <= names
    target = ["text", "role", "selector", "row", "index"]
    for name in (V.CLICK, V.DOUBLE_CLICK, V.HOVER, V.SCROLL_TO):
        assert [p.name for p in WebRemote._commands[name].params][:5] == target
    # one declaration: the same ParamSpec objects on every command
    assert WebRemote._commands[V.HOVER].params[3] is WebRemote._commands[V.SET_CHECKED].params[4]


def test_input_text_by_label_placeholder_and_name_replaces_by_default(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.INPUT_TEXT, text="Grace Hopper", field="Full name")   # the field already holds "Ada"
    assert browser.js("document.getElementById('name').value") == "Grace Hopper"
    run(browser, V.INPUT_TEXT, text="grace@example.com", field="you@example.com")  # placeholder
    assert browser.js("document.querySelector('[name=email]').value") == "grace@example.com"
    run(browser, V.INPUT_TEXT, text="Paris", field="city")  # data-testid / placeholder words
    assert browser.js("document.getElementById('city').value") == "Paris"
    run(browser, V.INPUT_TEXT, text="SELECT * FROM users", field="SQL query")
    assert browser.js("document.getElementById('query').value") == "SELECT * FROM users"  # not appended
    run(browser, V.INPUT_TEXT, text=" LIMIT 5", field="SQL query", clear=False)
    assert browser.js("document.getElementById('query').value") == "SELECT * FROM users LIMIT 5"


def test_input_text_into_the_focused_field_clears_and_submits(browser: Browser) -> None:
    browser.open("form.html")
    browser.js("document.getElementById('name').focus()")
    run(browser, V.INPUT_TEXT, text="Linus", submit=True)
    assert browser.js("document.getElementById('name').value") == "Linus"
    assert browser.js("document.getElementById('status').textContent") == "Saved Linus"


def test_todo_add_and_delete_a_row_whose_button_shows_on_hover(browser: Browser) -> None:
    browser.open("todo.html")
    run(browser, V.INPUT_TEXT, text="buy bread", field="What needs to be done?", submit=True)
    labels = "Array.from(document.querySelectorAll('.todo-list label')).map(l => l.textContent)"
    assert browser.js(labels) == ["buy milk", "walk the dog", "call mom", "buy bread"]
    run(browser, V.CLICK, text="delete", row="buy milk")   # button.destroy, visible only on hover
    assert browser.js(labels) == ["walk the dog", "call mom", "buy bread"]
    run(browser, V.CLICK, role="button", row="buy bread")
    assert browser.js(labels) == ["walk the dog", "call mom"]
    run(browser, V.INPUT_TEXT, text="water the ferns", field="What needs to be done?", submit=True)
    run(browser, V.CLICK, text="destroy", role="button", row="water the ferns")   # a button known by its class
    assert browser.js(labels) == ["walk the dog", "call mom"]
    run(browser, V.SET_CHECKED, row="walk the dog")
    assert browser.js("document.querySelectorAll('.todo-list .toggle')[0].checked") is True
    run(browser, V.SET_CHECKED, checked=False, row="call mom")
    assert browser.js("document.querySelectorAll('.todo-list .toggle')[1].checked") is False
    run(browser, V.SET_CHECKED, text="call mom")  # a toggle with no name: the one in the row showing the text
    assert browser.js("document.querySelectorAll('.todo-list .toggle')[1].checked") is True
    with pytest.raises(DeviceFailure, match="no checkbox|no element"):
        run(browser, V.SET_CHECKED, text="todos")  # a heading, not a toggle: a failure, never a click on it
    run(browser, V.CLICK, text="Completed")
    assert browser.js("location.hash") == "#/completed"


def test_a_row_class_on_a_mere_label_still_finds_the_control_beside_it(browser: Browser) -> None:
    browser.open("cards.html")  # .bill-item-text (a "row" by its class) holds only the text; the button is beside it
    run(browser, V.CLICK, text="delete", row="pay rent")
    assert browser.js("Array.from(document.querySelectorAll('.bill-item-text')).map(e => e.textContent)") == \
        ["pay phone"]


def test_checkboxes_by_label_and_in_table_rows(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.SET_CHECKED, text="Send me the newsletter")
    assert browser.js("document.getElementById('news').checked") is True
    run(browser, V.SET_CHECKED, row="Bob")
    states = "Array.from(document.querySelectorAll('#users tbody input')).map(i => i.checked)"
    assert browser.js(states) == [False, True, True]
    run(browser, V.SET_CHECKED, checked=False, row="Carol")
    assert browser.js(states) == [False, True, False]
    run(browser, V.SET_CHECKED, row="Carol Vie…")   # a row's text as an observation cut it short
    assert browser.js(states) == [False, True, True]
    with pytest.raises(DeviceFailure, match="actionable|disabled"):
        run(browser, V.SET_CHECKED, text="I accept the terms")
    assert browser.js("document.getElementById('terms').checked") is False


def test_select_option_native_and_aria(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.SELECT_OPTION, option="French", field="Language")
    assert browser.js("document.getElementById('lang').value") == "fr"
    run(browser, V.SELECT_OPTION, option="de")  # by value, and the dropdown found by its options
    assert browser.js("document.getElementById('lang').value") == "de"
    run(browser, V.SELECT_OPTION, option="Canada", field="Country")
    assert browser.js("document.getElementById('country').value") == "Canada"
    with pytest.raises(DeviceFailure, match="no option 'Klingon'.*'English'"):
        run(browser, V.SELECT_OPTION, option="Klingon", field="Language")
    # a dropdown named only by its name attribute, inside a wrapper whose class says the same words
    # (Datasette's filter row): the select is chosen, not the wrapper
    browser.js("""document.body.insertAdjacentHTML('beforeend', '<div class="filter-row"><div class="select-wrapper'
               + ' filter-op"><select name="_filter_op"><option value="exact">=</option><option value="contains">'
               + 'contains</option></select></div></div>')""")
    run(browser, V.SELECT_OPTION, option="contains", field="filter op")
    assert browser.js("document.querySelector('[name=_filter_op]').value") == "contains"


def test_double_click_hover_scroll_shortcut(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.DOUBLE_CLICK, text="double click me")
    assert browser.js("document.getElementById('dbl').textContent") == "double clicked"
    run(browser, V.HOVER, text="hover me")
    assert browser.js("document.getElementById('hov').textContent") == "hovered"
    run(browser, V.SCROLL_TO, text="Footer text far below")
    assert browser.js("(() => { const r = document.getElementById('far').getBoundingClientRect();"
                      " return r.top >= 0 && r.bottom <= innerHeight; })()") is True
    run(browser, V.PRESS_SHORTCUT, keys="Control+A Escape")
    assert browser.js("window.keys.slice(-2)") == ["Control+A", "Escape"]
    with pytest.raises(RequestError, match="unknown key"):
        run(browser, V.PRESS_SHORTCUT, keys="Control+Banana")


def test_go_back_and_reload(browser: Browser) -> None:
    browser.open("form.html")
    browser.open("docs.html")
    run(browser, V.GO_BACK)
    assert browser.js("location.pathname") == "/form.html"
    browser.js("document.getElementById('name').value = 'changed'")
    run(browser, V.RELOAD)
    assert browser.js("document.getElementById('name').value") == "Ada"


def test_click_by_role_and_name_index_and_old_params(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.INPUT_TEXT, text="Ada L", field="Full name")
    run(browser, V.CLICK, role="button", text="Save")
    assert browser.js("document.getElementById('status').textContent") == "Saved Ada L"
    browser.js("document.getElementById('status').textContent = ''")
    run(browser, V.CLICK, id="save")
    assert browser.js("document.getElementById('status').textContent") == "Saved Ada L"
    run(browser, V.CLICK, role="link", index=-1)
    assert browser.js("location.hash") == "#billing"
    run(browser, V.CLICK, selector="nav a", index=1)
    assert browser.js("location.hash") == "#profile"


def test_a_control_that_renders_late_is_waited_for(browser: Browser) -> None:
    browser.open("form.html")
    run(browser, V.CLICK, text="Late button")  # appears 0.7 s after load
    assert browser.js("document.getElementById('status').textContent") == "late clicked"


def test_missing_and_disabled_targets_are_failures_listing_what_is_there(browser: Browser) -> None:
    browser.open("form.html")
    with pytest.raises(DeviceFailure) as missing:
        run(browser, V.CLICK, role="button", text="Publish")
    assert "no button 'Publish'" in str(missing.value) and "'Save'" in str(missing.value)
    with pytest.raises(DeviceFailure, match="disabled"):
        run(browser, V.CLICK, text="Delete account")
    with pytest.raises(DeviceFailure, match="no row showing 'Zed'"):
        run(browser, V.CLICK, role="checkbox", row="Zed")
    with pytest.raises(DeviceFailure, match="no field 'Shoe size'"):
        run(browser, V.INPUT_TEXT, text="42", field="Shoe size")
    with pytest.raises(RequestError):
        run(browser, V.CLICK)


def test_a_key_that_submits_a_form_waits_for_the_page_it_loads(browser: Browser) -> None:
    """Enter in a real form's field navigates while the key's settling runs: that is the key working."""
    browser.open("submit.html")
    browser.js("document.getElementById('q').value = 'guide'; document.getElementById('q').focus()")
    assert run(browser, V.PRESS_KEY, key="OK") == "pressed OK"
    # the page's own state once the submitted form has loaded (the key may return before it commits)
    browser.session.call(lambda page: page.wait_for_url("**/docs.html?q=guide", timeout=10_000))
    assert browser.js("location.pathname + location.search") == "/docs.html?q=guide"
    # a check right after the key reads the page that loads, not the document the key left
    browser.open("submit.html")
    browser.js("document.getElementById('q').value = 'json'; document.getElementById('q').focus()")
    run(browser, V.PRESS_KEY, key="OK")
    assert "named by title" in browser.dom.execute(V.WAIT_FOR_PAGE, {"name": "Python docs"})


def test_fields_of_a_form_laid_out_as_a_table_are_named_by_the_cell_before_them(browser: Browser) -> None:
    """No <label>: the header cell before a field's cell, or the text just before it, names it, in the
    observation and when the field is found again at run time."""
    browser.open("table-form.html")
    names = {e.name for e in browser.remote.observe().elements if e.role in ("textbox", "combobox")}
    assert {"Title", "Priority", "Status", "Change Note", "Due date", "Search"} <= names
    run(browser, V.INPUT_TEXT, text="Timer does not ring", field="Title")
    run(browser, V.SELECT_OPTION, option="bug", field="Priority")
    run(browser, V.SELECT_OPTION, option="testing", field="Status")
    run(browser, V.INPUT_TEXT, text="seen on a tablet", field="Change Note")
    run(browser, V.INPUT_TEXT, text="2027-01-15", field="Due date")
    values = browser.js("Array.from(document.querySelectorAll('#issue [name]')).map(e => e.value)")
    assert values == ["Timer does not ring", "bug", "testing", "seen on a tablet", "2027-01-15"]
    assert browser.js("document.querySelector('[name=q1]').value") == ""
    # a cell holding a dropdown shows its chosen option, not every option it offers
    cells = [e.name or e.text for e in browser.remote.observe().elements if e.role == "cell"]
    assert "bug" in cells and "testing" in cells and not [c for c in cells if "critical" in c]
    # a check of that cell reads what it shows: "bug", not the options its dropdown offers
    cell = next(e for e in browser.remote.observe().elements if e.role == "cell" and (e.name or e.text) == "bug")
    browser.dom.execute("wait_for_element", {"selector": cell.selector, "text": "bug", "timeout": 1})
    with pytest.raises(DeviceFailure):
        browser.dom.execute("wait_for_element", {"selector": cell.selector, "text": "critical", "timeout": 0.5})


def test_the_page_s_own_confirm_is_accepted_and_its_alert_closed(browser: Browser) -> None:
    """A delete that asks "Are you sure?" with the browser's confirm() is confirmed: the task asked for it."""
    browser.open("confirm.html")
    run(browser, V.CLICK, text="Delete", row="Flask tutorial")
    assert browser.js("document.getElementById('b1')") is None
    assert browser.session.last_dialog == "confirm: Are you sure you want to delete this record?"
    run(browser, V.CLICK, text="Save", row="MDN Web Docs")
    assert browser.js("document.getElementById('b2').dataset.saved") == "yes"


def test_a_tags_box_takes_each_typed_tag_as_a_token_and_uncovers_the_form(browser: Browser) -> None:
    """Typing into a select2-style tags box is only a query until its suggestion is taken: each tag of "recipes,
    soup" is typed, then taken with Enter once the box offers it, and the suggestions no longer cover Save."""
    browser.open("tags.html")
    run(browser, V.INPUT_TEXT, text="Lentil soup", field="Title")
    run(browser, V.INPUT_TEXT, text="recipes, soup", field="Tags")
    assert browser.js("document.getElementById('tags').value") == "recipes,soup"
    run(browser, V.CLICK, text="Save")
    assert browser.js("document.getElementById('saved').textContent") == "recipes,soup"
    # a plain field is filled as it is, commas and all
    run(browser, V.INPUT_TEXT, text="Soup, lentil", field="Title")
    assert browser.js("document.getElementById('title').value") == "Soup, lentil"


def test_a_click_whose_page_comes_slowly_waits_for_it_and_is_no_failure(browser: Browser) -> None:
    """The click is done at once; the server answers the page it asked for after the click's own timeout. That is
    no unactionable element: the step waits for the new page, so the next step reads it and not the old one."""
    browser.open("slow_action.html")
    run(browser, V.CLICK, text="Restart all")
    assert browser.js("location.pathname") == "/slower/form.html"
    assert browser.js("document.readyState") == "complete" and browser.js("!!document.getElementById('name')")


def test_a_row_named_by_one_word_is_that_word_whole_and_cells_run_together_still_name_it(browser: Browser) -> None:
    """The planner names a row by a part that stays ("web", not "running pid 12, uptime 0:00:07 web …"): "web" is
    the row of web, not of webhooks. Where cells have no space between them the row's text is "adminadmin@…",
    which has no whole word "admin": the text as it is then."""
    browser.open("processes.html")
    run(browser, V.CLICK, text="Stop", row="web")
    assert browser.js("location.search") == "?name=web&action=stop"
    browser.open("processes.html")
    run(browser, V.CLICK, text="admin", role="link", row="admin")
    assert browser.js("location.hash") == "#/user/admin"


def test_enter_in_a_text_area_sends_its_form_with_the_form_s_button(browser: Browser) -> None:
    # Enter in a text area starts a new line: a comment typed with submit=True was never posted
    browser.open("comment-box.html")
    run(browser, V.INPUT_TEXT, text="Cleared the paper path", field="Comment", submit=True)
    assert browser.js("document.getElementById('status').textContent") == "Posted (post): Cleared the paper path"
    # a text area of no form keeps the page's own Enter (a chat box that sends on Enter)
    run(browser, V.INPUT_TEXT, text="on my way", field="Message", submit=True)
    assert browser.js("Array.from(document.querySelectorAll('#sent li')).map(l => l.textContent)") == ["on my way"]


def test_a_field_on_a_tab_not_selected_is_seen_and_its_tab_is_selected_first(browser: Browser) -> None:
    browser.open("settings-tabs.html")
    obs = browser.remote.observe()
    seen = {e.label: e for e in obs.elements if e.hidden}
    # the fields and controls of the other tabs are seen, hidden (their tab shows them); the shown tab's are not hidden
    assert {"Retries", "User agent", "Notification e-mail", "Play a sound", "Slug", "Preview slug"} <= set(seen)
    assert seen["User agent"].role == "combobox" and seen["User agent"].options == ("Desktop", "Mobile")
    assert not any(e.hidden for e in obs.elements if e.label in ("Hours between checks", "Page title"))
    run(browser, V.INPUT_TEXT, text="5", field="Retries")          # a plain "#fetching" link over its pane
    assert browser.js("document.getElementById('fetching').classList.contains('active')") is True
    assert browser.js("document.getElementById('retries').value") == "5"
    run(browser, V.SELECT_OPTION, option="Mobile", field="User agent")   # its tab shown already: no other click
    run(browser, V.SET_CHECKED, text="Play a sound")                # back on Notifications
    assert browser.js("document.getElementById('notifications').classList.contains('active')") is True
    run(browser, V.INPUT_TEXT, text="6", field="Hours between checks")
    run(browser, V.CLICK, text="Save", role="button")
    assert browser.js("document.getElementById('saved').textContent") == \
        "Saved: every 6 h, 5 retries, sound on, agent Mobile"
    run(browser, V.INPUT_TEXT, text="start", field="Slug")          # an ARIA tab's aria-controls
    assert browser.js("document.getElementById('t-promote').getAttribute('aria-selected')") == "true"
    run(browser, V.CLICK, text="Preview slug")
    assert browser.js("document.getElementById('saved').textContent") == "Preview of start"
    with pytest.raises(DeviceFailure):   # a field no tab holds is still a failure, never a click on a tab
        run(browser, V.INPUT_TEXT, text="x", field="Proxy server")


def test_an_option_a_page_fills_in_a_moment_after_another_choice_is_waited_for(browser: Browser) -> None:
    browser.open("dependent-dropdowns.html")
    run(browser, V.SELECT_OPTION, option="WebShop", field="Product")
    run(browser, V.SELECT_OPTION, option="Security", field="Category")   # its options arrive 0.6 s later
    run(browser, V.CLICK, text="Save", role="button")
    assert browser.js("document.getElementById('saved').textContent") == "Saved: WebShop / Security"
    with pytest.raises(DeviceFailure):   # an option that never comes is still a failure
        run(browser, V.SELECT_OPTION, option="Performance", field="Category")


def test_an_unreachable_app_is_an_error_with_the_browsers_reason(browser: Browser) -> None:
    # kept last in this module: Chromium's own error page for the refused connection can still be loading
    # when the call returns, and would interrupt the next test's first navigation in the shared browser
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ControllerError, match="ERR_CONNECTION_REFUSED"):
        run(browser, V.OPEN_URL, url=f"http://127.0.0.1:{port}/")
