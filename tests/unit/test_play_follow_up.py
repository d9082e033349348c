""""play X" where X is a tile of the live screen: the click that opens X's page is not X playing. The screen it
leads to is read: its Play control is pressed, and on the screen that follows X must be shown with a Pause
control; a page that only opened (a title, a trailer, a price) never passes."""
from __future__ import annotations

import pytest

from server.planners.base import PlanRequest
from server.planners.builtin import BuiltinPlanner
from shared.screen import ScreenObservation, UIElement
from tests.unit.test_screen_planning import ctx_for, plan, steps


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


def test_on_the_detail_page_its_play_control_is_pressed_and_playing_is_read_on_the_screen_it_opens() -> None:
    p = plan('make "Blue Meridian" play', detail("Blue Meridian"))
    assert steps(p) == [("click_element", {"text": "Watch now", "role": "button"})]
    assert p.pending == ['check that "Blue Meridian" plays']


def player(title: str, *controls: str) -> ScreenObservation:
    return ScreenObservation("web", "http://x/#/player", "Cinema", (
        UIElement("heading", name=title, level=1), *(UIElement("button", name=c) for c in controls)))


def test_playing_is_the_title_shown_with_a_pause_control() -> None:
    got = steps(plan('check that "Blue Meridian" plays', player("Blue Meridian", "Pause", "Back")))
    assert len(got) == 2
    assert "Blue Meridian" in str(got[0][1]) and "Pause" in str(got[1][1])


@pytest.mark.parametrize("controls", [("Play trailer", "Rent HD £3.99"), ("Back",), ("Resume", "Start over")])
def test_a_page_that_shows_the_title_but_nothing_playing_never_passes(controls: tuple[str, ...]) -> None:
    p = BuiltinPlanner().plan(PlanRequest('make "Blue Meridian" play', ctx_for(player("Blue Meridian", *controls))))
    assert not p.feasible and "playing" in p.analysis
