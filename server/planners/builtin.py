"""The built-in planner: no network, no key — the embedded default.

It splits a task into clauses ("open movies and play The Last Orbit" → two),
and gives each clause to the first intent that understands it. Intents reason
over the device's context: navigation nodes (labels, keywords), the elements
each node declares (names, texts, what they open), the remote's key
vocabulary, and which commands the device really has. A clause no intent can
ground in the context makes the whole task infeasible, with the reason —
never a guess.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Callable

from server.planners.base import PlanRequest
from server.planners.matching import (
    STOPWORDS, best_element, best_node, content_words, find_count, find_keys, find_ordinal,
    nodes_with_keyword, words,
)
from shared.keys import Key, digit_keys
from shared.models import ElementInfo, NodeInfo, Plan, PlannerName, PlanningContext, PlanStep

log = logging.getLogger(__name__)


class Unplannable(Exception):
    """A clause was understood but cannot be done on this device."""


@dataclass
class State:
    ctx: PlanningContext
    node: str | None
    steps: list[PlanStep] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    last_intent: str = ""

    def has(self, command: str) -> bool:
        return command in self.ctx.commands

    def add(self, command: str, params: dict, description: str) -> None:
        self.steps.append(PlanStep(len(self.steps) + 1, command, params, description))

    def goto(self, node: NodeInfo) -> None:
        if self.node != node.id:
            if not self.has("goto"):
                raise Unplannable(f"the device has no navigation to reach {node.label!r}")
            self.add("goto", {"node": node.id}, f"Go to {node.label}")
        self.node = node.id

    def node_info(self, node_id: str | None) -> NodeInfo | None:
        return self.ctx.nodes.get(node_id) if node_id else None

    def key_choices(self) -> set[str]:
        spec = self.ctx.commands.get("press_key")
        if spec is None:
            return set()
        p = spec.param("key")
        return set(p.choices) if p and p.choices else {k.value for k in Key}

    def click(self, el: ElementInfo, index: int | None, description: str) -> None:
        if not self.has("click_element"):
            raise Unplannable("the device has no click_element command")
        params: dict = {"selector": el.selector} if el.selector else {"text": el.text or el.name}
        if index is not None and index >= 0:
            params["index"] = index
        elif index == -1:
            raise Unplannable("'last' needs the number of items, which is only known on the device")
        self.add("click_element", params, description)
        self.node = el.opens or None  # where a click leads is unknown unless the element says


Intent = Callable[["Clause", State], bool]

VERIFY_VERB = re.compile(r"^(?:and\s+)?(?:check|verify|ensure|confirm|assert|make sure|expect|see|validate)\b"
                         r"(?:\s+that)?\s*", re.I)
NEGATION = re.compile(r"\b(?:not|no longer|isn't|aren't|doesn't|disappears?|gone|hidden)\b", re.I)


@dataclass(frozen=True)
class Clause:
    text: str

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def verb(self) -> str:
        ws = words(self.text)
        return ws[0] if ws else ""

    def rest(self, n_words: int = 1) -> str:
        """The clause without its first *n_words* words, original case kept."""
        parts = self.text.split(None, n_words)
        return parts[n_words] if len(parts) > n_words else ""


def _clean_text(text: str) -> str:
    text = text.strip().strip(".!?").strip()
    m = re.fullmatch(r"""["'“‘](.+)["'”’]""", text)
    return m.group(1) if m else text


def _quoted(text: str) -> str | None:
    m = re.search(r"""["“]([^"”]+)["”]|'([^']+)'""", text)
    return (m.group(1) or m.group(2)) if m else None


# -- intents, in the order they are tried ------------------------------------------------

def verify_intent(c: Clause, st: State) -> bool:
    m = VERIFY_VERB.match(c.text)
    if not m:
        return False
    rest = c.text[m.end():].strip()
    negative = bool(NEGATION.search(rest))
    rest_clean = NEGATION.sub(" ", rest)
    subject, text = None, None
    patterns = [
        r"^(?P<subject>.+?)\s+(?:is|are)\s+(?:set\s+to\s+|turned\s+)?(?P<state>on|off|enabled|disabled)\s*$",
        r"^(?P<subject>.+?)\s+(?:shows?|displays?|reads?|says?|contains?|has|have|lists?)\s+(?P<text>.+)$",
        r"^(?P<text>.+?)\s+(?:is|are)\s*(?:shown|displayed|visible|on screen|present|there|playing|appears?)"
        r"(?:\s+(?:on|in)\s+(?P<subject>.+))?\s*$",
        r"^(?P<text>.+?)\s+(?:appears?|is gone|are gone|is hidden)\s*$",
    ]
    for pat in patterns:
        pm = re.match(pat, rest_clean.strip(), re.I)
        if pm:
            groups = pm.groupdict()
            subject = groups.get("subject")
            text = groups.get("text") or (groups.get("state") or "").capitalize()
            break
    if text is None:
        text = rest_clean
    text = _quoted(rest) or _clean_text(re.sub(r"^(?:(?:the|a|an)\s+)?(?:(?:text|words?|message|label)\s+)?", "",
                                               text.strip(), flags=re.I))
    if not text:
        raise Unplannable(f"nothing to check in {c.text!r}")
    element = None
    on_screen = bool(subject) and set(content_words(subject)) <= {"screen", "display", "tv", "device"}
    if subject and not on_screen:
        match = best_element(subject, st.ctx, prefer_node=st.node)
        if match is None:
            raise Unplannable(f"no element called {subject.strip()!r} on any screen of this device")
        element = match.element
        if st.node is None or match.node.id != st.node:
            st.goto(match.node)
    elif not subject:
        # "check the banner is shown": the text may itself name an element of the current screen
        match = best_element(text, st.ctx, prefer_node=st.node, minimum=0.9)
        if match is not None and match.element.selector and (st.node in (None, match.node.id)) \
                and text.lower() not in (match.element.text or "").lower():
            element, text = match.element, ""
    suffix = "Disappear" if negative else "Appear"
    if element is not None and element.selector and st.has(f"waitForElementTo{suffix}"):
        params = {"selector": element.selector}
        if text:
            params["text"] = text
        st.add(f"waitForElementTo{suffix}", params,
               f"Check {element.name} {'does not show' if negative else 'shows'} {text or 'up'}".strip())
    elif text and st.has(f"waitForTextTo{suffix}") and (on_screen or not st.has(f"waitForElementTo{suffix}")):
        # "the screen shows X" is a visual check (OCR); so is any check on a device without an element tree
        st.add(f"waitForTextTo{suffix}", {"text": text}, f"Check the screen {'no longer ' if negative else ''}shows {text!r}")
    elif text and st.has(f"waitForElementTo{suffix}"):
        st.add(f"waitForElementTo{suffix}", {"text": text}, f"Check {text!r} is {'gone' if negative else 'shown'}")
    else:
        raise Unplannable("the device has no verification that can check this")
    return True


def channel_intent(c: Clause, st: State) -> bool:
    low = c.low
    m = re.search(r"\bchannel\s*(?:number\s*)?(\d{1,4})\b|\btune\s+(?:in\s+)?to\s+(\d{1,4})\b", low)
    updown = re.search(r"\bchannel\s+(up|down)\b|\b(next|previous)\s+channel\b", low)
    if not m and not updown:
        return False
    live = sorted(nodes_with_keyword("channel", st.ctx), key=lambda n: "live" not in n.label.lower())
    if not live:
        raise Unplannable("no screen of this device plays channels")
    st.goto(live[0])
    allowed = st.key_choices()
    if m:
        number = m.group(1) or m.group(2)
        keys = digit_keys(number)
        if not keys or any(k.value not in allowed for k in keys):
            raise Unplannable("the remote has no digit keys to enter a channel number")
        for k in keys:
            st.add("press_key", {"key": k.value}, f"Press {k.value[-1]}")
        st.summary.append(f"tune channel {number} on {live[0].label}")
    else:
        word = (updown.group(1) or updown.group(2)).lower()
        key = Key.CHANNEL_UP if word in ("up", "next") else Key.CHANNEL_DOWN
        if key.value not in allowed:
            raise Unplannable(f"the remote has no {key.value} key")
        st.add("press_key", {"key": key.value, "repeat": find_count(low)}, f"Press {key.value}")
    st.node = live[0].id
    return True


def search_intent(c: Clause, st: State) -> bool:
    m = re.match(r"^(?:search|look)\s+(?:for\s+|up\s+)?(?P<q>.+)$|^find\s+(?P<q2>.+)$", c.text.strip(), re.I)
    if not m:
        return False
    query = _quoted(c.text) or _clean_text(m.group("q") or m.group("q2"))
    screens = nodes_with_keyword("search", st.ctx)
    if not screens:
        raise Unplannable("this device has no search screen")
    node = screens[0]
    st.goto(node)
    field_el = next((e for e in node.elements if not e.many and
                     set(words(e.name)) & {"field", "input", "box", "search"}), None)
    if not st.has("input_text"):
        raise Unplannable("the device has no input_text command")
    params = {"text": query}
    if field_el is not None and field_el.selector:
        params["selector"] = field_el.selector
    st.add("input_text", params, f"Type {query!r} in the search field")
    st.summary.append(f"search {query!r}")
    return True


def toggle_intent(c: Clause, st: State) -> bool:
    text = c.text.strip()
    m = (re.match(r"^(?:turn|switch|set|put)\s+(?P<x>.+?)\s+(?:to\s+)?(?P<v>on|off)$", text, re.I)
         or re.match(r"^(?:turn|switch)\s+(?P<v>on|off)\s+(?:the\s+)?(?P<x>.+)$", text, re.I)
         or re.match(r"^(?P<v>enable|disable|activate|deactivate)\s+(?:the\s+)?(?P<x>.+)$", text, re.I)
         or re.match(r"^(?:set|change|switch)\s+(?:the\s+)?(?P<x>.+?)\s+to\s+(?P<v>.+)$", text, re.I))
    if not m:
        return False
    value = _clean_text(m.group("v"))
    value = {"enable": "On", "activate": "On", "disable": "Off", "deactivate": "Off"}.get(value.lower(), value)
    if value.lower() in ("on", "off"):
        value = value.capitalize()
    match = best_element(m.group("x"), st.ctx, prefer_node=st.node)
    if match is None:
        return False  # maybe "switch to <screen>": let navigation try
    st.goto(match.node)
    el = match.element
    if st.has("click_until"):
        params = {"selector": el.selector} if el.selector else {"text": el.text or el.name}
        st.add("click_until", {**params, "expect": value}, f"Set {el.name} to {value}")
    else:
        st.click(el, None, f"Select {el.name}")
        st.goto(match.node)
        verify_intent(Clause(f"check {el.name} shows {value}"), st)
    st.node = match.node.id
    st.summary.append(f"set {el.name} to {value}")
    return True


PRESS_VERBS = {"press", "hit", "push", "send"}


def press_intent(c: Clause, st: State) -> bool:
    inherits = st.last_intent == "press" and c.verb not in PRESS_VERBS
    if c.verb not in PRESS_VERBS and not inherits:
        return False
    body = c.rest() if c.verb in PRESS_VERBS else c.text
    keys = find_keys(body, st.key_choices())
    if not keys:
        if inherits:
            return False
        return select_intent(Clause("select " + body), st)  # "press the Play button"
    count = find_count(body)
    for i, key in enumerate(keys):
        repeat = count if i == len(keys) - 1 else 1
        params = {"key": key.value}
        if repeat > 1:
            params["repeat"] = repeat
        st.add("press_key", params, f"Press {key.value}" + (f" {repeat} times" if repeat > 1 else ""))
    st.node = None if any(k in (Key.OK, Key.BACK, Key.HOME) for k in keys) else st.node
    return True


def type_intent(c: Clause, st: State) -> bool:
    if c.verb not in ("type", "enter", "input", "write"):
        return False
    rest = c.rest()
    if c.verb == "enter" and best_node(rest, st.ctx, minimum=0.8):
        return False  # "enter settings" is navigation
    m = re.match(r"^(?P<t>.+?)\s+(?:in|into)\s+(?:the\s+)?(?P<f>.+)$", rest, re.I)
    text = _quoted(rest) or _clean_text(m.group("t") if m else rest)
    params = {"text": text}
    if m:
        field_match = best_element(m.group("f"), st.ctx, prefer_node=st.node)
        if field_match is None:
            raise Unplannable(f"no field called {m.group('f')!r}")
        st.goto(field_match.node)
        if field_match.element.selector:
            params["selector"] = field_match.element.selector
    if not st.has("input_text"):
        raise Unplannable("the device has no input_text command")
    st.add("input_text", params, f"Type {text!r}")
    return True


NAV_VERBS = {"go", "open", "navigate", "show", "visit", "return", "enter", "switch", "head", "move", "back"}
NAV_ONLY = {"go", "navigate", "visit", "return", "head", "move"}


def navigate_intent(c: Clause, st: State) -> bool:
    if c.verb not in NAV_VERBS:
        return False
    target = re.sub(r"^(?:back\s+)?(?:to|into|onto)\s+", "", c.rest().strip(), flags=re.I)
    if c.verb == "back" or re.fullmatch(r"(?:go\s+)?back|return|go to the previous screen", c.low.strip()):
        allowed = st.key_choices()
        if Key.BACK.value not in allowed:
            raise Unplannable("the remote has no BACK key")
        st.add("press_key", {"key": Key.BACK.value}, "Go back")
        st.node = None
        return True
    match = best_node(target, st.ctx)
    if match is not None:
        st.goto(match.node)
        st.summary.append(f"go to {match.node.label}")
        return True
    if c.verb in NAV_ONLY or re.search(r"\b(?:screen|page|menu|tab|section)\b", c.low):
        screens = ", ".join(n.label for n in st.ctx.navigation.nodes) or "none"
        name = " ".join(w for w in words(target) if w not in STOPWORDS | {"screen", "page"}) or target
        raise Unplannable(f"there is no {name!r} screen on {st.ctx.userinterface}; its screens are: {screens}")
    return False


SELECT_VERBS = {"open", "play", "select", "choose", "pick", "watch", "click", "tap", "start", "launch", "view"}


def select_intent(c: Clause, st: State) -> bool:
    if c.verb not in SELECT_VERBS:
        return False
    obj = _quoted(c.text) or _clean_text(c.rest())
    obj = re.sub(r"\s+(?:button|tile|item|entry|option)$", "", obj, flags=re.I)
    direct = best_element(obj, st.ctx, prefer_node=st.node, minimum=0.85)
    index = None if direct is not None else find_ordinal(obj)
    if direct is not None:
        match = direct
    elif index is not None:
        noun = " ".join(w for w in content_words(obj) if w not in {"first", "second", "third", "fourth",
                                                                   "fifth", "last", "1st", "2nd", "3rd"})
        match = best_element(noun, st.ctx, prefer_node=st.node, many=True)
        if match is None:
            raise Unplannable(f"no list of {noun!r} on any screen of this device")
    else:
        match = best_element(obj, st.ctx, prefer_node=st.node)
        if match is None:
            raise Unplannable(f"nothing called {obj!r} on any screen of this device")
    if st.node != match.node.id:
        st.goto(match.node)
    el = match.element
    label = el.text or el.name
    st.click(el, index, f"Select {('the ' + str(index + 1) + '. ' + el.name) if index is not None else label}")
    st.summary.append(f"select {label if index is None else el.name}")
    if c.verb in ("play", "watch") and el.opens:
        # "play X" where X opens a detail page: press its play control, then check X is playing
        landing = st.node_info(el.opens)
        play = next((e for e in landing.elements if "play" in words(e.name)), None) if landing else None
        if play is not None:
            st.click(play, None, f"Play {label}")
            final = st.node_info(st.node)
            title = next((e for e in final.elements if "title" in words(e.name)), None) if final else None
            if title is not None and title.selector and st.has("waitForElementToAppear"):
                st.add("waitForElementToAppear", {"selector": title.selector, "text": label},
                       f"Check {label} is playing")
    return True


INTENTS: list[tuple[str, Intent]] = [
    ("verify", verify_intent),
    ("channel", channel_intent),
    ("search", search_intent),
    ("toggle", toggle_intent),
    ("press", press_intent),
    ("type", type_intent),
    ("navigate", navigate_intent),
    ("select", select_intent),
]

_SPLIT = re.compile(r"\s*(?:[,;]\s*(?:and\s+)?(?:then\s+)?|\.\s+|\band then\b|\bthen\b|\band\b|\bafter that\b)\s*", re.I)


def split_clauses(task: str, protected: list[str]) -> list[str]:
    """Split a task into clauses, keeping quoted strings and known names (which may hold 'and') whole."""
    holds: dict[str, str] = {}

    def hold(m: re.Match[str]) -> str:
        key = f"\x00{len(holds)}\x00"
        holds[key] = m.group(0)
        return key

    text = re.sub(r"""["“][^"”]*["”]""", hold, task)
    for name in sorted((p for p in protected if " and " in p.lower()), key=len, reverse=True):
        text = re.sub(re.escape(name), hold, text, flags=re.I)
    parts = [p for p in _SPLIT.split(text) if p and p.strip()]
    out = []
    for p in parts:
        for key, value in holds.items():
            p = p.replace(key, value)
        out.append(p.strip())
    return out


class BuiltinPlanner:
    """Plans from the context alone. Always answers: a plan, or infeasible with the reason."""

    name = PlannerName.BUILTIN.value

    def plan(self, request: PlanRequest) -> Plan:
        ctx = request.context
        st = State(ctx, request.current_node)
        names = [e.text for n in ctx.navigation.nodes for e in n.elements if e.text] + \
                [n.label for n in ctx.navigation.nodes]
        clauses = split_clauses(request.task.strip(), names)
        if not clauses:
            return Plan("The task is empty.", False)
        for text in clauses:
            clause = Clause(text)
            try:
                for intent_name, intent in INTENTS:
                    if intent(clause, st):
                        st.last_intent = intent_name
                        break
                else:
                    return Plan(f"I cannot ground {text!r} in this device's commands, screens or elements.", False)
            except Unplannable as exc:
                return Plan(f"Not feasible: {exc}.", False)
        if not st.steps:
            return Plan("The task asks for nothing the device can do.", False)
        analysis = f"{len(clauses)} part(s): " + "; ".join(
            f"{t!r}" for t in clauses) + f" → {len(st.steps)} step(s)."
        return Plan(analysis, True, st.steps, planner=self.name)
