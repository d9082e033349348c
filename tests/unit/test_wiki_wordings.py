"""A wiki's tasks as testers word them (An Otter Wiki, from PyPI), planned on captured screens.

Written for this file from a fresh batch of tasks run on the live app; each case is a general rule the batch
showed missing: a page's text is edited in a CodeMirror editor behind "Edit", a page is made in two parts (its
name, then its text), a save asks for a commit message in a dialog, and checks name another page than the one shown.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

EDITOR = "#editor_block > div"


def test_the_page_text_goes_in_the_editor_that_nothing_names() -> None:
    p = plan('fill in text "Archived"', screen("wiki/Release%20Checklist/edit"))
    assert steps(p) == [("input_text", {"text": "Archived", "selector": EDITOR, "clear": True})]


def test_a_form_in_parts_fills_what_it_has_then_goes_on_with_the_rest() -> None:
    p = plan('fill in name "Printer Notes", text "Toner is in the cupboard"; save', screen("wiki/-/create"))
    assert steps(p) == [("input_text", {"text": "Printer Notes", "field": "Page name", "clear": True}),
                        ("click_element", {"text": "Create and open in editor", "role": "button"})]
    assert p.pending[0] == 'fill in text "Toner is in the cupboard"' and p.pending[1] == "save"


def test_a_read_only_page_opens_its_editor_before_its_text_is_filled_in() -> None:
    p = plan('fill in text "Archived"', screen("wiki/Old%20Notes"))
    assert steps(p) == [("click_element", {"text": "Edit Page (e)", "role": "button"})]
    assert p.pending == ['fill in text "Archived"']


def test_a_line_added_to_a_page_is_appended_in_its_editor_and_saved() -> None:
    p = plan("add a line 'Tag the build' at the end", screen("wiki/Release%20Checklist/edit"))
    assert steps(p) == [("input_text", {"text": "\nTag the build", "selector": EDITOR, "clear": False}),
                        ("click_element", {"text": "Save", "role": "button"})]
    assert p.pending == ['check that "Tag the build" was saved']
    # on the page as shown, read-only: its Edit first
    p = plan("append the sentence 'Welcome, testers!'", screen("wiki/Old%20Notes"))
    assert steps(p) == [("click_element", {"text": "Edit Page (e)", "role": "button"})]


def test_what_another_page_does_not_say_is_read_on_that_page() -> None:
    p = plan("confirm the Release Checklist does not say 'Deploy on Friday'", screen("wiki/"))
    assert steps(p)[0] == ("click_element", {"text": "Release Checklist", "role": "link"})
    assert p.pending == ['check "Deploy on Friday" is not shown']


def test_a_count_after_a_step_that_moves_is_read_on_the_page_reached() -> None:
    p = plan("open device inventory; verify 3 devices are listed", screen("wiki/"))
    assert steps(p)[0] == ("click_element", {"text": "Device Inventory", "role": "link"})
    assert p.pending == ["verify 3 devices are listed"]
    p = plan("the inventory should have five devices in it", screen("wiki/"))
    assert steps(p) == [("click_element", {"text": "Device Inventory", "role": "link"})]
    assert p.pending == ["check there are 5 devices"]
    assert steps(plan("verify 3 devices are listed", screen("wiki/Device%20Inventory"))) == \
        [("wait_for_element", {"role": "row", "count": 3, "present": True})]


def test_finding_every_page_about_a_word_is_a_search_for_it() -> None:
    got = steps(plan("find every page that talks about phones", screen("wiki/")))
    assert got[0] == ("input_text", {"text": "phones", "field": "Search", "clear": True, "submit": True})


def test_a_save_that_led_to_the_edit_page_is_sent_on_and_never_proved_by_the_form() -> None:
    p = plan('check that "Tag the build" was saved', screen("wiki/Release%20Checklist/edit"))
    assert steps(p) == [("click_element", {"text": "Save", "role": "button"})]
    assert p.pending == ['check that "Tag the build" was saved (sent on)']
    # after two sends the form is still there: the save never went through, and the run fails on it
    p = plan('check that "Tag the build" was saved (sent on) (sent on)', screen("wiki/Release%20Checklist/edit"))
    assert steps(p) == [("wait_for_element", {"text": "Save", "role": "button", "present": False})]


def test_what_the_wiki_is_called_is_its_title() -> None:
    for task in ("verify the wiki is called Lab Wiki", "check the site is named Lab Wiki"):
        assert steps(plan(task, screen("wiki/"))) == [("wait_for_page", {"name": "Lab Wiki", "present": True})]


def test_a_page_that_links_to_another_shows_it_and_is_no_row_of_its_name() -> None:
    # the sidebar lists a page called Home: "the Home page" is the page shown, not that row
    got = steps(plan("check that the Home page links to Lab Setup", screen("wiki/")))
    assert got[-1] == ("wait_for_element", {"text": "Lab Setup", "role": "link", "present": True})
    assert not [params for _, params in got if params.get("row")]
    p = plan("verify the Release Checklist page links to the Home page", screen("wiki/"))
    assert steps(p)[0] == ("click_element", {"text": "Release Checklist", "role": "link"})


def test_a_page_said_first_with_a_colon_is_where_the_rest_is_done() -> None:
    p = plan("Home page: append the sentence 'Welcome, testers!'", screen("wiki/Old%20Notes"))
    assert steps(p)[0] == ("click_element", {"text": "Home", "role": "link"})
    assert p.pending == ["append the sentence 'Welcome, testers!'"]


def test_a_question_with_its_answer_is_checked_where_the_page_answers_it() -> None:
    got = steps(plan("who has the key to the cabinet? it should be Dana", screen("wiki/Lab%20Setup")))
    assert got == [("wait_for_element", {"text": "Dana", "selector": "#column-main > div > article > p:nth-of-type(2)",
                                         "present": True})]
    # a page that says nothing of the question: refused, never "Dana" anywhere on the page
    p = plan("who has the key to the cabinet? it should be Dana", screen("wiki/"))
    assert not p.feasible and "where the page answers" in p.analysis


def test_fill_in_on_a_page_with_no_form_never_opens_a_rows_edit_or_another_form() -> None:
    # a list's rows each have an Edit: none of them is the page's; "Change password" is no editor of this page
    for key in ("sqlite_web/books/content/", "django_admin/admin/"):
        p = plan('fill in title "Dune"', screen(key))
        assert not p.feasible and "no form" in p.analysis, key


def test_a_count_said_of_a_rows_link_is_not_that_records_page() -> None:
    # "beta" is a Milestone cell's link in Trac's report: the count is of the rows that show it, on this page
    got = steps(plan("check that beta has 2 tickets", screen("trac/report/1")))
    assert got and got[0][0] != "click_element"


def test_nothing_says_x_is_x_not_shown() -> None:
    got = steps(plan("open the release checklist and make sure nothing says deploy on friday", screen("wiki/")))
    assert got[-1] == ("wait_for_element", {"text": "deploy on friday", "present": False})


def test_a_count_reads_the_pages_own_list_not_the_sidebars_longer_one() -> None:
    got = steps(plan("there are 3 items", screen("wiki/Release%20Checklist")))
    assert got == [("wait_for_element", {"selector": "#column-main > div > article > ul > li", "count": 3,
                                         "present": True})]


def test_make_a_new_page_that_says_x_creates_it_with_that_text() -> None:
    p = plan("make a new wiki page called FAQ that says 'Ask in the lab channel'", screen("wiki/"))
    assert steps(p) == [("click_element", {"text": "Create page", "role": "link"})]
    assert p.pending[0].startswith('fill in name "FAQ", text "Ask in the lab channel"')
