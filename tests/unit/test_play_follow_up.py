""""play X" where X is a tile of the live screen: the click that opens X's page is not X playing. The screen it
leads to is read: its Play control is pressed, and X must be shown; a page that only opened never passes."""
from __future__ import annotations

from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import plan, steps


def catalogue() -> ScreenObservation:
    tiles = [UIElement("button", name=title, container="Films") for title in ("Harbour Lights", "Blue Meridian")]
    return ScreenObservation("web", "http://x/#/films", "Cinema", (UIElement("heading", name="Films", level=1), *tiles))


def detail(title: str) -> ScreenObservation:
    return ScreenObservation("web", "http://x/#/film/2", "Cinema", (
        UIElement("heading", name=title, level=1), UIElement("text", text="1998 · Drama"),
        UIElement("button", name="Watch now"), UIElement("button", name="Back")))


def test_playing_a_tile_clicks_it_and_leaves_the_play_for_the_screen_it_opens() -> None:
    p = plan("start playing the film Blue Meridian", catalogue())
    assert steps(p) == [("click_element", {"text": "Blue Meridian", "role": "button"})]
    assert p.pending == ['make "Blue Meridian" play']


def test_on_the_detail_page_its_play_control_is_pressed_then_the_title_is_checked() -> None:
    got = steps(plan('make "Blue Meridian" play', detail("Blue Meridian")))
    assert got[0] == ("click_element", {"text": "Watch now", "role": "button"})
    assert got[-1][0] in ("wait_for_text", "wait_for_element") and "Blue Meridian" in str(got[-1][1])


def test_a_screen_with_no_play_control_must_show_the_title_it_plays() -> None:
    channel = ScreenObservation("web", "http://x/#/live", "Cinema", (UIElement("heading", name="Harbour Lights",
                                                                                level=1),))
    got = steps(plan('make "Blue Meridian" play', channel))
    assert len(got) == 1 and got[0][0] in ("wait_for_text", "wait_for_element") and "Blue Meridian" in str(got[0][1])
