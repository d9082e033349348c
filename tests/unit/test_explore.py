"""The explorer over a scripted app: screens, list items as one parameterised node, safety, verifications,
budget, resume, drift, and a draft that NavigationTree loads."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from backend_core.navigation.tree import NavigationTree
from explore import draft, drift, explorer as explorer_mod
from explore.explorer import Explorer, Limits
from explore.identity import signature, url_pattern
from explore.strategies import choose
from shared.errors import ConfigError
from shared.screen import ScreenObservation, UIElement
from tests.unit.explore_fakes import FakeApp, FakeLink, commands


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_mod, "SETTLE_INTERVAL_S", 0.0)


def explore(app: FakeApp | None = None, **limits: object) -> tuple[FakeApp, dict, object]:
    app = app or FakeApp()
    link = FakeLink(app)
    ex = Explorer(link, Limits(**limits)).explore()  # type: ignore[arg-type]
    return app, draft.build(ex, link.commands(), "fakeapp"), ex


def test_url_pattern_keeps_the_route_not_the_item() -> None:
    assert url_pattern("http://h/app/#/movie/the-last-orbit") == "/app/#/movie/{}"
    assert url_pattern("http://h/tables/42/rows") == "/tables/{}/rows"
    # an anchor on the page is the same screen; a single-page app's route is not
    assert url_pattern("http://h/wiki/TracIni#max_size") == url_pattern("http://h/wiki/TracIni") == "/wiki/TracIni"
    assert url_pattern("http://h/#!/settings") == "/#/settings"


def test_volatile_text_does_not_make_another_screen() -> None:
    app = FakeApp()
    a, b = app.observe(), app.observe()
    assert a.elements != b.elements            # the clock moved
    assert signature(a) == signature(b)


def test_draft_loads_as_a_tree_with_every_screen_and_edge_taken() -> None:
    _, tree, _ = explore()
    loaded = NavigationTree.from_dict(tree)
    assert set(loaded.nodes) == {"home", "movies", "movie", "now_playing", "settings", "settings_2"}
    for e in tree["edges"]:
        assert e["taken_at"]                    # really taken, with when
    assert {(e["from"], e["to"]) for e in tree["edges"]} >= {("home", "movies"), ("movies", "movie"),
                                                           ("movie", "now_playing"), ("settings", "settings_2")}


def test_list_items_become_one_parameterised_node() -> None:
    app, tree, ex = explore()
    movie = next(n for n in tree["nodes"] if n["id"] == "movie")
    assert movie["param"] == "name"
    assert movie["items"] == ["The Last Orbit", "River of Glass", "Silent Harbor", "Neon Tides"]
    assert movie["param_verifications"] == [{"command": "waitForElementToAppear",
                                             "params": {"selector": "#movie-title", "text": "{name}"}}]
    edge = next(e for e in tree["edges"] if e["to"] == "movie")
    assert edge["param"] == "name" and edge["actions"][0]["params"] == {"selector": "#grid > button", "text": "{name}"}
    # a short list that opens one item screen: every item visited, to learn the name its screen shows
    opened = {p["selector"] for c, p in app.log if c == "click_element" and "nth-of-type" in p.get("selector", "")}
    assert len(opened) == 4


def test_an_items_name_is_what_its_screen_shows_not_the_whole_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(explorer_mod, "LIST_VISIT_MAX", 3)
    app, tree, _ = explore(FakeApp(tile_meta=True))
    movie = next(n for n in tree["nodes"] if n["id"] == "movie")
    # three visited (the cap): their titles; the fourth, never opened, as its tile reads
    assert movie["items"] == ["The Last Orbit", "River of Glass", "Silent Harbor", "Neon Tides · 2022"]
    opened = {p["selector"] for c, p in app.log if c == "click_element" and "nth-of-type" in p.get("selector", "")}
    assert len(opened) == 3


def test_a_setting_that_cycles_is_followed_round_and_left_as_found() -> None:
    app, tree, _ = explore()
    settings = next(n for n in tree["nodes"] if n["id"] == "settings")
    audio = next(e for e in settings["elements"] if e.get("selector") == "#audio")
    assert audio["name"] == "audio" and audio["values"] == ["English", "French", "Spanish"]
    assert app.audio == "English"


def test_destructive_and_leaving_actions_are_skipped_and_listed() -> None:
    app, tree, _ = explore()
    skipped = {s["target"]: s["reason"] for s in tree["draft"]["skipped"]}
    assert "log out" in skipped["Log out"]
    assert "leaves the app" in skipped["Help"]
    assert not any(p.get("selector") == "#logout" for c, p in app.log)


def test_destructive_actions_are_taken_when_allowed() -> None:
    app, _, _ = explore(allow_destructive=True)
    assert any(p.get("selector") == "#logout" for c, p in app.log)


def test_verifications_discriminate_every_screen() -> None:
    _, tree, ex = explore()
    nodes = {n["id"]: n for n in tree["nodes"]}
    assert nodes["movies"]["verifications"][0]["params"] == {"selector": "#movies h1", "text": "Movies"}
    # the settings screen and the same with its PIN dialog share every element: an absence tells them apart
    assert nodes["settings"]["verifications"][1] == {"command": "waitForElementToDisappear",
                                                     "params": {"selector": "#pin-title", "text": "Enter PIN"}}
    assert tree["draft"]["indistinguishable"] == []
    # each chosen verification holds on its screen and fails on every other
    from explore.verify import Check
    for sid, screen in ex.screens.items():
        first = nodes[sid]["verifications"][0]["params"]
        check = Check("element", first["selector"], first.get("text", ""))
        assert check.holds(screen.observation)


def test_indistinguishable_screens_are_reported() -> None:
    from explore.model import Screen
    from explore.verify import choose as choose_verifications

    same = ScreenObservation("web", "http://a/", "A", (UIElement("button", "Go", selector="#go"),))
    screens = {"a": Screen("a", "A", same, (), 0), "b": Screen("b", "B", same, (), 1)}
    result = choose_verifications(screens, commands())
    assert result["a"].verification is None and result["a"].looks_like == ["b"]


def test_every_edge_has_its_way_back() -> None:
    _, tree, _ = explore()
    assert tree["draft"]["unreversed_edges"] == []
    back = next(e for e in tree["edges"] if e["to"] == "movies")
    assert back["reverse_actions"] == [{"command": "press_key", "params": {"key": "BACK"}}]
    assert back["reverse_taken_at"]


def test_budget_stops_cleanly_and_resume_continues(tmp_path: Path) -> None:
    app = FakeApp()
    link = FakeLink(app)
    ticks = iter(range(0, 100000))
    ex = Explorer(link, Limits(budget_s=15), clock=lambda: float(next(ticks))).explore()  # type: ignore[arg-type]
    assert ex.stopped_because == "time budget spent"
    first = draft.build(ex, link.commands(), "fakeapp")
    out = tmp_path / "draft.yaml"
    draft.write(first, out)
    resumed = Explorer(link, Limits(budget_s=60)).explore(draft.load(out))  # type: ignore[arg-type]
    assert resumed.stopped_because == "explored every screen found"
    assert len(resumed.screens) > len(ex.screens)
    assert set(ex.screens) <= set(resumed.screens)


def test_resuming_a_finished_draft_keeps_its_parameterised_node(tmp_path: Path) -> None:
    app = FakeApp(tile_meta=True)
    link = FakeLink(app)
    out = tmp_path / "draft.yaml"
    draft.write(draft.build(Explorer(link, Limits()).explore(), link.commands(), "fakeapp"), out)  # type: ignore[arg-type]
    again = draft.build(Explorer(link, Limits()).explore(draft.load(out)), link.commands(), "fakeapp")  # type: ignore[arg-type]
    movie = next(n for n in again["nodes"] if n["id"] == "movie")
    assert movie["param"] == "name" and movie["items"][0] == "The Last Orbit"
    assert next(e for e in again["edges"] if e["to"] == "movie")["actions"][0]["params"] == {"selector": "#grid > button", "text": "{name}"}


def test_max_screens_stops_exploring() -> None:
    _, tree, ex = explore(max_screens=3)
    assert len(tree["nodes"]) == 3 and "max-screens" in ex.stopped_because


def test_load_refuses_a_tree_that_is_not_a_draft(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump({"nodes": [{"id": "a"}]}))
    with pytest.raises(ConfigError, match="not a draft"):
        draft.load(path)


def test_drift_reports_new_vanished_and_changed_screens() -> None:
    _, tree, _ = explore()
    new = NavigationTree.from_dict(tree)
    old_raw = yaml.safe_load(yaml.safe_dump(tree))
    old_raw["nodes"] = [n for n in old_raw["nodes"] if n["id"] != "now_playing"] + [{"id": "news", "label": "News"}]
    old_raw["edges"] = [e for e in old_raw["edges"] if "now_playing" not in (e["from"], e["to"])]
    next(n for n in old_raw["nodes"] if n["id"] == "movies")["verifications"] = []
    found = drift.compare(NavigationTree.from_dict(old_raw), new)
    assert found.new == ["now_playing"] and found.vanished == ["news"] and found.changed == ["movies"]


def test_strategy_registry_chooses_by_capabilities() -> None:
    web = ScreenObservation("web", "http://a/", elements=(UIElement("button", "Go", focused=True),))
    android = ScreenObservation("android", elements=(UIElement("button", "Go", clickable=True),))
    assert choose(commands(), web).name == "web"
    assert choose(commands(), android).name == "android"
    keys_only = {k: v for k, v in commands().items() if k == "press_key"}
    assert choose(keys_only, web).name == "dpad"
    with pytest.raises(ConfigError, match="no exploration strategy"):
        choose({}, web)
    with pytest.raises(ConfigError, match="unknown exploration strategy"):
        choose(commands(), web, "telepathy")


def test_write_leaves_a_review_file_with_screenshots(tmp_path: Path) -> None:
    import json

    app = FakeApp()
    link = FakeLink(app)
    ex = Explorer(link, Limits(), shots_dir=tmp_path / "t.screens").explore()  # type: ignore[arg-type]
    review = draft.write(draft.build(ex, link.commands(), "fakeapp"), tmp_path / "t.yaml")
    data = json.loads(review.read_text())
    assert "screens" not in data["tree"]["draft"]
    assert all(n["screenshot"].startswith("data:image/png;base64,") for n in data["nodes"])
    NavigationTree.from_dict(data["tree"])


class AppWithMenu(FakeApp):
    """Every screen carries the site's menu link Home (one address), as web apps' headers and breadcrumbs do."""

    def elements(self) -> list[UIElement]:
        return [*super().elements(), UIElement("link", "Home", selector="#nav-home", href="#/home", clickable=True)]

    def execute(self, command: str, params: dict) -> None:
        if command == "click_element" and params.get("selector") == "#nav-home":
            self.log.append((command, dict(params)))
            self.stack, self.dialog = ["home"], False
            return
        super().execute(command, params)


def test_a_link_every_screen_carries_is_followed_from_one_screen_not_from_each() -> None:
    app, tree, ex = explore(AppWithMenu())
    menu_clicks = [p for c, p in app.log if c == "click_element" and p.get("selector") == "#nav-home"]
    # once on home (it stays there), once from the first other screen; every screen after knows where it leads
    assert len(menu_clicks) == 2, menu_clicks
    assert ex.links == {"http://app.test/#/home": "home"}
    assert {n["id"] for n in tree["nodes"]} == {n["id"] for n in explore()[1]["nodes"]}   # no screen less
