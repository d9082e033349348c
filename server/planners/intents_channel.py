"""Channels: what the device's tree lists, tuning one by its number or up and down, and checking which is on.

"switch to channel 5", "ch 7 pls", "channel up x2", "we're on channel 1": a TV's
screen that plays channels is the one whose keywords name channels; a number is
entered with the remote's digit keys, and the screen's element that shows the
channel proves the end state.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.language import Clause, words
from server.planners.matching import find_count, nodes_with_keyword
from server.planners.state import State, Unplannable
from shared import vocabulary as V
from shared.keys import Key, digit_keys
from shared.models import ElementInfo, NodeInfo


# a channel's number in an element's selector ("[data-channel='5']")
_SELECTOR_NUMBER = re.compile(r"data-(?:channel|ch|number|lcn)\s*=\s*['\"]?(\d{1,4})")


def _live_screens(st: State) -> list[NodeInfo]:
    """The screens that play channels, the live one first."""
    return sorted(nodes_with_keyword("channel", st.ctx), key=lambda n: "live" not in n.label.lower())


def _live_screen(st: State) -> NodeInfo:
    live = _live_screens(st)
    if not live:
        raise Unplannable("no screen of this device plays channels")
    return live[0]


def _showing(node: NodeInfo, word: str) -> ElementInfo | None:
    """Of *node*'s elements that show the channel, the one whose name says *word* ("banner", "current"), else the
    first."""
    named = _channel_elements(node)
    return next((e for e in named if word in words(e.name)), named[0] if named else None)


def channel_lineup(st: State, players: list) -> set[int]:
    """The channel numbers the device's tree lists: elements that open a screen playing channels, numbered by a
    ``data-channel`` (or ``data-number``) of their selector or by the number their text starts with (a guide's
    rows, "1 Aurora News …"). Empty when the tree does not list channels."""
    ids = {n.id for n in players}
    found: set[int] = set()
    for node in st.ctx.navigation.nodes:
        for e in node.elements:
            if e.opens not in ids:
                continue
            m = _SELECTOR_NUMBER.search(e.selector or "") or re.match(r"\s*(\d{1,4})\b(?![.:,]\d)", e.text or "")
            if m:
                found.add(int(m.group(1)))
    return found if len(found) >= 3 else set()


def _channel_elements(node: NodeInfo) -> list[ElementInfo]:
    """The elements of the screen that plays channels that show the channel ("channel banner", "current channel")."""
    return [e for e in node.elements if "channel" in words(e.name) and e.selector and not e.many]


def tune_channel(st: State, number: str) -> None:
    live = _live_screens(st)
    if not live:
        raise Unplannable("no screen of this device plays channels")
    lineup = channel_lineup(st, live)
    if lineup and int(number) not in lineup and not st.open_world:
        low, high = min(lineup), max(lineup)
        raise Unplannable(f"there is no channel {number}: the guide lists channels {low} to {high}"
                          if lineup == set(range(low, high + 1)) else
                          f"there is no channel {number}: the guide lists channels {', '.join(map(str, sorted(lineup)))}",
                          f"channel {number}")
    st.goto(live[0])
    allowed = st.key_choices()
    keys = digit_keys(number)
    if not keys or any(k.value not in allowed for k in keys):
        raise Unplannable("the remote has no digit keys to enter a channel number")
    for k in keys:
        st.add(V.PRESS_KEY, {"key": k.value}, f"Press {k.value[-1]}")
    st.node = live[0].id
    st.moved = True
    st.tuned = number
    st.summary.append(f"tune channel {number} on {live[0].label}")
    # the channel's number is shown once tuned: the end state of "switch to channel 5"
    shown = next(iter(_channel_elements(live[0])), None)
    try:
        st.expect_check(checks.element(st.ctx, selector=shown.selector, text=number,
                                       description=f"Check channel {number} is on") if shown else None)
    except CannotCheck:
        st.expect_check(None)


def channel_check(st: State, number: str, negative: bool = False) -> None:
    """"we're on channel 1", "the channel is 8": the screen that plays channels shows that number, read from its
    element of the current channel (else its banner); never tuned first, which would make the check pass."""
    live = _live_screen(st)
    shown = _showing(live, "current")
    if shown is None:
        raise Unplannable(f"nothing on {live.label} shows the channel's number")
    if st.node != live.id:
        st.goto(live)
    if negative:   # "not 6" is read from the element while it shows: an element gone proves nothing
        st.check(checks.element(st.ctx, selector=shown.selector, description=f"Check {shown.name} is shown"))
    st.prove(lambda: checks.element(st.ctx, selector=shown.selector, text=number, present=not negative,
                                    description=f"Check channel {number} is {'not ' if negative else ''}on"))


# words that may follow a channel's number in a request to tune it ("channel 5 on live tv please")
_AFTER_CHANNEL = frozenset("please pls plz now on the live tv screen for me again instead right away quickly thanks "
                           "thank you of it using with by via number keys digits digit buttons remote keypad through from "
                           "guide epg menu list".split())


_BY_NAME = re.compile(r"\b(?:switch|tune|change|go|put|flip|zap|move|jump)\s+(?:in\s+|over\s+|on\s+)?to\s+(?:the\s+)?channel\s+"
                      r"(?P<n>(?!up\b|down\b)[A-Za-z][\w' ]*?)(?:\s+(?:please|pls|for\s+me|for\s+us|now))*$", re.I)


def _tune_by_row(c: Clause, st: State) -> bool:
    """"switch to channel Tech Today" where the guide's rows say more than a name ("8 Tech Today Gadget Lab 20", as
    an explorer reads them): the channel whose row starts with the name, tuned by its number, then its name read."""
    m = _BY_NAME.search(c.text)
    if m is None or m.group("n").casefold() in channel_names(st):
        return False   # a name the tree gives a channel alone: its own element is selected (the select intent)
    number = channel_number(st, m.group("n"))
    if number is None:
        return False
    tune_channel(st, str(number))
    if tuned_name_check(st, str(number), m.group("n").strip()):
        st.expect_check(None)
    return True


def channel_intent(c: Clause, st: State) -> bool:
    low = c.low
    m = re.search(r"\bchannel\s*(?:number\s*|no\.?\s*|#\s*)?(\d{1,4})\b|\b(?:tune|zap|flip)\s+(?:in\s+)?(?:to\s+)?(\d{1,4})\b",
                  low)
    updown = re.search(r"\b(?:channel|zap|zapping|flip)\s+(up|down)\b|\b(next|previous|prev|last)\s+channel\b", low)
    if not m and not updown:
        return _tune_by_row(c, st)
    if m:
        after = words(re.sub(r"\bfor\s+(?:a\s+(?:bit|while|moment|second|minute|few\s+(?:seconds|minutes))|"
                             r"\d+\s+(?:seconds?|minutes?|secs?|mins?))\b", "", low[m.end():]))
        if after and not set(after) <= _AFTER_CHANNEL:
            # "go to channel 8 - is the banner showing X": more is asked than the channel; never dropped unread
            raise Unplannable(f"I cannot tell what to do with {low[m.end():].strip()!r} after channel "
                              f"{m.group(1) or m.group(2)}", c.text)
        tune_channel(st, m.group(1) or m.group(2))
        return True
    live = _live_screen(st)
    st.goto(live)
    word = (updown.group(1) or updown.group(2)).lower()
    key = Key.CHANNEL_UP if word in ("up", "next") else Key.CHANNEL_DOWN   # "last channel" = the one before
    if key.value not in st.key_choices():
        raise Unplannable(f"the remote has no {key.value} key")
    st.add(V.PRESS_KEY, {"key": key.value, "repeat": find_count(low)}, f"Press {key.value}")
    st.node, st.moved, st.tuned = live.id, True, ""
    st.expect_check(None)
    return True


def channel_names(st: State) -> dict[str, int]:
    """The channels the device's tree names, by name: elements that open a screen playing channels, their text
    the channel's name ("Melody TV") and their number from the selector or the text's start ("5 Melody TV")."""
    players = {n.id for n in nodes_with_keyword("channel", st.ctx)}
    names: dict[str, int] = {}
    for node in st.ctx.navigation.nodes:
        for e in node.elements:
            if e.opens not in players or not e.text:
                continue
            m = _SELECTOR_NUMBER.search(e.selector or "")
            lead = re.match(r"\s*(\d{1,4})\s+(?P<name>\S.*)$", e.text)
            number = m.group(1) if m else lead.group(1) if lead else ""
            name = (lead.group("name") if lead else e.text).strip()
            if number and name and not name.isdigit():
                names[name.casefold()] = int(number)
    return names


def channel_number(st: State, name: str) -> int | None:
    """The number of the channel *name* names: a channel's name, or the one name that starts a channel's row as an
    explored guide reads it ("1 Aurora News Evening Headlines 20" for "Aurora News"); None for anything else."""
    names = channel_names(st)
    said = name.strip().casefold()
    if said in names:
        return names[said]
    starts = [n for n in names if n.startswith(said + " ")] if said else []
    return names[starts[0]] if len(starts) == 1 else None


def tuned_name_check(st: State, number: str, name: str, negative: bool = False) -> bool:
    """Right after tuning *number*: its banner shows *name* (the banner shows a while after each tune). "Not X" is
    read while the banner shows the number, so a banner that has gone proves nothing. False: no banner declared."""
    live = _live_screens(st)
    banner = next((e for e in _channel_elements(live[0]) if "banner" in words(e.name)), None) if live else None
    if banner is None:
        return False
    if negative:
        st.check(checks.element(st.ctx, selector=banner.selector, text=number,
                                description=f"Check the banner shows channel {number}"))
    st.prove(lambda: checks.element(st.ctx, selector=banner.selector, text=name, present=not negative,
                                    description=f"Check channel {number} is {'not ' if negative else ''}{name}"))
    return True


def channel_name_check(st: State, name: str, negative: bool = False) -> None:
    """"the channel on screen is Aurora News", "you should end up on Cinema Nova": never tuned first. A channel the
    tree names is checked by its number on the element of the current channel, which stays on screen (a banner
    hides after a while, and a hidden banner would pass any "we're not on X"); a name no channel has is looked for
    in the banner, and only where it can fail: never as a part of a channel's name ("News"), never as "not on"."""
    number = channel_number(st, name)
    if number is not None and st.tuned == str(number) and st.node in {n.id for n in _live_screens(st)} \
            and tuned_name_check(st, st.tuned, name, negative):
        return   # just tuned by its number: the name is read off the screen, not from the tree's lineup
    if number is not None:
        channel_check(st, str(number), negative)
        return
    names = channel_names(st)
    partial = sorted(n for n in names if name.casefold() in n)
    if partial:
        raise Unplannable(f"{name!r} is part of the name of {len(partial)} channel(s): say which one", name)
    if negative:
        raise Unplannable(f"no channel is called {name!r}, so it cannot be on: a check that it is not would always "
                          f"pass", name)
    live = _live_screen(st)
    shown = _showing(live, "banner")
    if shown is None:
        raise Unplannable(f"nothing on {live.label} shows the channel's name")
    if st.node != live.id:
        st.goto(live)
    st.prove(lambda: checks.element(st.ctx, selector=shown.selector, text=name, present=not negative,
                                    description=f"Check {name!r} is {'not ' if negative else ''}the channel on"))


def channel_row(st: State, number: str, where: str = "") -> tuple[NodeInfo, ElementInfo] | None:
    """The row of channel *number* on a screen that lists channels (a guide): the screen *where* names, else the
    one shown, else none. Its element opens the screen that plays channels and carries the channel's number."""
    players = {n.id for n in nodes_with_keyword("channel", st.ctx)}
    if where:
        found = grounding.screens(where, st.ctx, minimum=0.85)
        nodes = [found[0].node] if found else []
    else:
        nodes = [n for n in st.ctx.navigation.nodes if n.id == st.node]
    for node in nodes:
        for e in node.elements:
            if e.opens not in players or not e.selector:
                continue
            m = _SELECTOR_NUMBER.search(e.selector) or re.match(r"\s*(\d{1,4})\b", e.text or "")
            if m and m.group(1) == number:
                return node, e
    return None


def channel_row_check(st: State, number: str, text: str, negative: bool = False, where: str = "") -> bool:
    """"channel 4 in the guide is Kids Zone", "on the guide, Secrets of the Reef is on channel 6 tonight": the
    guide's row of that channel shows *text*; never tuned (tuning would check the live banner, not the guide)."""
    found = channel_row(st, number, where)
    if found is None:
        return False
    node, row = found
    if st.node != node.id:
        st.goto(node)
    st.prove(lambda: checks.element(st.ctx, selector=row.selector, text=text, present=not negative,
                                    description=f"Check the row of channel {number} on {node.label} "
                                                f"{'does not show' if negative else 'shows'} {text!r}"))
    st.last_object = row.text or row.name   # "…, then select that row": this one
    return True


_THAT_CHANNEL = re.compile(r"\b(?:that|said)\s+channel\b(?!\s*(?:number\s*|no\.?\s*|#\s*)?\d)", re.I)
# a request that tunes ("switch to that channel", "put that channel on"), never a check of the one on
_TUNES = re.compile(r"^(?:please\s+)?(?:switch|change|go|tune|turn|flip|move|jump|put|watch|zap|head|take\s+me)\b", re.I)


def that_channel(text: str, before: str, st: State) -> str:
    """"If so, switch to that channel": the channel the task named before (by its name or number), said in its
    place; *text* unchanged where it says no such thing. Never the screen that plays channels: a channel the task
    did not name is refused."""
    if not _THAT_CHANNEL.search(text) or not _TUNES.match(text.strip()) or not nodes_with_keyword("channel", st.ctx):
        return text
    names = channel_names(st)
    said = {n: str(names[n]) for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", before, re.I)}
    said.update({m.group(1): m.group(1) for m in re.finditer(r"\bchannel\s*(\d{1,4})\b", before, re.I)})
    numbers = set(said.values())
    if len(numbers) != 1 or re.search(r"\b(?:not|n['’]t|no\s+longer|never)\b", before, re.I):
        # none named, several, or one said not to be it ("X should not be on Melody TV … switch to that channel")
        raise Unplannable(f"I cannot tell which channel {text!r} means: say its name or number", text)
    return _THAT_CHANNEL.sub(f"channel {numbers.pop()}", text, count=1)
