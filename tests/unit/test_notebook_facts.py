"""A notebook's tasks as testers word them (TiddlyWiki, a kitchen notebook), planned on captured screens.

Written from a fresh batch run on the live app; each case is a general rule the batch showed missing: a fact
said of a page a link names is read on that page, a note's text goes in the editor its app draws in a frame,
quoted words after "with" are a note's text, words added "to the end of" a page go in that page's editor, and a
place named before a colon is opened before what is said of it is checked.
"""
from __future__ import annotations

from server.planners.records import parse_record
from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME = "notebook/"          # the notebook as it opens: the Weekly Plan note, with links to its recipes
NEW = "notebook/new"        # after "new tiddler": the draft, its text in an editor drawn in a frame
PANTRY = "notebook/pantry"  # the Pantry note: a table of items and shelves


def test_a_fact_about_a_linked_page_is_checked_on_that_page() -> None:
    p = plan("check the tomato soup serves 4", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Tomato Soup", "role": "link"}),
                        ("wait_for_page", {"name": "Tomato Soup", "present": True})]
    assert p.pending == ['check "serves 4" is shown']   # a bare 4 would be found in any page's text
    # the verb a page need not say is not checked; what it says is
    p = plan("verify the pancakes need 3 eggs", screen(HOME))
    assert p.pending == ['check "3 eggs" is shown']
    p = plan("the Green Curry doesn't need peanuts", screen(HOME))
    assert p.pending == ['check "peanuts" is not shown']
    p = plan("the tomato soup recipe should serve 4", screen(HOME))
    assert p.pending == ['check "serves 4" is shown']


def test_serves_is_not_read_as_a_misspelt_server() -> None:
    """"Server status" is on the screen: "serves" is a word of its own, not a slip of the keys."""
    p = plan("check the tomato soup serves 4", screen(HOME))
    assert "server" not in repr(p.steps).lower() + repr(p.pending).lower()


def test_a_note_s_text_goes_in_the_editor_drawn_in_a_frame_and_is_checked_once_saved() -> None:
    p = plan("create a new tiddler called Omelette with the text 'Whisk three eggs'", screen(NEW))
    typed = [s for s in p.steps if s.command == "input_text"]
    assert typed[0].params["text"] == "Omelette"
    assert typed[1].params["text"] == "Whisk three eggs" and typed[1].params["selector"].endswith("iframe")
    assert "field value" not in repr(p.steps)
    assert p.pending == ['check that "Omelette" was saved', 'check "Whisk three eggs" is shown']


def test_quoted_words_after_with_are_the_text_and_a_word_inside_quotes_is_no_field() -> None:
    rec = parse_record("a note titled Freezer with 'Two tubs of soup'")
    assert (rec.name, rec.fields) == ("Freezer", [("text", "Two tubs of soup")])
    rec = parse_record("a book titled 'War of the Worlds' by Wells")
    assert (rec.name, rec.fields) == ("War of the Worlds", [("by", "Wells")])


def test_words_added_to_the_end_of_a_linked_page_open_it_first() -> None:
    p = plan("add 'bread' to the end of the shopping list", screen(HOME))
    assert steps(p) == [("click_element", {"text": "Shopping List", "role": "link"})]
    assert p.pending == ["add the line 'bread' at the end of shopping list"]


def test_a_place_before_a_colon_is_opened_and_what_follows_is_checked_there() -> None:
    p = plan("look in the pantry: the rice is on the top shelf", screen(HOME))
    assert steps(p)[0][0] == "input_text" and steps(p)[0][1]["text"] == "pantry"   # no link to it: the search
    assert p.pending == ["open pantry", "check the rice is on the top shelf"]
    p = plan("check the rice is on the top shelf", screen(PANTRY))
    assert steps(p)[0][1]["text"] == "top" and "tr:nth-of-type(2)" in steps(p)[0][1]["selector"]
    p = plan("check honey is kept on the middle shelf", screen(PANTRY))
    assert steps(p)[0][1]["text"] == "middle" and "tr:nth-of-type(5)" in steps(p)[0][1]["selector"]


def test_a_misspelt_short_verb_and_a_lowercase_name_with_its_kind_are_read() -> None:
    p = plan("opn the lemonade recipe", screen(HOME))
    assert steps(p)[0] == ("input_text", {"text": "lemonade", "field": "tc tiny gap right popup handle search",
                                          "clear": True, "submit": True})


def test_a_search_that_answers_as_typed_is_checked_by_what_it_found() -> None:
    """The results list titles ("Pancakes", "Shopping List") and "3 matches", never the word sought: the app's
    count, with the box holding the word, is the check. A search that found nothing is checked by the word, and
    fails; the box alone never passes it."""
    p = plan("search for milk", screen(HOME))
    assert steps(p) == [("input_text", {"text": "milk", "field": "tc tiny gap right popup handle search",
                                        "clear": True, "submit": True})]
    assert p.pending == ['check the search for "milk" found it']
    p = plan(p.pending[0], screen("notebook/search-milk"))
    assert [s.params["text"] for s in p.steps] == ["milk", "3 matches"]
    assert p.steps[0].params["selector"].endswith("input") and p.steps[1].params["exact"] is True
    p = plan('check the search for "zzzq" found it', screen("notebook/search-none"))
    assert steps(p) == [("wait_for_element", {"text": "zzzq", "present": True})]


def test_a_negated_fact_is_checked_negated_whatever_its_auxiliary() -> None:
    """A review found these read as the fact itself: "no longer", "should not", "cannot" each say it is not so."""
    for task in ("check the tomato soup no longer serves 4", "the tomato soup should not serve 4",
                 "check the tomato soup cannot serve 4"):
        p = plan(task, screen(HOME))
        assert p.pending == ['check "serves 4" is not shown'], task


def test_a_count_elsewhere_on_the_screen_never_proves_a_search() -> None:
    """Only a text that is nothing but the count ("3 matches") is the search's; "Show 10 results per page" is not."""
    from dataclasses import replace
    from shared.screen import UIElement

    empty = screen("notebook/search-none")
    noisy = replace(empty, elements=[*empty.elements, UIElement("text", text="Show 10 results per page"),
                                     UIElement("text", text="Recent: 4 items found this week")])
    p = plan('check the search for "zzzq" found it', noisy)
    assert steps(p) == [("wait_for_element", {"text": "zzzq", "present": True})]


def test_a_tester_s_own_check_after_a_search_stands_alone() -> None:
    p = plan("search for zzzq and check that no matches are shown", screen(HOME))
    assert 'check the search for "zzzq" found it' not in p.pending


def test_a_short_word_is_not_read_as_a_misspelt_verb() -> None:
    from server.planners.language import fix_verb_typo

    assert [fix_verb_typo(w) for w in ("red", "got", "had", "opn")] == ["red", "got", "had", "open"]


def test_quoted_words_after_with_are_a_name_where_none_was_given() -> None:
    assert parse_record("a todo with 'buy milk and eggs'").name == "buy milk and eggs"
    assert parse_record("a ticket with 'Login button is broken'").fields == []
