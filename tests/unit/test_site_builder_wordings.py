"""A static site builder's admin as testers word their tasks (Lektor, never seen before), planned on captured screens.

Written from a fresh batch run on the live app. Its pages sit in a tree (the home page's subpages, then theirs);
its fields are captioned by definition terms; its Save is disabled until the form changes and leads to a preview
drawn in a frame; its Delete is a link to a page that asks "Yes, delete" or "No, cancel". Each case is a general
rule the batch showed missing.
"""
from __future__ import annotations

from server.planners import phrasings
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen


def test_a_record_in_a_subpage_is_looked_for_page_by_page_and_a_dead_end_is_left_by_going_back() -> None:
    # the subpages' links all lead to one address with another ?path=: each is a page of its own, not a view
    p = plan("change the price of the sourdough to $4.95", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "About Us", "role": "link"})]
    assert p.pending[0] == 'look through the lists for "sourdough" about "change price" except "about us"'
    # About Us has no subpages: a dead end, left by going back (once per list opened, never further)
    p = plan(p.pending[0], screen("bakery-cms/about"))
    assert steps(p) == [("go_back", {})]
    assert p.pending == ['look through the lists for "sourdough" about "change price" except "about us", "back 1"']
    p = plan('look through the lists for "sourdough" except "about us", "back 1"', screen("bakery-cms/about"))
    assert not p.feasible and "none of the lists" in p.analysis
    # a page's actions (Preview, Add Page) are no lists to look in
    p = plan('look through the lists for "sourdough" except "about us", "back 1"', screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "Contact", "role": "link"})]


def test_a_field_captioned_by_a_term_is_changed_and_saved_with_the_save_the_change_enables() -> None:
    p = plan("change the price to $4.95", screen("bakery-cms/sourdough"))
    assert steps(p) == [("input_text", {"text": "$4.95", "field": "Price", "clear": True}),
                        ("click_element", {"text": "Save Changes", "role": "button"})]
    assert p.pending == ['check that "$4.95" was saved']
    p = plan("rename Sourdough to Sourdough Loaf", screen("bakery-cms/sourdough"))
    assert steps(p)[-1] == ("click_element", {"text": "Save Changes", "role": "button"})
    # "fill in … and save": the Save the typing enables, never the sidebar's "Add Page"
    p = plan("fill in the description with 'A country loaf.' and save", screen("bakery-cms/sourdough"))
    assert steps(p)[-1] == ("click_element", {"text": "Save Changes", "role": "button"})


def test_what_was_saved_is_read_in_the_preview_frame_and_not_in_a_breadcrumb_row() -> None:
    p = plan('check that "Everything is baked on site." was saved for "Menu"', screen("bakery-cms/menu-preview"))
    assert steps(p) == [("wait_for_element", {"text": "Everything is baked on site.", "present": True})]


def test_a_delete_asked_with_yes_and_no_is_confirmed_with_its_yes() -> None:
    p = plan("delete this page", screen("bakery-cms/sourdough"))
    assert steps(p) == [("click_element", {"text": "Delete", "role": "link"})]
    assert p.pending == ['if asked confirm the deletion of the row "Sourdough"']
    p = plan('if asked confirm the deletion of the row "Croissant"', screen("bakery-cms/delete-croissant"))
    assert steps(p)[0] == ("click_element", {"text": "Yes, delete", "role": "button"})


def test_preview_is_the_pages_own_preview_not_the_page() -> None:
    p = plan("preview the About Us page", screen("bakery-cms/"))
    assert steps(p)[0] == ("click_element", {"text": "About Us", "role": "link"})
    assert p.pending == ["click Preview"]


def test_a_place_after_then_takes_the_verb_before_it() -> None:
    p = plan("open the menu and then the rye loaf", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "Menu", "role": "link"})]
    assert p.pending == ["open the rye loaf"]


def test_a_number_said_with_what_it_is_is_checked_as_the_number() -> None:
    # "has the phone number 0161 555 0199": the number, quoted (no count of 161 things)
    p = plan("check the contact page has the phone number 0161 555 0199", screen("bakery-cms/"))
    assert steps(p)[0] == ("click_element", {"text": "Contact", "role": "link"})
    assert p.pending == ['check "0161 555 0199" is shown']
    # a field's name said with a quoted value keeps the field ("has the priority \"beta\"" is no "beta" anywhere)
    assert phrasings.rephrase('check ticket 1 has the priority "beta"', set()) == 'check ticket 1 has the priority "beta"'


def test_a_box_named_in_quotes_is_ticked_and_a_glued_name_is_one_word() -> None:
    assert steps(plan('check the "Deep search" box', screen("buku/")))[0][0] == "set_checked"
    from backend_core.verifications.matching import text_matches
    from shared.screen import UIElement
    assert not text_matches(UIElement("link", name="TestPlan"), "Plan", False)   # a link's own name, as written
    assert text_matches(UIElement("listitem", text="Crumb and CoMenuCinnamon Bun"), "Cinnamon", False)


def test_a_page_named_after_add_page_is_made_not_just_the_form_opened() -> None:
    # a false pass: "add a page Opening Times" clicked Add Page and passed, its name dropped unread
    p = plan("add a page Opening Times", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "Add Page", "role": "link"})]
    assert p.pending == ['fill in name "Opening Times"', "save", 'check that "Opening Times" was saved']
    # made where the task says: at the top for the home page, else in the page named, opened first
    p = plan("create a page Opening Times under the home page", screen("bakery-cms/"))
    assert p.pending[0] == 'fill in name "Opening Times"'
    p = plan("create a page called Seasonal Bakes under Menu", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "Menu", "role": "link"})]
    assert p.pending == ["create a page called Seasonal Bakes"]


def test_a_count_of_a_page_named_in_common_words_is_taken_on_that_page() -> None:
    p = plan("the menu should have 4 products", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "Menu", "role": "link"})]
    assert p.pending == ["check there are 4 products"]


def test_a_quoted_name_that_appears_is_checked_never_ticked() -> None:
    # a false pass: 'check "clean the garage" appears in the list' ticked the new todo's box
    p = plan('check "Buy milk" appears in the list', screen("todomvc-react/"))
    assert steps(p) == [("wait_for_element", {"text": "Buy milk", "present": True})]
    p = plan("check Buy milk shows up", screen("todomvc-react/"))
    assert [c for c, _ in steps(p)] == ["wait_for_element"]
    p = plan('check "Buy milk"', screen("todomvc-react/"))   # a quoted name alone is still its box
    assert steps(p)[0][0] == "set_checked"


def test_a_record_named_in_passing_is_opened_or_looked_for_then_the_clause_is_planned_on_its_page() -> None:
    # "the sourdough description": no intent reads it on the home page, which does not show the sourdough
    p = plan("the sourdough description mentions caraway", screen("bakery-cms/"))
    assert steps(p) == [("click_element", {"text": "About Us", "role": "link"})]
    assert p.pending == ['look through the lists for "sourdough description|sourdough" about "mentions caraway" '
                         'except "about us"', "the sourdough description mentions caraway"]
    # on its page: its Description, by that field's label (not any box that holds the word)
    p = plan("the sourdough description mentions caraway", screen("bakery-cms/sourdough"))
    assert steps(p) == [("wait_for_element", {"text": "caraway", "role": "textbox", "label": "Description",
                                              "present": True})]
    # words added to the end of a field of the record shown: typed after its text, then saved
    p = plan("add 'Best served warm.' to the end of the sourdough description", screen("bakery-cms/sourdough"))
    assert steps(p) == [("input_text", {"text": " Best served warm.", "field": "Description", "clear": False}),
                        ("click_element", {"text": "Save Changes", "role": "button"})]
    assert p.pending == ['check that "Best served warm." was saved']
    # a refusal for a wording, not for something missing, is no reason to go looking ("the key" is no record)
    p = plan("who has the key to the cabinet? it should be Dana", screen("bakery-cms/"))
    assert not p.feasible


def test_check_it_saved_is_the_save_check() -> None:
    p = plan("set the price to $3.00 and check it saved", screen("bakery-cms/sourdough"))
    assert steps(p)[-1] == ("click_element", {"text": "Save Changes", "role": "button"})
    assert p.pending == ['check that "$3.00" was saved', 'check "$3.00" saved']
    # read as the save's check (the value shown), never as the words "it saved" on the page
    p = plan('check "$3.00" saved', screen("bakery-cms/menu-preview"))
    assert [s.params.get("text") for s in p.steps] == ["$3.00"]


def test_a_column_added_is_no_row_and_a_destination_is_no_record_to_look_for() -> None:
    # a false pass: "add an integer column pages to the books table" opened books and inserted a row so named
    p = plan("add an integer column pages to the books table", screen("sqlite_web/books/content/"))
    assert not p.feasible and "made up" in p.analysis
    assert plan("add a book Dune", screen("sqlite_web/books/content/")).feasible
    # an impossible place stays refused, never looked for page by page
    p = plan("add the Blue Mug to the shopping cart", screen("django_admin/admin/"))
    assert not p.feasible and "shopping cart" in p.analysis


def test_a_new_record_is_never_made_by_typing_over_the_form_of_one_that_exists() -> None:
    # a false pass: "create a draft page called Summer Reading under Events" typed the name over Events' own title
    # on its edit form, saved the draft, and passed on "Page 'Summer Reading' has been updated."
    p = plan("create a draft page called Summer Reading", screen("cms/page-edit"))
    assert not p.feasible
    p = plan("add a page Opening Times", screen("bakery-cms/"))   # a form whose title box is empty elsewhere is fine
    assert p.feasible
