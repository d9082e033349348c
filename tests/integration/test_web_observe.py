"""The web page as a ScreenObservation: one DOM walk in real headless Chromium on local pages."""
from __future__ import annotations

import json

import pytest

from backend_core.controllers.web_observe import observe_page
from backend_core.device import Device
from shared.screen import ScreenObservation
from shared import vocabulary as V
from shared.errors import DeviceFailure, VerificationFailed
from tests.integration.web_pages import Browser, browser, pages_url  # noqa: F401  (fixtures)
from tests.stack import Stack

pytestmark = pytest.mark.integration


def by_label(obs: ScreenObservation, role: str, label: str):
    return next(e for e in obs.elements if e.role == role and e.label == label)


def test_form_page_roles_names_values_and_state(browser: Browser) -> None:
    browser.open("form.html")
    obs = browser.remote.observe()
    assert obs.platform == "web" and obs.url.endswith("/form.html") and obs.title == "Profile settings"
    assert by_label(obs, "heading", "Profile").level == 1
    assert by_label(obs, "link", "Profile").selected  # aria-current
    name = by_label(obs, "textbox", "Full name")          # <label for>
    assert name.value == "Ada" and name.selector == "#name" and "fullname" in name.hint
    email = by_label(obs, "textbox", "Email")             # a wrapping <label>
    assert email.placeholder == "you@example.com" and email.value == ""
    city = next(e for e in obs.elements if e.placeholder == "City")
    assert city.name == "" and "city field" in city.hint  # data-testid words
    assert by_label(obs, "textbox", "SQL query").value == "SELECT 1"  # aria-label, a textarea's text
    lang = by_label(obs, "combobox", "Language")
    assert lang.options == ("English", "French", "German") and lang.value == "English"
    assert by_label(obs, "checkbox", "Send me the newsletter").checked is False
    terms = by_label(obs, "checkbox", "I accept the terms")
    assert terms.disabled and terms.checked is False
    assert by_label(obs, "button", "Save").clickable and not by_label(obs, "button", "Save").disabled
    assert by_label(obs, "button", "Delete account").disabled
    assert by_label(obs, "combobox", "Country").clickable  # an ARIA combobox
    assert not [e for e in obs.elements if e.role == "option"]  # its closed listbox is not shown
    rows = [e for e in obs.elements if e.role == "checkbox" and e.name == "select row"]
    assert [(r.container, r.checked) for r in rows] == [("Alice Admin", False), ("Bob Editor", False),
                                                        ("Carol Viewer", True)]
    assert by_label(obs, "cell", "Bob").container == "Bob Editor"
    texts = [e.text for e in obs.elements if e.role == "text"]
    assert "Edit your profile and press Save." in texts and "Save" not in texts  # <b> deduped into its <p>
    assert "Footer text far below" in texts  # below the fold is still on the page
    assert not any(e.hidden for e in obs.elements)
    assert obs.truncated is False


def test_selectors_are_reusable_and_unique(browser: Browser) -> None:
    browser.open("form.html")
    obs = browser.remote.observe()
    counts = browser.session.call(lambda page: [page.locator(e.selector).count() for e in obs.elements])
    assert counts and all(c == 1 for c in counts), [(e.selector, c) for e, c in zip(obs.elements, counts) if c != 1]


def test_todo_rows_and_hover_only_delete_buttons(browser: Browser) -> None:
    browser.open("todo.html")
    obs = browser.remote.observe()
    items = [e.text for e in obs.of_role("listitem")]
    assert items == ["buy milk", "walk the dog", "call mom"]
    destroy = [e for e in obs.elements if e.role == "button" and "destroy" in e.hint]
    assert [(d.container, d.hidden) for d in destroy] == [("buy milk", True), ("walk the dog", True),
                                                          ("call mom", True)]
    toggles = [e for e in obs.elements if e.role == "checkbox"]
    assert [t.checked for t in toggles] == [False, False, True]
    new = next(e for e in obs.elements if e.placeholder == "What needs to be done?")
    assert new.role == "textbox" and "new todo" in new.hint
    assert "3 items left" in obs.visible_texts()
    assert "destroy" not in " ".join(obs.visible_texts())


def test_cap_truncates_and_dump_elements_returns_the_observation(browser: Browser) -> None:
    browser.open("form.html")
    small = browser.session.call(lambda page: observe_page(page, max_elements=5))
    assert len(small.elements) == 5 and small.truncated
    dumped = json.loads(browser.remote.execute("dump_elements", {}))
    assert ScreenObservation.from_dict(dumped) == browser.remote.observe()
    device = Device("web", "Web", "m", "ui", browser.controllers)
    assert device.reader is browser.remote and device.observe().title == "Profile settings"


def test_screen_route_through_server_and_host(demo_stack: Stack) -> None:
    screen = demo_stack.get("/api/devices/demo-web/screen")
    assert screen["platform"] == "web" and screen["url"].startswith("http")
    assert screen["elements"] and all("role" in e for e in screen["elements"])
    assert any(e["role"] == "heading" for e in screen["elements"])
    assert demo_stack.http.get(demo_stack.url + "/api/devices/nope/screen", timeout=30).status_code == 404


def test_closed_menus_hover_tools_and_an_open_dialog(browser: Browser) -> None:
    """Items of a closed menu and a row's hover-only tools are on the screen (hidden); an open dialog is all
    there is; a click on a menu item opens its menu first, and a row is found by the text it shows."""
    from shared.errors import DeviceFailure

    browser.open("menus.html")
    obs = browser.remote.observe()
    prefs = by_label(obs, "link", "Preferences")
    assert prefs.hidden and prefs.container == ""          # in a closed menu: no row's tool
    tools = [e for e in obs.elements if e.role == "button" and e.name == "deactivate"]
    assert [(e.hidden, e.container) for e in tools] == [(True, "Ann 10"), (True, "Ben -10")]
    # a check of a row's tool sees it, hover or not: Ann is not deactivated yet
    with pytest.raises(DeviceFailure):
        browser.dom.execute("wait_for_element", {"text": "deactivate", "row": "Ann", "present": False,
                                                 "timeout": 0.5})
    # the row's text content also holds its hidden tool's label: "Ann 10" is still that row
    browser.remote.execute("click_element", {"text": "deactivate", "role": "button", "row": "Ann 10"})
    assert browser.js("document.getElementById('ann').className") == "inactive"
    assert browser.js("document.getElementById('ben').className") == ""
    browser.dom.execute("wait_for_element", {"text": "deactivate", "row": "Ann", "present": False, "timeout": 2})

    browser.remote.execute("click_element", {"text": "New expense", "role": "button"})
    shown = browser.remote.observe()
    assert by_label(shown, "textbox", "Amount") and not [e for e in shown.elements if e.label == "Name"]
    browser.remote.execute("click_element", {"text": "Close", "role": "button"})
    assert any(e.label == "Name" for e in browser.remote.observe().elements)

    browser.remote.execute("click_element", {"text": "Preferences", "role": "link"})   # the menu opens first
    browser.session.call(lambda page: page.wait_for_url("**/form.html", timeout=5000))

    # a menu hidden by visibility and opacity (it fades in), behind a toggle with no name: opened the same way
    browser.open("menus.html")
    assert by_label(browser.remote.observe(), "link", "Changelog").hidden
    browser.remote.execute("click_element", {"text": "Changelog", "role": "link"})
    browser.session.call(lambda page: page.wait_for_url("**/docs.html", timeout=5000))


def test_the_screen_is_read_after_its_transitions_end(browser: Browser) -> None:
    """A dialog shown only when its backdrop's fade ends is on the screen read right after the click that
    opened it (the plan of the next clause is made against it); an endless spinner is not waited for."""
    from backend_core.controllers.browser import wait_quiet

    browser.open("fade.html")
    assert browser.session.call(wait_quiet)          # only the endless spinner runs: quiet
    assert browser.js("document.querySelector('.spinner').getAnimations()[0].playState") == "running"
    browser.remote.execute("click_element", {"text": "Add a new bill", "role": "button"})
    shown = browser.remote.observe()
    assert by_label(shown, "textbox", "What?") and by_label(shown, "combobox", "Who paid?")
    assert not [e for e in shown.elements if e.role == "cell"]   # the dialog is all there is


def test_endless_animations_can_be_paused_and_finite_transitions_still_run(
        pages_url: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``pause_endless_animations``: a spinner that repeats forever is paused as it starts (headless Chromium
    would repaint it every frame); the backdrop's fade, finite, still runs and its dialog opens."""
    paused = Browser(pages_url, tmp_path_factory.mktemp("still"), pause_endless_animations=True)
    try:
        paused.open("fade.html")
        states = "Array.from(document.querySelectorAll('.spinner')).flatMap(e => e.getAnimations()).map(a => a.playState)"
        # paused when its animationstart is dispatched, a frame after the page loaded
        paused.session.call(lambda page: page.wait_for_function(f"{states}.join() === 'paused'", timeout=3000))
        assert paused.js(states) == ["paused"]
        paused.remote.execute("click_element", {"text": "Add a new bill", "role": "button"})
        assert by_label(paused.remote.observe(), "textbox", "What?")
        assert paused.js("getComputedStyle(document.getElementById('dialog')).opacity") == "1"
    finally:
        paused.close()


def test_the_screen_is_read_after_the_content_a_click_loads(browser: Browser) -> None:
    """A dialog whose form comes from the server after the click (a Flask-Admin create modal) is on the
    screen read after that click."""
    browser.open("remote-dialog.html")
    browser.remote.execute("click_element", {"text": "Create", "role": "link"})
    shown = browser.remote.observe()
    assert by_label(shown, "textbox", "URL") and by_label(shown, "textbox", "Title")


def test_a_rows_controls_in_list_items_of_their_own_belong_to_the_row(browser: Browser) -> None:
    """Supervisor's table puts each row's links in <li>s: the <li> holds nothing but its link, so the link's row is
    the table row around it (else "restart web" finds no Restart in web's row). A list of links keeps its items."""
    browser.open("processes.html")
    obs = browser.remote.observe()
    restarts = [e for e in obs.elements if e.role == "link" and e.label == "Restart"]
    assert [e.container for e in restarts] == ["running webhooks Restart Stop", "running web Restart Stop"]
    start = next(e for e in obs.elements if e.role == "link" and e.label == "Start")
    assert start.container == "stopped backup Start"
    mail = next(e for e in obs.elements if e.role == "link" and e.label == "Lunch on Friday?")
    assert mail.container == "Lunch on Friday?"


def test_a_page_is_read_once_its_app_has_finished_drawing_it(browser: Browser) -> None:
    browser.open("sliders.html")   # a paragraph is added 0.7 s after load, as a streamed page's content is
    texts = [e.text for e in browser.remote.observe().elements if e.role == "text"]
    assert "Drawn after load" in texts


def test_sliders_are_moved_to_a_value_and_a_value_they_cannot_take_fails(browser: Browser) -> None:
    from shared.errors import DeviceFailure

    browser.open("sliders.html")
    assert "35" in browser.remote.set_slider(value=35, field="Volume")     # a native range input, set
    assert "7" in browser.remote.set_slider(value=7, field="Brightness")   # an ARIA slider, by its arrow keys
    obs = browser.remote.observe()
    assert by_label(obs, "slider", "Volume").value == "35"
    texts = [e.text for e in obs.elements if e.role == "text"]
    assert "Volume is 35" in texts and "Brightness is 7" in texts
    with pytest.raises(DeviceFailure, match="stops at"):
        browser.remote.set_slider(value=33, field="Volume")   # its step is 5
    with pytest.raises(DeviceFailure, match="stops at 10"):
        browser.remote.set_slider(value=12, field="Brightness")   # past its end


def test_a_radio_the_page_hides_and_draws_itself_is_chosen_by_its_label(browser: Browser) -> None:
    browser.open("sliders.html")
    assert "by its label" in browser.remote.set_checked(checked=True, text="Imperial", role="radio")
    obs = browser.remote.observe()
    assert by_label(obs, "radio", "Imperial").checked is True and by_label(obs, "radio", "Metric").checked is False


def test_icon_links_a_dialog_over_the_page_and_a_folded_navigation(browser: Browser) -> None:
    """An icon link is named by the tooltip on a part of it; while a dialog covers the page, a row behind it is
    not proved gone (it is not seen); the links of a folded navigation are places to go, and a click follows one."""
    from shared.errors import DeviceFailure

    browser.open("handbook.html")
    obs = browser.remote.observe()
    assert [e.container for e in obs.elements if e.role == "link" and e.name == "Delete"] == \
        ["Maria Keller", "Lena Berg"]
    guide = by_label(obs, "link", "Todo guide")
    assert guide.hidden and guide.href == "todo.html" and guide.container == ""
    assert not any(e.label == "Anchor only" for e in obs.elements)   # an anchor of this page goes nowhere
    assert not obs.modal

    browser.remote.execute("click_element", {"text": "Delete", "role": "link", "row": "Lena Berg"})
    shown = browser.remote.observe()
    assert shown.modal and by_label(shown, "button", "Delete").container == ""   # not a row of the card behind
    with pytest.raises(DeviceFailure, match="dialog covers the page"):
        browser.dom.execute("wait_for_element", {"row": "Lena Berg", "present": False, "timeout": 0.5})
    browser.remote.execute("click_element", {"text": "Delete", "role": "button"})
    browser.dom.execute("wait_for_element", {"row": "Lena Berg", "present": False, "timeout": 2})
    assert browser.js("document.getElementById('r2') === null") is True
    assert browser.js("document.getElementById('r1') !== null") is True

    browser.remote.execute("click_element", {"text": "Todo guide", "role": "link"})
    browser.session.call(lambda page: page.wait_for_url("**/todo.html", timeout=5000))
    browser.open("handbook.html")
    with pytest.raises(DeviceFailure):   # a folded link to an anchor of this page is no place to follow
        browser.remote.execute("click_element", {"text": "Anchor only", "role": "link"})


def test_a_dropdown_a_widget_kit_draws_is_read_and_chosen_as_its_select(browser: Browser) -> None:
    """Select2, Chosen, Tom Select hide the <select> and draw a box of their own: the field is the select, by its
    label and with its options, and an option is chosen in it (the kit is told, and shows it)."""
    from shared.errors import DeviceFailure

    browser.open("widget-select.html")
    doctor = by_label(browser.remote.observe(), "combobox", "Doctor")
    assert doctor.value == "Jonas Weber" and doctor.options == ("", "Amara Osei", "Jonas Weber") and not doctor.hidden
    assert "through the widget" in browser.remote.select_option(option="Amara Osei", field="Doctor")
    assert browser.js("document.getElementById('doctor').value") == "1"
    assert browser.js("document.getElementById('chosen').textContent") == "Amara Osei"
    assert by_label(browser.remote.observe(), "combobox", "Doctor").value == "Amara Osei"
    with pytest.raises(DeviceFailure):   # an option it does not offer fails as before
        browser.remote.select_option(option="Nobody Here", field="Doctor")


def test_tabs_known_by_their_class_a_button_that_opens_a_list_a_cross_in_a_row_and_a_sort_icon(
        browser: Browser) -> None:
    """A data app's parts with no ARIA of their own (as Plotly Dash draws them): read as what they are, and driven
    by what they were read as."""
    browser.open("data-grid.html")
    obs = browser.remote.observe()
    assert [(e.name, e.selected) for e in obs.of_role("tab")] == [("Vehicles", True), ("Service log", False)]
    depot = by_label(obs, "combobox", "Depot")
    assert depot.value == "All depots" and not depot.options   # its options are drawn only when it opens
    cross = next(e for e in obs.elements if e.name == "×" and "YK19 PLR" in e.container)
    assert cross.clickable
    # an icon font draws its word as a picture (Material Icons' "arrow_upward"): the header is "Mileage"
    assert "Mileage" in [e.name for e in obs.elements if e.role == "cell"]
    assert "arrow_upward" not in " ".join(e.name + " " + (e.text or "") for e in obs.elements)

    browser.remote.select_option(option="York", field="Depot")
    assert browser.js("[...document.querySelectorAll('#grid tr')].slice(1).map(r => r.cells[2].textContent)") \
        == ["York", "York"]
    assert by_label(browser.remote.observe(), "combobox", "Depot").value == "York"

    browser.remote.click_element(text="×", row="YK19 PLR")
    assert browser.js("[...document.querySelectorAll('#grid tr')].slice(1).map(r => r.cells[1].textContent)") \
        == ["YK21 MNB"]

    assert "sorted by" in browser.remote.sort_table(column="Plate", order="ascending")
    assert "sorted by 'Mileage'" in browser.remote.sort_table(column="Mileage", order="descending")

    browser.remote.click_element(text="Service log", role="tab")
    assert browser.js("document.getElementById('log').classList.contains('shown')")
    assert [(e.name, e.selected) for e in browser.remote.observe().of_role("tab")][1] == ("Service log", True)


def test_a_dropdown_whose_input_a_kit_hides_is_read_by_its_field_and_chosen_in(browser: Browser) -> None:
    """Quasar's q-select: the input that holds the focus is a transparent pixel inside the field the kit draws
    (a <label>). It is read as a dropdown with the field's place and the value the field shows, and driven."""
    browser.open("drawn-select.html")
    team = by_label(browser.remote.observe(), "combobox", "Team")
    assert team.value == "" and not team.options and team.box[2] > 50   # the field's box, not the pixel's
    browser.remote.select_option(option="Bar", field="Team")
    assert browser.js("document.getElementById('picked').dataset.team") == "Bar"
    assert by_label(browser.remote.observe(), "combobox", "Team").value == "Bar"


def test_a_switch_shown_late_or_missed_while_it_moved_is_set_and_one_the_app_keeps_fails(browser: Browser) -> None:
    browser.open("late-switch.html")
    assert "shown late" in browser.remote.set_checked(checked=True, text="Email reminders", role="switch")
    assert "second click" in browser.remote.set_checked(checked=True, text="Weekly digest", role="switch")
    assert browser.js("['late', 'sliding'].map(i => document.getElementById(i).getAttribute('aria-checked'))") \
        == ["true", "true"]
    with pytest.raises(DeviceFailure, match="still unchecked after two clicks"):
        browser.remote.set_checked(checked=True, text="Locked setting", role="switch")


def test_an_aria_grid_of_divs_is_read_with_selectors_that_say_its_rows_and_cells(browser: Browser) -> None:
    """Its cells' selectors name their role, as a table's name their tag: a column's cells of every row are one
    selector, and the device counts them."""
    browser.open("aria-grid.html")
    cells = [e for e in browser.remote.observe().elements if e.role == "gridcell"]
    priya = [e for e in cells if e.name == "Priya Shah" or e.text == "Priya Shah"]
    assert len(priya) == 2 and all(e.selector.endswith("div[role=gridcell]:nth-of-type(3)") for e in priya)
    column = priya[0].selector.replace(priya[0].selector.split(" > ")[-2], "div[role=row]")
    params = {"text": "Priya Shah", "selector": column, "exact": True, "timeout": 0.5}
    browser.dom.execute(V.WAIT_FOR_ELEMENT, {**params, "count": 2})   # the device counts the column's cells
    with pytest.raises(VerificationFailed):
        browser.dom.execute(V.WAIT_FOR_ELEMENT, {**params, "count": 3})


def test_a_dialog_parked_above_the_page_is_closed_until_it_opens_and_then_only_it_is_used(browser: Browser) -> None:
    """halfmoon parks a closed dialog at top: -100%: not a modal, nothing of it reported or clicked; the page's own
    icon button is named by its title. Once the dialog is open, its Save is the one clicked, not the page's behind."""
    browser.open("parked-dialog.html")
    obs = browser.remote.observe()
    assert not obs.modal
    assert not [e for e in obs.elements if "Commit Message" in (e.name, e.text)]
    assert [e.label for e in obs.elements if e.role == "button"] == ["Save"]
    browser.remote.execute(V.CLICK, {"text": "Save", "role": "button"})
    browser.session.call(lambda page: page.wait_for_timeout(300))
    opened = browser.remote.observe()
    assert opened.modal and by_label(opened, "textbox", "Commit Message")
    browser.remote.execute(V.INPUT_TEXT, {"text": "Update Old Notes", "field": "Commit Message"})
    browser.remote.execute(V.CLICK, {"text": "Save", "role": "button"})
    assert browser.js("document.getElementById('saved').textContent") == "Saved: Update Old Notes"


def test_a_text_editor_drawn_in_a_frame_is_one_field_that_is_typed_in(browser: Browser) -> None:
    """A note's text typed in a frame of the page's own: the frame is one text box, called an editor where nothing
    names it, its text the value; typing after its text goes inside the frame, never into another box."""
    browser.open("framed-editor.html")
    browser.session.call(lambda page: page.wait_for_timeout(300))   # the frame's document is written after load
    obs = browser.remote.observe()
    framed = [e for e in obs.elements if e.role == "textbox" and "editor" in e.hint.split()]
    assert len(framed) == 1 and not framed[0].name and framed[0].value == "First line"
    browser.remote.execute(V.INPUT_TEXT, {"text": "\nSecond line", "selector": framed[0].selector, "clear": False})
    browser.remote.execute(V.CLICK, {"text": "Save", "role": "button"})
    assert browser.js("document.getElementById('saved').textContent") == "Saved: First line\nSecond line"
    assert browser.js("document.getElementById('field-value').value") == ""


def test_an_item_of_a_panel_behind_its_disclosure_button_is_reached_by_opening_it(browser: Browser) -> None:
    """Users sits in a closed panel of no menu class; the button beside the panel says it expands: it is opened,
    then Users is clicked. So is Publish, in the panel beside a form's "More actions"."""
    browser.open("disclosure-menu.html")
    obs = browser.remote.observe()
    users = [e for e in obs.elements if e.role == "link" and e.name == "Users"]
    assert users and users[0].hidden
    browser.remote.execute(V.CLICK, {"text": "Users", "role": "link"})
    assert browser.js("document.getElementById('where').textContent") == "Users"
    # a button in a closed panel beside "More actions" is reported, hidden, and clicked through its opener
    publish = [e for e in obs.elements if e.role == "button" and e.name == "Publish"]
    assert publish and publish[0].hidden
    browser.remote.execute(V.CLICK, {"text": "Publish", "role": "button"})
    assert browser.js("document.getElementById('where').textContent") == "Published"


def test_a_field_named_with_its_required_mark_is_found_by_its_label(browser: Browser) -> None:
    """"Password confirmation *" as observed, "Password confirmation*" as the label reads: the confirmation box,
    never the password box whose label it also starts with."""
    browser.open("required-marks.html")
    names = [e.name for e in browser.remote.observe().elements if e.role == "textbox"]
    assert names == ["Password *", "Password confirmation *"]
    browser.remote.execute(V.INPUT_TEXT, {"text": "s3cret-one", "field": "Password *"})
    browser.remote.execute(V.INPUT_TEXT, {"text": "s3cret-two", "field": "Password confirmation *"})
    assert browser.js("document.getElementById('p1').value") == "s3cret-one"
    assert browser.js("document.getElementById('p2').value") == "s3cret-two"


def test_a_field_captioned_beside_its_box_is_named_by_the_caption(browser: Browser) -> None:
    """"<dt>Price</dt><dd><input></dd>" and a caption in a div of a label class name their box; a hidden copy of a
    text area's own text (drawn to size it) is no caption; two boxes in one wrapper share no caption. The disabled
    Save Changes is clicked once typing has enabled it."""
    browser.open("captioned-fields.html")
    boxes = [e for e in browser.remote.observe().elements if e.role == "textbox"]
    fields = {e.name: e for e in boxes}
    assert fields["Price"].value == "$4.50"
    assert fields["Description"].value == "A slow-fermented country loaf."
    assert fields["Baker"].value == "Ada"
    assert [e.selector for e in boxes if e.name == "Size"] == ["#w"]   # the text just before it, not #h's too
    browser.remote.execute(V.INPUT_TEXT, {"text": "$4.95", "field": "Price", "clear": True})
    browser.remote.execute(V.INPUT_TEXT, {"text": "A country loaf.", "field": "Description", "clear": True})
    browser.remote.execute(V.CLICK, {"text": "Save Changes", "role": "button"})
    assert browser.js("document.getElementById('saved').textContent") == "Saved: $4.95 / A country loaf."
    # the box the "Find Files" button shows is captioned "Find Files" too: typing goes in the box, not the button
    browser.remote.execute(V.CLICK, {"text": "Find Files", "role": "button"})
    browser.remote.execute(V.INPUT_TEXT, {"text": "rye", "field": "Find Files"})
    assert browser.js("document.getElementById('find').value") == "rye"


def test_a_page_of_the_apps_own_in_a_frame_is_read_and_used(browser: Browser) -> None:
    """A preview drawn in a frame of the app's own origin: what it shows is on the screen (named by its text, with
    no selector of the page's), a check finds its text, and a click reaches its links."""
    browser.open("preview-frame.html")
    browser.session.call(lambda page: page.wait_for_timeout(300))
    obs = browser.remote.observe()
    said = [e for e in obs.elements if (e.text or e.name) == "Everything is baked on site."]
    assert said and not said[0].selector
    assert [h.label for h in obs.headings() if h.level == 1] == ["Menu"]
    browser.dom.execute(V.WAIT_FOR_ELEMENT, {"text": "Everything is baked on site.", "present": True})
    browser.remote.execute(V.CLICK, {"text": "Rye Loaf", "role": "link"})
    assert browser.js("document.getElementById('where').textContent") == "Rye Loaf"


def test_a_toggle_drawn_as_a_label_is_a_button_and_a_name_is_matched_as_whole_words(browser: Browser) -> None:
    """A "View Source" drawn as the label of a hidden box (its words in CSS, kept in a hidden span) is a button,
    named, with the box's state; clicking the second one opens loads' source only. "encode" is the link named so,
    never the "JSONEncoder()" whose name only holds the letters; an ARIA search box is a text box."""
    browser.open("api-members.html")
    obs = browser.remote.observe()
    toggles = [e for e in obs.elements if e.role == "button" and e.name == "View Source"]
    assert len(toggles) == 2 and not any(e.checked for e in toggles)
    assert [e.placeholder for e in obs.elements if e.role == "textbox"] == ["Search..."]
    browser.remote.execute(V.CLICK, {"text": "View Source", "role": "button", "index": 1})
    shown = "getComputedStyle(document.getElementById('{}-source')).display"
    assert browser.js(shown.format("loads")) == "block" and browser.js(shown.format("dumps")) == "none"
    assert [e.checked for e in browser.remote.observe().elements if e.name == "View Source"] == [False, True]
    browser.remote.execute(V.CLICK, {"text": "encode", "role": "link", "row": "JSONEncoder"})
    assert browser.js("location.hash") == "#JSONEncoder.encode"


def test_a_command_line_that_reads_its_keys_is_typed_into_key_by_key(browser: Browser) -> None:
    """A terminal-like box builds its line from the keys it reads (its value is only a view): a command typed there
    and sent runs as typed."""
    browser.open("command-line.html")
    browser.remote.execute(V.INPUT_TEXT, {"text": "GET shop:name", "field": "db>", "submit": True})
    assert browser.js("document.getElementById('out').textContent") == "ran: GET shop:name\n"


def test_a_checkbox_a_kit_draws_over_its_transparent_box_is_shown_and_picks_its_row(browser: Browser) -> None:
    """A row's checkbox drawn by a kit (the real box transparent, full size, under the drawn one) is shown, so a
    list whose Delete waits for a pick is worked as testers do: pick the row, Delete, confirm; the row is gone."""
    browser.open("picked-rows.html")
    obs = browser.remote.observe()
    boxes = [e for e in obs.elements if e.role == "checkbox"]
    assert [(b.container.split()[0], b.hidden) for b in boxes] == [
        ("image-tagger", False), ("price-forecast", False), ("churn-model", False)]
    assert by_label(obs, "button", "Delete").disabled
    browser.remote.execute(V.SET_CHECKED, {"checked": True, "row": "image-tagger", "role": "checkbox"})
    browser.remote.execute(V.CLICK, {"text": "Delete", "role": "button"})
    browser.remote.execute(V.CLICK, {"text": "Delete", "role": "button"})   # the dialog's, the page behind is inert
    names = browser.js("Array.from(document.querySelectorAll('#rows a')).map(a => a.textContent)")
    assert names == ["price-forecast", "churn-model"]


def test_icons_are_named_by_their_tooltips_in_their_card_and_a_read_only_box_says_so(browser: Browser) -> None:
    """A link drawn as a sign ("✏️") is named by its tooltip ("Edit"); the tools of a card, each in a list item
    with no words, belong to the card; a box that only shows an address is read-only; a label that two copies of a
    form point at names the box once."""
    browser.open("collection-cards.html")
    obs = browser.remote.observe()
    assert by_label(obs, "link", "Create a new collection")
    edits = [e for e in obs.elements if e.role == "link" and e.name == "Edit"]
    assert [(e.container.split()[0], e.hidden) for e in edits] == [("Work", True), ("Family", True)]
    boxes = [e for e in obs.elements if e.role == "textbox" and e.value.startswith("http")]
    assert len(boxes) == 2 and all("readonly" in e.hint.split() for e in boxes)
    assert [e.name for e in obs.elements if e.role == "textbox" and e.value == "Work"] == ["Title:"]


def test_an_item_of_a_nested_list_hidden_under_its_items_link_opens_it_first(browser: Browser) -> None:
    """A user menu drawn as a nested list under its item's own link (li > a + ul, of no menu class): "Log Out" is
    there, hidden, and a click on it opens the menu first."""
    browser.open("user-menu.html")
    assert by_label(browser.remote.observe(), "link", "Log Out").hidden
    browser.remote.execute("click_element", {"text": "Log Out", "role": "link"})
    assert browser.js("document.getElementById('state').textContent") == "signed out"
    browser.remote.execute("click_element", {"text": "About", "role": "link"})   # a list inside its own link
    assert browser.js("document.getElementById('state').textContent") == "about shown"


def test_a_list_of_divs_has_rows_and_a_grid_of_fields_is_named_by_its_row_and_column(browser: Browser) -> None:
    """A file list drawn with <div>s (no li, tr or card class) still has rows: a file's tools are in the row of its
    name, and the tools of one file are used, not the first file's. A grid of fields names each box by its row's
    header and its column's ("Bed Target"), not by the value shown beside it."""
    browser.open("div-list-grid.html")
    obs = browser.remote.observe()
    removes = [e for e in obs.elements if e.name == "Remove"]
    assert [e.container.split()[0] for e in removes] == ["benchy.gcode", "calibration_cube.gcode", "phone_stand.gcode"]
    boxes = [e.name for e in obs.elements if e.role == "textbox" or e.role == "spinbutton"]
    assert boxes == ["Tool Target", "Bed Target"]
    browser.remote.execute(V.CLICK, {"text": "Load", "role": "link", "row": "calibration_cube.gcode"})
    assert browser.js("document.getElementById('selected').textContent") == "calibration_cube.gcode"
    assert browser.js("document.getElementById('printing').textContent") == ""
    browser.remote.execute(V.CLICK, {"text": "Remove", "role": "link", "row": "phone_stand.gcode"})
    assert browser.js("Array.from(document.querySelectorAll('.title')).map(t => t.textContent)") == [
        "benchy.gcode", "calibration_cube.gcode"]
    browser.remote.execute(V.INPUT_TEXT, {"text": "55", "field": "Bed Target", "submit": True, "clear": True})
    assert browser.js("document.getElementById('t-bed').textContent") == "55"
    assert browser.js("document.getElementById('t-tool').textContent") == "off"


def test_a_button_in_a_folded_panel_is_seen_and_its_toggle_opens_it_first(browser: Browser) -> None:
    """A panel folded by its heading's toggle (Bootstrap's collapse) and a closed <details>: their buttons are seen
    (hidden, even beside the panel's fields), and clicking one opens its panel first."""
    browser.open("div-list-grid.html")
    obs = browser.remote.observe()
    assert [(e.name, e.hidden) for e in obs.elements if e.name in ("Disconnect", "Reset counters")] == [
        ("Disconnect", True), ("Reset counters", True)]
    browser.remote.execute(V.CLICK, {"text": "Disconnect", "role": "button"})
    assert browser.js("document.getElementById('state').textContent") == "Offline"
    browser.remote.execute(V.CLICK, {"text": "Reset counters", "role": "button"})
    assert browser.js("document.getElementById('state').textContent") == "Reset"


def test_a_button_of_a_panel_squeezed_to_no_height_is_clicked_once_its_panel_opens(browser: Browser) -> None:
    """Bootstrap 2 folds a panel by giving it no height: its button still counts as shown but cannot be clicked,
    so its panel's toggle is clicked first and the click tried again."""
    browser.open("div-list-grid.html")
    browser.remote.execute(V.CLICK, {"text": "Start job", "role": "button"})
    assert browser.js("document.getElementById('state').textContent") == "Printing"


def test_a_span_styled_and_scripted_as_a_button_is_one(browser: Browser) -> None:
    browser.open("div-list-grid.html")
    assert by_label(browser.remote.observe(), "button", "Create folder...")
    browser.remote.execute(V.CLICK, {"text": "Create folder...", "role": "button"})
    assert browser.js("document.getElementById('state').textContent") == "Asked for a name"


def test_a_group_of_items_each_with_its_own_control_is_no_row(browser: Browser) -> None:
    """Two folders of <div>s, each file with its own Delete: a folder is no row of its files (its Delete would be
    any file's), so no file's Delete is given the folder as its row."""
    browser.open("grouped-files.html")
    obs = browser.remote.observe()
    deletes = [e for e in obs.elements if e.name == "Delete"]
    assert len(deletes) == 4 and not any("Archive" in e.container or "Parts" in e.container for e in deletes)
