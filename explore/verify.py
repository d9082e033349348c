"""Verifications that discriminate: for each screen, the cheapest check that holds there and nowhere else.

Cost order: an element (a heading's locator with its text, else its locator
alone, else any other element's locator), then on-screen text (OCR), then an
image — each checked against the stored observation of every other screen.
A screen no check tells apart is reported with the screens it looks like.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from backend_core.navigation.tree import ActionSpec
from explore.model import Screen
from shared import vocabulary as V
from shared.commands import CommandSpec
from shared.screen import ROLE_HEADING, ScreenObservation, UIElement

ELEMENT_COMMANDS = (V.WAIT_FOR_ELEMENT, "waitForElementToAppear")
TEXT_COMMANDS = (V.WAIT_FOR_TEXT, "waitForTextToAppear")


@dataclass(frozen=True)
class Check:
    kind: str              # "element" or "text"
    selector: str = ""
    text: str = ""
    present: bool = True

    def holds(self, obs: ScreenObservation) -> bool:
        if self.kind == "element":
            return any(e.selector == self.selector and not e.hidden and (not self.text or self.text in (e.name, e.text))
                       for e in obs.elements)
        return any(self.text == t for t in obs.visible_texts())

    def holds_on(self, obs: ScreenObservation) -> bool:
        return self.holds(obs) == self.present

    def negated(self) -> "Check":
        return Check(self.kind, self.selector, self.text, not self.present)

    def action(self, commands: dict[str, CommandSpec]) -> ActionSpec | None:
        names = ELEMENT_COMMANDS if self.kind == "element" else TEXT_COMMANDS
        if not self.present:
            names = (names[0], names[1].replace("Appear", "Disappear"))
        name = next((n for n in names if n in commands), None)
        if name is None:
            return None
        params: dict[str, object] = {}
        if self.kind == "element":
            params["selector"] = self.selector
        if self.text:
            params["text"] = self.text
        if name in (V.WAIT_FOR_ELEMENT, V.WAIT_FOR_TEXT):
            params["present"] = self.present
        return ActionSpec(name, params)


@dataclass
class Choice:
    screen: str
    verification: ActionSpec | None
    check: Check | None
    also: tuple[ActionSpec, ...] = ()      # absences that tell it from a screen drawn over it
    looks_like: list[str] = field(default_factory=list)   # screens it cannot be told from


def _element_checks(screen: Screen) -> list[Check]:
    visible = [e for e in screen.observation.elements if e.selector and not e.hidden]

    def rank(e: UIElement) -> tuple[int, int]:
        return (0 if e.role == ROLE_HEADING else 1 if "#" in e.selector else 2, len(e.selector))

    checks: list[Check] = []
    for e in sorted(visible, key=rank):
        if e.role == ROLE_HEADING and e.label and not screen.param:
            checks.append(Check("element", e.selector, e.label))
        checks.append(Check("element", e.selector))
    if not screen.param:
        # a locator shared by several screens with the text it shows here (Android's toolbar title)
        titled = sorted((e for e in visible if e.role != ROLE_HEADING and e.label and len(e.label) <= 40),
                        key=lambda e: (0 if "title" in e.hint or "title" in e.selector else 1, len(e.selector)))
        checks += [Check("element", e.selector, e.label) for e in titled]
    return checks


def _text_checks(screen: Screen) -> list[Check]:
    if screen.param:
        return []
    return [Check("text", text=t) for t in dict.fromkeys(screen.observation.visible_texts()) 
            if 2 < len(t) <= 40 and not any(ch.isdigit() for ch in t) and ":" not in t]


def _first_unique(screen: Screen, others: list[Screen], checks: list[Check],
                  commands: dict[str, CommandSpec]) -> Choice | None:
    for check in checks:
        if not check.holds(screen.observation) or any(check.holds(o.observation) for o in others):
            continue
        action = check.action(commands)
        if action is not None:
            return Choice(screen.id, action, check)
    return None


def choose(screens: dict[str, Screen], commands: dict[str, CommandSpec]) -> dict[str, Choice]:
    """The chosen verification of every screen (None with the look-alikes when none discriminates)."""
    out: dict[str, Choice] = {}
    for sid, screen in screens.items():
        others = [s for s in screens.values() if s.id != sid]
        chosen = _first_unique(screen, others, _element_checks(screen), commands) \
            or _with_absences(screen, others, commands) \
            or _first_unique(screen, others, _text_checks(screen), commands)
        if chosen is None:
            mine = {e.selector for e in screen.observation.elements if e.selector}
            looks = [o.id for o in others if mine <= {e.selector for e in o.observation.elements if e.selector}]
            chosen = Choice(sid, None, None, looks_like=looks or [o.id for o in others][:3])
        out[sid] = chosen
    return out


def _with_absences(screen: Screen, others: list[Screen], commands: dict[str, CommandSpec]) -> Choice | None:
    """A check that holds here plus, for each other screen it also holds on, the absence of
    something only that screen shows (a settings screen, and the same with its PIN dialog open)."""
    for first in _element_checks(screen)[:3]:
        if not first.holds(screen.observation):
            continue
        absences: list[Check] = []
        for other in others:
            if not first.holds(other.observation):
                continue
            mark = next((c.negated() for c in _element_checks(other)
                         if c.holds(other.observation) and not c.holds(screen.observation)), None)
            if mark is None:
                break
            absences.append(mark)
        else:
            actions = [first.action(commands)] + [a.action(commands) for a in absences]
            if all(actions):
                return Choice(screen.id, actions[0], first, also=tuple(actions[1:]))  # type: ignore[arg-type]
    return None


def item_check(screen: Screen, commands: dict[str, CommandSpec]) -> ActionSpec | None:
    """The check that the item shown is the one asked for: its name where the name shows."""
    if not screen.param:
        return None
    check = Check("element", screen.item_selector, "{%s}" % screen.param) if screen.item_selector \
        else Check("text", text="{%s}" % screen.param)
    return check.action(commands)
