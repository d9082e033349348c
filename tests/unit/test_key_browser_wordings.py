"""A key-value store's browser as testers word their tasks (Redis Commander, never seen before), on captured screens.

Its keys sit in a tree folded at ":" ("shop:close" is "close" inside a folder "shop:* (3)", shown closed); a key is
shown by selecting its item, its value in a box with a Save. Each case is a general rule the batch showed missing.
"""
from __future__ import annotations

from tests.unit.test_screen_planning import plan, steps
from tests.unit.test_tester_phrasings import screen

HOME, SHOP = "key-browser/", "key-browser/shop-close"


def test_a_key_in_a_closed_folder_opens_the_folder_first_with_the_tree_s_own_key() -> None:
    for task, folder in (("open the key shop:close", "shop:* (3)"), ("delete the key session:abc123", "session:* (1)")):
        p = plan(task, screen(HOME))
        assert steps(p) == [("click_element", {"text": folder}), ("press_key", {"key": "RIGHT"})], task
        assert p.pending == [task]
    # an address or a time is no key: "http://…", "19:00"
    assert not any(s[0] == "press_key" for s in steps(plan("open http://shop:8080/close", screen(HOME))))


def test_a_key_in_an_open_folder_is_its_item_there() -> None:
    assert steps(plan("open the key shop:name", screen(SHOP))) == [
        ("click_element", {"text": "name", "row": "shop:* (3) close name open"})]
    assert steps(plan("open the key product:2", screen("key-browser/product-open")))[0][1]["text"] == "2"


def test_a_tree_item_s_value_is_changed_on_its_own_record_and_saved() -> None:
    # before: the item's text was edited as a row's (and the folder's other item clicked)
    p = plan("change shop:close to 19:00", screen(SHOP))
    assert steps(p) == [("click_element", {"text": "close"})]
    assert p.pending == ['set the value to "19:00"', "save"]


def test_a_check_of_what_a_tree_item_holds_selects_the_item_first() -> None:
    p = plan("check Croissant is in the bestsellers", screen(HOME))
    assert steps(p) == [("click_element", {"text": "bestsellers (3)"}),
                        ("wait_for_page", {"name": "bestsellers", "present": True})]
    assert p.pending == ['check "Croissant" is shown']


def test_a_count_the_app_shows_in_a_badge_after_a_name_is_read_there() -> None:
    # before: every list item of the tree was counted (8, not the folder's 3)
    assert steps(plan("there should be 3 product keys", screen(HOME))) == [
        ("wait_for_element", {"text": "product:* (3)", "present": True})]
    assert steps(plan("check there are 4 product keys", screen(HOME))) == [
        ("wait_for_element", {"text": "product:* (4)", "present": True})]   # a count that differs fails there


def test_a_command_is_typed_on_the_app_s_command_line() -> None:
    # before: "command" clicked the "Commands" help button, three rounds over
    for task in ("run the command GET shop:name in the console", "execute GET shop:name in the redis console"):
        assert steps(plan(task, screen(HOME))) == [
            ("input_text", {"text": "GET shop:name", "field": "redis>", "clear": True, "submit": True})], task
    # a console said where the screen has none is refused, not typed anywhere
    assert not plan("run the command GET x in the console", screen("api-docs/")).feasible
