"""The exploration loop: breadth-first from the current screen, within a budget, resumable.

Each screen is expanded once: its strategy's candidate actions are tried one
by one (re-entering the screen by the path that found it when needed), each
arrival is identified by its structural signature, every edge taken is
recorded with when, and the way back is learned by trying the strategy's back
options. Items of one list are sampled (two of them): when they lead to one
screen that shows the item's name, that screen becomes a parameterised node.
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urljoin

from backend_core.navigation.tree import ActionSpec
from explore.identity import pattern, signature
from explore.link import DeviceLink
from explore.model import Exploration, Screen, TakenEdge
from explore.safety import Skipped, why_unsafe
from explore.strategies import Candidate, Strategy, choose
from shared.errors import DevicePilotError
from shared.screen import CLICKABLE_ROLES, ROLE_HEADING, ScreenObservation

log = logging.getLogger(__name__)

SETTLE_INTERVAL_S = 0.25
SETTLE_MAX_S = 3.0
# platforms whose reading of the screen waits for it to settle (a web page's requests under way and finite
# transitions end first): one reading is the settled screen, whatever the strategy (StreamTV's D-pad is a page)
SETTLED_READS = frozenset({"web"})
LIST_SAMPLE = 2          # items of a list that must lead somewhere before the rest are taken as alike
LIST_VISIT_MAX = 12      # items of a list that opens one item screen visited to learn each one's shown name
LIST_MIN = 3             # elements sharing one locator pattern that make a list
LIST_IDLE_MAX = 4        # items of a list in a row that change nothing: the rest are alike too (keys)
CYCLE_MAX = 8            # values a setting that cycles when activated is followed through


@dataclass(frozen=True)
class Limits:
    max_screens: int = 30
    max_depth: int = 4
    budget_s: float = 240.0
    allow_destructive: bool = False


@dataclass(frozen=True)
class Progress:
    screens: int
    actions: int
    time_left_s: float
    note: str


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()


@dataclass
class Explorer:
    link: DeviceLink
    limits: Limits = field(default_factory=Limits)
    strategy_name: str = ""
    on_progress: Callable[[Progress], None] = lambda p: None
    clock: Callable[[], float] = time.monotonic
    shots_dir: Path | None = None       # where each screen's screenshot is saved (none when None)

    def __post_init__(self) -> None:
        self._deadline = 0.0
        self._current: ScreenObservation | None = None
        self._clean = False           # the device shows a screen as entered (no focus moved since)
        self._concrete: dict[tuple[str, str], tuple[ActionSpec, ...]] = {}   # a list edge's first item, as taken
        self._reads_settled = False   # the first screen's platform is in SETTLED_READS

    # -- device ----------------------------------------------------------------------------
    def _settle(self) -> ScreenObservation:
        """Observe until two successive observations have one signature (animations over); once, where the
        device's own reading already waits for the screen to settle (``SETTLED_READS``)."""
        obs = self.link.observe()
        if self._reads_settled:
            self._current = obs
            return obs
        started = self.clock()
        while self.clock() - started < SETTLE_MAX_S:
            time.sleep(SETTLE_INTERVAL_S)
            again = self.link.observe()
            if signature(again) == signature(obs):
                obs = again
                break
            obs = again
        self._current = obs
        return obs

    def _run(self, actions: tuple[ActionSpec, ...]) -> None:
        for a in actions:
            self.link.execute(a.command, dict(a.params))

    def _time_left(self) -> float:
        return max(0.0, self._deadline - self.clock())

    def _progress(self, ex: Exploration, note: str) -> None:
        self.on_progress(Progress(len(ex.screens), ex.actions_tried, self._time_left(), note))

    def _reach(self, ex: Exploration, screen: Screen, strategy: Strategy, start: Screen) -> bool:
        """Bring the device to *screen*, freshly entered; False when its path no longer gets there."""
        cur = self._current or self._settle()
        # the same screen, unless an action changed what it shows by its address (a sort, a filter, a page):
        # then a list's rows are not where its observation saw them, and it is entered afresh
        if signature(cur) == screen.sig and (self._clean or not strategy.fresh_entry) \
                and (cur.url == screen.observation.url or not cur.url):
            return True
        reset = strategy.reset_actions(start.observation)
        if reset:
            self._run(reset)
            cur = self._settle()
        for _ in range(ex_depth(ex) + 2):
            options = strategy.back_options(cur, start.observation)
            if signature(cur) == start.sig or not options:
                break
            self._run(options[0])
            cur = self._settle()
        if signature(cur) != start.sig:
            return False
        strategy.prepare(cur, self.link)
        self._run(screen.path)
        cur = self._settle() if screen.path else cur
        self._clean = True
        return signature(cur) == screen.sig

    # -- exploring -------------------------------------------------------------------------
    def explore(self, resume: Exploration | None = None) -> Exploration:
        self._deadline = self.clock() + self.limits.budget_s
        first = self._settle()
        self._clean = True
        commands = self.link.commands()
        strategy = choose(commands, first, self.strategy_name)
        self._reads_settled = first.platform in SETTLED_READS
        if resume is not None:
            ex = resume
            ex.stopped_because = ""
            start = ex.screens[next(iter(ex.screens))]
        else:
            ex = Exploration(self.link.device_id, strategy.name, first.url)
            start = self._add(ex, first, (), 0, "", None)
        self._progress(ex, f"strategy {strategy.name}; start screen {start.id}")
        while True:
            todo = [s for s in ex.screens.values() if not s.expanded and s.depth < self.limits.max_depth]
            if not todo:
                ex.stopped_because = ex.stopped_because or "explored every screen found"
                break
            if self._time_left() <= 0:
                ex.stopped_because = "time budget spent"
                break
            screen = min(todo, key=lambda s: s.depth)
            if not self._reach(ex, screen, strategy, start):
                log.warning("cannot reach screen %s again by its path; not expanding it", screen.id)
                screen.expanded = True
                continue
            self._expand(ex, screen, strategy, start)
            if ex.stopped_because:
                break
        self._parameterise(ex)
        self._progress(ex, f"done: {ex.stopped_because}")
        return ex

    def _add(self, ex: Exploration, obs: ScreenObservation, path: tuple[ActionSpec, ...], depth: int,
             via_item: str, parent: Screen | None) -> Screen:
        label = screen_title(obs) or obs.title or f"Screen {len(ex.screens) + 1}"
        base = label
        screen = Screen(ex.new_id(base), label, obs, path, depth)
        ex.screens[screen.id] = screen
        if self.shots_dir is not None:
            try:
                png = self.link.screenshot()
            except DevicePilotError as exc:
                log.info("no screenshot of %s: %s", screen.id, exc)
                png = None
            if png:
                self.shots_dir.mkdir(parents=True, exist_ok=True)
                (self.shots_dir / f"{screen.id}.png").write_bytes(png)
                screen.screenshot = f"{self.shots_dir.name}/{screen.id}.png"
        log.info("new screen %s (%s)", screen.id, label)
        return screen

    @staticmethod
    def _group_done(cand: Candidate, sizes: dict[str, int], moved: dict[str, int], idle: dict[str, int],
                    named: dict[str, set[str]]) -> bool:
        """Lists are sampled: stop once LIST_SAMPLE items led somewhere, or LIST_IDLE_MAX in a row did nothing.

        A list whose items each open one screen showing the item's name (*named*: that one screen) is
        visited further, up to LIST_VISIT_MAX items, to learn the name each item's screen shows: the row
        "6 Wild Earth Secrets of the Reef 20:30" is the channel "6 Wild Earth", and a task naming
        "Wild Earth" is about that channel, not the recording "Ocean Giants" of the same channel.
        """
        if not cand.group or sizes.get(cand.group, 0) < LIST_MIN:
            return False
        if idle.get(cand.group, 0) >= LIST_IDLE_MAX:
            return True
        went = moved.get(cand.group, 0)
        one_item_screen = len(named.get(cand.group) or ()) == 1 and "" not in named[cand.group]
        return went >= (LIST_VISIT_MAX if one_item_screen else LIST_SAMPLE)

    def _expand(self, ex: Exploration, screen: Screen, strategy: Strategy, start: Screen) -> None:
        here = self._current or screen.observation
        cands = strategy.candidates(here, self.link)
        self._clean = not strategy.fresh_entry
        groups: dict[str, list[str]] = {}
        for c in cands:
            if c.group:
                groups.setdefault(c.group, []).append(c.target)
        sizes = {g: len(items) for g, items in groups.items()}
        moved: dict[str, int] = {}
        idle: dict[str, int] = {}
        named: dict[str, set[str]] = {}     # a list's item screens that showed the item's name ('' when one did not)
        screen.observation = here if signature(here) == screen.sig else screen.observation
        for cand in cands:
            if self._group_done(cand, sizes, moved, idle, named):
                continue
            if self._time_left() <= 0:
                ex.stopped_because = "time budget spent"
                return
            address = link_address(cand, here)
            if address and ex.links.get(address, screen.id) != screen.id:
                continue   # a link followed from another screen leads where it led then: the site's menu, a breadcrumb
            reason = self._unsafe(cand, strategy, ex.start_url)
            if reason:
                if not any(s.screen == screen.id and s.target == cand.target for s in ex.skipped):
                    ex.skipped.append(Skipped(screen.id, cand.target, reason))
                continue
            if not self._reach(ex, screen, strategy, start):
                log.warning("lost the way back to %s; stopping its expansion", screen.id)
                break
            try:
                strategy.prepare(self._current or self._settle(), self.link)
                self._run(cand.actions)
            except DevicePilotError as exc:
                log.info("%s on %s: %s", cand.target, screen.id, exc)
                continue
            ex.actions_tried += 1
            self._clean = False
            after = self._settle()
            if signature(after) == screen.sig:
                idle[cand.group] = idle.get(cand.group, 0) + 1
                self._learn_values(ex, screen, cand, after)
                continue
            idle[cand.group] = 0
            moved[cand.group] = moved.get(cand.group, 0) + 1
            size = len(groups.get(cand.group, ()))
            in_list = bool(cand.group) and size >= LIST_MIN
            target = ex.by_signature(after)
            if target is None and is_document(after):
                # a raw JSON / CSV / text file the link opens: nothing to test on, nothing to go on from
                if not any(s.screen == screen.id and s.target == cand.target for s in ex.skipped):
                    ex.skipped.append(Skipped(screen.id, cand.target, "opens a document, not a screen of the app"))
                continue
            if target is None:
                if len(ex.screens) >= self.limits.max_screens:
                    ex.stopped_because = f"found {self.limits.max_screens} screens (--max-screens)"
                    return
                target = self._add(ex, after, screen.path + cand.actions, screen.depth + 1,
                                   cand.target if in_list else "", screen)
            if address:
                ex.links.setdefault(address, target.id)
            shown = self._record(ex, screen, target, cand, after, groups.get(cand.group, []) if in_list else [])
            if in_list:
                named.setdefault(cand.group, set()).add(target.id if shown else "")
            self._learn_back(ex, screen, target, strategy, after)
            self._progress(ex, f"{screen.id} --{cand.target}--> {target.id}")
        screen.expanded = True

    def _learn_values(self, ex: Exploration, screen: Screen, cand: Candidate, after: ScreenObservation) -> None:
        """A control that shows its setting and changes it in place ("Audio language: English" becomes
        "…: Spanish") is followed round its cycle until it shows its first value again: the values become
        the element's ``values`` (a tester asking for any other is refused), and the setting is left as found."""
        el = cand.element
        first = setting_value(el.label) if el is not None and el.selector else None
        if el is None or first is None or el.selector in screen.values:
            return
        values = [first[1]]
        now = value_shown(after, el.selector, first[0])
        while now is not None and now not in values and len(values) < CYCLE_MAX and self._time_left() > 0:
            values.append(now)
            try:
                self._run(cand.actions)
            except DevicePilotError:
                break
            ex.actions_tried += 1
            obs = self._settle()
            now = value_shown(obs, el.selector, first[0]) if signature(obs) == screen.sig else None
        if len(values) > 1:
            screen.values[el.selector] = tuple(values)
            log.info("%s on %s cycles through %s", first[0], screen.id, ", ".join(values))

    def _unsafe(self, cand: Candidate, strategy: Strategy, start_url: str) -> str:
        if self.limits.allow_destructive:
            return ""
        declared = [a.command for a in cand.actions
                    if (spec := strategy.commands.get(a.command)) is not None and spec.destructive]
        if declared:
            return f"declared destructive ({', '.join(declared)})"
        return why_unsafe(cand.element, start_url) if cand.element is not None else ""

    def _record(self, ex: Exploration, source: Screen, target: Screen, cand: Candidate,
                after: ScreenObservation, items: list[str]) -> str:
        """Record the edge taken; for a list's item, return the item's name as the new screen shows it."""
        shown = shown_item(cand.target, after) if items else ""
        if items:
            log.info("list item %r of %s opened %s (%s), showing %r", cand.target, source.id, target.id,
                     screen_title(after), shown)
        existing = [e for e in ex.edges if e.source == source.id and e.target == target.id]
        if shown and cand.template:
            param_edge = next((e for e in existing if e.param), None)
            if param_edge is None:
                ex.edges.append(TakenEdge(source.id, target.id, cand.template, cand.target, now(),
                                          param="", items=tuple(items)))
                param_edge = ex.edges[-1]
                self._concrete[(source.id, target.id)] = cand.actions
            # seen once per item sampled; two items to one screen make it parameterised (see _parameterise)
            param_edge.param = param_edge.param + ("|" if param_edge.param else "") + shown
            param_edge.shown[cand.target] = shown
            holder = next((e for e in after.elements if e.label == shown and e.selector), None) or next(
                (e for e in after.elements if e.role == ROLE_HEADING and e.selector and not e.hidden
                 and re.search(rf"(?<!\w){re.escape(shown)}(?!\w)", e.label)), None)
            if holder is not None and not target.item_selector:
                target.item_selector = pattern(holder.selector)
            return shown
        if not existing:
            ex.edges.append(TakenEdge(source.id, target.id, cand.actions, cand.target, now()))
        return ""

    def _learn_back(self, ex: Exploration, source: Screen, target: Screen, strategy: Strategy,
                    here: ScreenObservation) -> None:
        for edge in [e for e in ex.edges if e.source == source.id and e.target == target.id]:
            if edge.reverse:
                return
        for option in strategy.back_options(here, source.observation):
            try:
                self._run(option)
            except DevicePilotError:
                continue
            back = self._settle()
            if signature(back) == source.sig:
                stamp = now()
                for edge in ex.edges:
                    if edge.source == source.id and edge.target == target.id:
                        edge.reverse, edge.reverse_taken_at = option, stamp
                self._clean = not strategy.fresh_entry
                return
            if signature(back) != target.sig:
                return          # went somewhere else: the next candidate re-enters the screen

    @staticmethod
    def _rename_item_screen(ex: Exploration, target: Screen, source: Screen, shown: set[str]) -> None:
        """One screen per item: named after its route ("movie"), else after the list it opens from.

        Its label is its own title when that title is not the item ("Live TV" shows a channel's
        banner under a fixed heading), so "on live TV" still names it; else "Movie for {name}".
        """
        route = [p for p in target.observation.url.split("#", 1)[1].split("/") if p] \
            if "#" in target.observation.url else []
        base = route[0] if route else f"{source.label} item"
        old = target.id
        del ex.screens[old]
        target.id = ex.new_id(base)
        ex.screens[target.id] = target
        title = screen_title(target.observation)
        if title and not any(title.lower() in s.lower() or s.lower() in title.lower() for s in shown):
            target.label = title
        else:
            target.label = base.replace("_", " ").replace("-", " ").capitalize() + " for {name}"
        for e in ex.edges:
            e.source = target.id if e.source == old else e.source
            e.target = target.id if e.target == old else e.target

    def _parameterise(self, ex: Exploration) -> None:
        """A list edge sampled with two items that both showed their item becomes a parameterised edge."""
        for edge in list(ex.edges):
            if edge.items and edge.param and edge.param == ex.screens[edge.target].param:
                continue        # parameterised by the exploration this one resumes
            if edge.items and len(set(edge.param.split("|"))) >= 2:
                target = ex.screens[edge.target]
                if not target.param:
                    self._rename_item_screen(ex, target, ex.screens[edge.source], set(edge.param.split("|")))
                target.param = target.param or "name"
                # each item by the name its screen showed when visited, else as the list labels it
                names = tuple(edge.shown.get(i) or i for i in edge.items)
                target.items = tuple(dict.fromkeys(target.items + names))
                edge.param = target.param
            elif edge.items:
                # only one item showed its name: keep a plain edge, as that item was taken
                item = edge.param.split("|")[0] or edge.items[0]
                edge.actions = self._concrete.get((edge.source, edge.target)) or tuple(
                    ActionSpec(a.command, {k: (item if v == "{param}" else v) for k, v in a.params.items()})
                    for a in edge.actions)
                edge.param, edge.items = "", ()


def screen_title(obs: ScreenObservation) -> str:
    """What a screen calls itself: its first heading, else a text marked as a title (Android toolbars)."""
    heading = next((e.label for e in obs.elements if e.role == ROLE_HEADING and e.label and not e.hidden), "")
    if heading:
        return heading
    return next((e.label for e in obs.elements if e.label and not e.hidden and e.role == "text"
                 and ("title" in e.hint or "title" in e.selector)), "")


def shown_item(target: str, after: ScreenObservation) -> str:
    """The name of the item a list action opened, as the new screen shows it ('' when it does not).

    The longest text of the new screen that the activated item's own text contains
    ("The Last Orbit" from the tile "The Last Orbit"; "Election Night Special" from
    the row "Election Night Special Aurora News · Yesterday 21:00").
    """
    low = target.lower()
    found = [t for t in after.visible_texts() if len(t) >= 3 and t.lower() in low]
    if found:
        return max(found, key=len)
    # a short key ("1", "42") activated: the new screen's title names it as a whole word ("plants: 1")
    title = screen_title(after)
    if target.strip() and re.search(rf"(?<!\w){re.escape(target.strip())}(?!\w)", title):
        return target.strip()
    return ""


def link_address(cand: Candidate, here: ScreenObservation) -> str:
    """The address a candidate's link leads to ('' for a control that is not a link to an address)."""
    href = cand.element.href if cand.element is not None else ""
    if not href or href == "#" or href.lower().startswith("javascript:"):
        return ""
    return urljoin(here.url or "", href)


def is_document(obs: ScreenObservation) -> bool:
    """A page with no title, no heading and nothing to act on: a file the browser shows, not an app screen."""
    return not obs.title and not any(e.role == ROLE_HEADING or e.clickable or e.role in CLICKABLE_ROLES
                                     for e in obs.elements)


def setting_value(label: str) -> tuple[str, str] | None:
    """ "Audio language: English" is the setting "Audio language" showing "English"; None for other labels."""
    name, sep, value = label.partition(":")
    name, value = name.strip(), value.strip()
    return (name, value) if sep and name and value and len(name) <= 40 and len(value) <= 40 else None


def value_shown(obs: ScreenObservation, selector: str, name: str) -> str | None:
    """The value the setting *name* at *selector* shows on *obs* (None when it is gone or renamed)."""
    el = next((e for e in obs.elements if e.selector == selector), None)
    found = setting_value(el.label) if el is not None else None
    return found[1] if found is not None and found[0] == name else None


def ex_depth(ex: Exploration) -> int:
    return max((s.depth for s in ex.screens.values()), default=0)

