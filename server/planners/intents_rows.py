"""A row's own controls: "the Add link next to Products", "click its delete button", and a record shown as
plain text in a row, opened through that row's link.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.language import Act, Clause, clean, words
from server.planners.rows_in_state import every_row_in_state
from server.planners.state import State, Unplannable
from shared import vocabulary as V
from shared.screen import CLICKABLE_ROLES, ROLE_LINK, ROLE_TEXTBOX, UIElement

_OPENING_WORDS = {"view", "open", "details", "detail", "show", "more", "info"}
_DESTRUCTIVE_WORDS = {"delete", "remove", "drop", "destroy", "trash", "archive"}

_NEXT_TO = re.compile(r"^(?P<a>.+?)\s+(?:next to|beside|alongside|in the (?:row|line|entry) (?:of|for|with|showing)|"
                      r"on the (?:row|line) (?:of|for|with)|of the (?:row|line|entry) (?:of|for|with)?)\s+(?:the\s+)?(?P<b>.+)$",
                      re.I)


def row_relative(st: State, raw: str) -> bool:
    """"the Add link next to Products", "the delete button in the row of buy milk": a control of a row."""
    m = _NEXT_TO.match(raw)
    if not m or st.live is None:
        return False
    control = re.sub(r"^(?:the|a|an)\s+|\s+(?:link|button|icon|control|checkbox|box)$", "", m.group("a").strip(), flags=re.I)
    rows = grounding.rows(clean(m.group("b")), st.live, minimum=0.7)
    if not rows:
        return False   # not a row on this screen: read the words another way
    if set(words(control)) & _DESTRUCTIVE_WORDS:   # "the delete button of buy milk": its delete icon, then gone
        from server.planners.intents_form import delete_row

        return delete_row(st, clean(m.group("b")), rows[0].name)
    found = [t for t in grounding.live_elements(control, st.live, roles=CLICKABLE_ROLES, minimum=0.75)
             if t.live.container == rows[0].name]
    if not found:
        raise Unplannable(f"no {control!r} in the row of {m.group('b')!r}", control)
    t = found[0]
    st.click_live(t, f"Click {t.label!r} in the row of {m.group('b')!r}", row=rows[0].name)
    st.summary.append(f"click {t.label} in the row of {m.group('b')}")
    st.last_object = clean(m.group("b"))
    st.expect_check(None)
    return True


_OF_ITEM = re.compile(r"^(?:the\s+)?(?P<a>.+?)\s+(?:of|for|under)\s+(?:the\s+)?(?P<b>.+)$", re.I)
_CONTROL_WORDS = re.compile(r"\s+(?:link|button|icon|control|toggle)$", re.I)
_KINDS = r"function|method|class|module|section|entry|item|row|card|panel|block|property|attribute|constant|field"
_KIND_LAST = re.compile(rf"\s+(?:{_KINDS})$", re.I)
_KIND_FIRST = re.compile(rf"^(?:{_KINDS})\s+", re.I)


def section_control(st: State, raw: str, verb: str = "") -> bool:
    """"view the source of dumps", "the Edit button for Billing": on a page of sections rather than rows, the
    control so named that comes next after the item's own name (the nearest, in the page's order). Only where
    the item's name is shown whole, and the words together name no control of their own ("Terms of Service")."""
    m = _OF_ITEM.match(raw.strip())
    if not m or st.live is None or grounding.live_elements(raw, st.live, roles=CLICKABLE_ROLES, minimum=0.85):
        return False
    control = _CONTROL_WORDS.sub("", m.group("a").strip())
    said_name = clean(m.group("b"))
    els = st.live.elements
    named_at: list[int] = []
    # the name as said, else without a word for its kind ("the dumps function", "the section Billing")
    for name in (said_name, _KIND_LAST.sub("", said_name), _KIND_FIRST.sub("", said_name)):
        named_at = [i for i, e in enumerate(els) if not e.hidden and grounding.norm(name)
                    and grounding.norm(e.name or e.text) == grounding.norm(name)]
        if named_at:
            break
    if not named_at:
        return False
    said = {w.rstrip("s") for w in words(control)} | ({verb.lower()} if verb else set())

    def names_control(e: object) -> bool:
        label = e.name or e.text   # type: ignore[attr-defined]
        return bool(label) and (grounding.similarity(control, label) >= 0.75
                                or {w.rstrip("s") for w in words(label)} <= said)

    controls = [i for i, e in enumerate(els) if (e.role in CLICKABLE_ROLES or e.clickable) and not e.hidden
                and not e.container and not (e.role == ROLE_LINK and (e.href or "").startswith("#")) and names_control(e)]
    # the items the page's own anchors name: another one between the name and the control starts another section
    items = {grounding.norm(e.name or e.text) for e in els if e.role == ROLE_LINK and (e.href or "").startswith("#")}

    def own(n: int, c: int) -> bool:
        here = grounding.norm(els[n].name or els[n].text)
        return not any(grounding.norm(e.name or e.text) in items - {here} for e in els[n + 1:c] if not e.hidden)

    near = min(((c - n, c) for n in named_at for c in controls if c > n and own(n, c)), default=None)
    if near is None:
        return False
    el = els[near[1]]
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, el.label, live=el), f"Click {el.label!r} of {clean(m.group('b'))!r}")
    st.summary.append(f"click {el.label} of {clean(m.group('b'))}")
    st.last_object = clean(m.group("b"))
    st.expect_check(None)
    return True


def open_by_row_link(st: State, t: Target) -> bool:
    """"open Basil" where Basil is plain text in a row: the row's own link opens its record (a "View"
    link, else a key like "9", else its first link that does not delete), and the record shows Basil."""
    el = t.live
    if el is None or el.clickable or el.role not in ("cell", "text") or not el.container or st.live is None:
        return False
    links = [e for e in st.live.elements if e.container == el.container and e.role == ROLE_LINK and not e.hidden
             and (e.name or e.text) and not set(words(e.name or e.text)) & _DESTRUCTIVE_WORDS]
    if not links:
        return False

    def rank(e: object) -> tuple[int, int]:
        name = (e.name or e.text).lower()   # type: ignore[attr-defined]
        order = 0 if set(words(name)) & _OPENING_WORDS else 1 if re.fullmatch(r"[\w-]{0,11}\d[\w-]{0,11}", name) else 2
        return order, links.index(e)   # type: ignore[arg-type]

    link = min(links, key=rank)
    st.click_live(Target(TargetKind.LIVE_ELEMENT, t.score, link.label, live=link),
                  f"Open the row of {t.label!r} (its {link.label!r} link)", row=el.container)
    st.summary.append(f"open {t.label}")
    st.last_object = t.label
    try:
        # an edit link opens a form: the record's name is then the value of one of its fields
        st.expect_check(checks.element(st.ctx, text=t.label, role=ROLE_TEXTBOX,
                                       description=f"Check the form of {t.label!r} is open")
                        if set(words(link.name or link.text)) & _EDITING_WORDS else checks.text_shown(st.ctx, t.label))
    except CannotCheck:
        st.expect_check(None)
    return True


_EDITING_WORDS = frozenset({"edit", "change", "modify", "update"})


# a tester's verb and the first words a row's control may use for it ("resume" where the page says "UnPause")
_VERB_WORDS: dict[str, tuple[str, ...]] = {
    "pause": ("pause", "suspend", "stop", "disable"), "suspend": ("suspend", "pause", "disable"),
    "resume": ("unpause", "resume", "start", "enable", "play"), "unpause": ("unpause", "resume", "start", "enable"),
    "restart": ("restart", "resume", "unpause", "start"), "start": ("start", "resume", "unpause", "enable", "run"),
    "stop": ("stop", "pause", "disable"), "enable": ("enable", "unpause", "resume", "activate"),
    "disable": ("disable", "pause", "deactivate"), "activate": ("activate", "enable"),
    "deactivate": ("deactivate", "disable"), "mute": ("mute", "silence"), "silence": ("mute", "silence"),
    "unmute": ("unmute",), "play": ("play", "start", "resume"), "duplicate": ("duplicate", "clone", "copy"),
    "clone": ("clone", "duplicate", "copy"), "copy": ("copy", "clone", "duplicate"),
    "refresh": ("refresh", "recheck", "reload", "sync"), "favourite": ("favourite", "favorite", "star"),
    "favorite": ("favorite", "favourite", "star"), "star": ("star", "favorite", "favourite"),
    "pin": ("pin",), "unpin": ("unpin",), "lock": ("lock",), "unlock": ("unlock",),
    "kill": ("stop", "kill", "terminate", "end"), "terminate": ("terminate", "stop", "kill", "end"),
    "halt": ("stop", "halt", "pause"), "launch": ("start", "launch", "run"), "boot": ("start", "boot"),
    "reboot": ("restart", "reboot", "reload"), "relaunch": ("restart", "relaunch"), "bounce": ("restart",),
}
# "bring up the backup job", "shut down mail-relay": a verb and its particle, as one verb
_PHRASAL = {("bring", "up"): "start", ("fire", "up"): "start", ("spin", "up"): "start", ("start", "up"): "start",
            ("boot", "up"): "start", ("power", "up"): "start", ("power", "on"): "start", ("turn", "on"): "enable",
            ("shut", "down"): "stop", ("bring", "down"): "stop", ("take", "down"): "stop", ("power", "down"): "stop",
            ("spin", "down"): "stop", ("power", "off"): "stop", ("turn", "off"): "disable"}
ROW_VERBS = frozenset(_VERB_WORDS) | {verb for verb, _ in _PHRASAL}
# "resume checks on X", "mute the notifications for X": what the action is about, then the record
_ROW_VERB = re.compile(r"^(?P<verb>[a-z]+)\s+(?:(?P<part>up|down|on|off)\s+)?(?:(?:the\s+|all\s+)?(?:checks?|checking|notifications?|alerts?|emails?|"
                       r"updates?|monitoring|watching|scheduling|syncing|sync)\s+(?:on|for|of|from)\s+)?(?P<rec>\S.*)$",
                       re.I)
_ROW_CONTROL_ROLES = frozenset({"button", "link", "switch", "menuitem"})
# "load benchy" where benchy's row has a "Load" link, "download the report" beside "Download": a verb of opening or
# clicking that is word for word the first word of a control of the row is that control ("Load", not the file's
# title); deleting and editing keep their own intents and checks
_OWN_WORD_ACTS = frozenset({Act.OPEN, Act.CLICK, Act.PLAY, Act.NAVIGATE})
_NOT_OWN_WORD = frozenset({"open", "go", "click", "press", "tap", "select", "choose", "pick", "navigate", "visit",
                           "show", "view", "see", "display", "edit", "delete", "remove"})


def _first_word(label: str) -> str:
    """ "UnPause checks" → "unpause"; "Re-check" → "recheck"."""
    m = re.match(r"\W*([A-Za-z][A-Za-z-]*)", label or "")
    return m.group(1).replace("-", "").lower() if m else ""


def control_words(verb: str) -> tuple[str, ...]:
    return _VERB_WORDS.get(verb, (verb,))


def verb_names_a_control(verb: str, st: State) -> bool:
    """A verb the screen itself offers as the first word of a control ("recheck", "archive")."""
    return st.live is not None and any(_first_word(e.name or e.text) in control_words(verb)
                                       for e in st.live.elements if e.role in _ROW_CONTROL_ROLES)


# "clear the EPG grabber's log", "clear the log of the EPG grabber", "Clear Log for epg_grabber": a control whose
# label is the verb and its object ("Clear Log"), in the row of the record said with it
_VERB_OBJECT_OF = (re.compile(r"^(?P<verb>[a-z]+)\s+(?:the\s+)?(?P<rec>.+?)['’]s?\s+(?P<obj>[a-z]+(?:\s+[a-z]+)?)$", re.I),
                   re.compile(r"^(?P<verb>[a-z]+)\s+(?:the\s+|its\s+)?(?P<obj>[a-z]+(?:\s+[a-z]+)?)\s+(?:of|for|on|from)\s+"
                              r"(?:the\s+)?(?P<rec>\S.*)$", re.I))


def _verb_object_control(c: Clause, st: State) -> bool:
    assert st.live is not None
    for pattern in _VERB_OBJECT_OF:
        m = pattern.match(c.text.strip())
        if m is None:
            continue
        label = [m.group("verb").lower(), *words(m.group("obj"))]
        rows = grounding.rows(clean(m.group("rec")), st.live, minimum=0.7)
        if not rows or len(rows) > 1 and rows[1].score >= rows[0].score - 0.05:
            continue
        row = rows[0].name
        found = [e for e in st.live.elements if e.container == row and e.role in _ROW_CONTROL_ROLES and not e.disabled
                 and [_stem(w) for w in words(e.name or e.text)] == [_stem(w) for w in label]]
        if len(found) != 1:
            continue
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, found[0].label, live=found[0]),
                      f"Click {found[0].label!r} in the row of {m.group('rec')!r}", row=row)
        st.summary.append(f"{found[0].label} {m.group('rec')}")
        st.last_object = clean(m.group("rec"))
        st.expect_check(None)
        return True
    return False


# "stop everything in the capture group", "restart all processes of the encoders group"
_EVERY_IN = re.compile(r"^(?:everything|all(?:\s+(?:the\s+)?[a-z]+)?|every\s+[a-z]+|each\s+[a-z]+)\s+(?:in|of|from|under)\s+"
                       r"(?:the\s+)?(?P<g>[\w-]+)(?:\s+(?:group|section|category|set|pool))?$", re.I)


def _every_row_of_group(c: Clause, st: State, m: re.Match[str]) -> bool:
    """Each row of the group said, by the group's part of the rows' names ("capture:capture_rec1") or a cell that
    says the group: the verb's control in each."""
    assert st.live is not None
    said = _EVERY_IN.match(clean(m.group("rec")))
    if said is None:
        return False
    group = said.group("g").lower()
    verb = m.group("verb").lower()
    wanted = control_words(verb)
    rows: dict[str, UIElement] = {}
    for e in st.live.elements:
        if not e.container or e.container in rows or e.role not in ("cell", "link", "text"):
            continue
        name = (e.name or e.text or "").strip().lower()
        if re.fullmatch(rf"{re.escape(group)}s?[:/][\w./-]+", name) or e.role == "cell" and name in (group, group + "s"):
            rows[e.container] = e
    controls = []
    for row in rows:
        mine = [e for e in st.live.elements if e.container == row and e.role in _ROW_CONTROL_ROLES and not e.disabled
                and _first_word(e.name or e.text) in wanted]
        if mine:
            controls.append((row, min(mine, key=lambda e: (e.hidden, wanted.index(_first_word(e.name or e.text))))))
    if not rows or not controls:
        return False
    for row, el in controls:   # (a row already in that state shows no such control: "Start" on a stopped one)
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el), f"Click {el.label!r} in the row of "
                      f"{row[:40]!r}", row=row)
    st.summary.append(f"{verb} every row of {group}")
    st.expect_check(None)
    return True


def _stem(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def row_verb_intent(c: Clause, st: State) -> bool:
    """"pause Wiggle road bikes", "resume checks on the nginx changelog", "recheck PostgreSQL news": the control
    of that record's row whose label is the action ("Pause checks", "UnPause checks", "Recheck")."""
    m = _ROW_VERB.match(c.text.strip())
    if m is None or st.live is None or not st.open_world:
        return False
    if _verb_object_control(c, st) or _every_row_of_group(c, st, m):
        return True
    verb = m.group("verb").lower()
    if m.group("part"):
        verb = _PHRASAL.get((verb, m.group("part").lower()), "")
        if not verb:
            return False
    own_word = verb not in _VERB_WORDS and c.act in _OWN_WORD_ACTS and verb not in _NOT_OWN_WORD
    if verb not in _VERB_WORDS and c.act is not Act.NONE and not own_word:
        return False   # "edit X", "delete X": their own intents, with their checks
    if every_row_in_state(st, verb, m.group("rec"), control_words(verb), _ROW_CONTROL_ROLES, _first_word):
        return True   # "start whichever encoders aren't running"
    rec = clean(re.sub(r"^(?:the|my|our)\s+", "", m.group("rec").strip(), flags=re.I))
    wanted = control_words(verb)
    rows = grounding.rows(rec, st.live, minimum=0.7)
    if not rows or len(rows) > 1 and rows[1].score >= rows[0].score - 0.05:
        return verb in _SWITCH_WORDS and not st.moved and switch_elsewhere(st, verb, rec, c.text)
    row = rows[0].name
    mine = [e for e in st.live.elements if e.container == row and e.role in _ROW_CONTROL_ROLES and not e.disabled
            and _first_word(e.name or e.text) in wanted
            and (not own_word or " ".join(words(e.name or e.text)) == verb)]   # "Load", never "Load and Print"
    if not mine:
        return row_switch(st, verb, rec, row) or verb in _SWITCH_WORDS and not st.moved \
            and switch_elsewhere(st, verb, rec, c.text)
    # the control named by the verb itself first, shown before hidden (a control a hover shows is still the row's)
    mine.sort(key=lambda e: (e.hidden, wanted.index(_first_word(e.name or e.text)), len(words(e.name or e.text))))
    el = mine[0]
    rest = set(words(el.label)[1:])
    if rest and rest <= set(words(rec)):
        return False   # "Bob Chen lives in Boston": "Bob" begins the name the row's link shows, it is no action
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el), f"Click {el.label!r} in the row of {rec!r}",
                  row=row)
    st.summary.append(f"{verb} {rec}: {el.label}")
    key = st.steps[-1].params.get("row", row)   # the row as the step names it (State keeps a part that stays)
    st.last_object = key if key != row else rec   # "bring up the backup job … it": the name its row shows
    st.expect_check(None)
    return True


# a verb that switches a record off or on, where its row has a switch and no control named for the verb
_SWITCHES_OFF = frozenset({"pause", "suspend", "stop", "disable", "deactivate", "halt", "mute", "silence"})
_SWITCHES_ON = frozenset({"resume", "unpause", "enable", "activate", "start", "unmute"})
# the verbs that say nothing but off or on ("start the backup job" may launch it; "bring up X" may open it): only
# these look beyond the rows shown for the record's switch
_SWITCH_WORDS = frozenset({"pause", "suspend", "disable", "deactivate", "resume", "unpause", "enable", "activate"})


def row_switch(st: State, verb: str, rec: str, row: str) -> bool:
    """"pause etl-pool", "activate api-calls" where the record's row holds one switch and no control the verb
    names: the switch, set off or on (never toggled blind: the state it must end in is said), then checked."""
    assert st.live is not None
    if verb not in _SWITCHES_OFF | _SWITCHES_ON:
        return False
    # an ARIA switch only: a checkbox a kit calls "toggle" is a todo's done box as often as an on/off state
    switches = [e for e in st.live.elements if e.container == row and not e.hidden and not e.disabled
                and e.role == "switch"]
    if len(switches) != 1:
        return False
    on = verb in _SWITCHES_ON
    role = switches[0].role
    st.add(V.SET_CHECKED, {"checked": on, "row": row, "role": role}, f"Switch {rec!r} {'on' if on else 'off'} ({verb})")
    st.summary.append(f"{verb} {rec}: its switch {'on' if on else 'off'}")
    st.last_object = rec
    try:
        st.expect_check(checks.element(st.ctx, row=row, role=role, state="checked" if on else "unchecked"))
    except CannotCheck:
        st.expect_check(None)
    return True


def switch_elsewhere(st: State, verb: str, rec: str, clause: str) -> bool:
    """"pause etl-pool" where no row shows it: on its own page, that page's one switch; else its link opened, or
    the lists looked through for it, and the clause planned again there. Only a record written as a key."""
    from server.planners import record_ids, records
    from server.planners.list_search import key_shaped, seek_record
    from server.planners.state import Defer

    assert st.live is not None
    said = rec.split()
    key = said[0] if said and key_shaped(said[0]) and len(said) <= 3 else ""
    if not key:
        return False
    if record_ids.on_named_record(st, key):
        switches = [e for e in st.live.elements if e.role == "switch" and not e.hidden and not e.disabled
                    and not e.container]
        if len(switches) != 1:
            raise Unplannable(f"the page of {key!r} has no one switch to {verb} it with", key)
        on = verb in _SWITCHES_ON
        el = switches[0]
        params = {"checked": on, "selector": el.selector, "role": "switch"}
        st.add(V.SET_CHECKED, params, f"Switch {key!r} {'on' if on else 'off'} ({verb})")
        st.last_object = key
        st.check(checks.element(st.ctx, selector=el.selector, role="switch", state="checked" if on else "unchecked"))
        return True
    link = records.record_link(st, key)
    if link is not None:
        st.click_live(link, f"Open {link.label!r}")
        raise Defer(key, replace_with=[clause])
    return seek_record(st, key, clause)


_SWITCH_STATE = re.compile(r"^(?:(?:that\s+)?(?:the\s+)?(?P<x>\S.*?)\s+)?(?P<verb>is\s+not|isn['’]?t|are\s+not|aren['’]?t|is|are)\s+"
                           r"(?:still\s+|currently\s+|now\s+)?(?:switched\s+|turned\s+|set\s+to\s+)?"
                           r"(?P<v>on|off|active|inactive|enabled|disabled|paused|unpaused)\s*[?.!]?$", re.I)
_ON_STATES = frozenset({"on", "active", "enabled", "unpaused"})


def switch_check(c: Clause, st: State) -> bool:
    """"database-connections is switched on", "… and is active", "api-calls isn't paused": the one switch of that
    record's row, in the state said (never a column whose header happens to say "Active")."""
    if c.act is not Act.CHECK or st.live is None or not st.open_world:
        return False
    m = _SWITCH_STATE.match(c.rest.strip())
    if m is None:
        return False
    rec = clean(m.group("x") or st.last_object or "")
    rows = grounding.rows(rec, st.live, minimum=0.8) if rec else []
    if not rows or len(rows) > 1 and rows[1].score >= rows[0].score - 0.05:
        return False
    row = rows[0].name
    switches = [e for e in st.live.elements if e.container == row and e.role == "switch" and not e.hidden]
    if len(switches) != 1:
        return False
    on = (m.group("v").lower() in _ON_STATES) != bool(re.search(r"not|n['’]?t", m.group("verb"), re.I))
    st.check(checks.element(st.ctx, row=row, role="switch", state="checked" if on else "unchecked",
                            description=f"Check {rec!r} is switched {'on' if on else 'off'}"))
    st.explicit_check_last = True
    st.last_object = rec
    return True
