"""Acting on what the task names: screens, controls and keys.

One resolution order for "open / go to / click / play / watch X": a screen of
the tree that X names well, a control on the live screen, an element the tree
declares (reached through its screen), then weaker matches. A target found
nowhere is deferred when an earlier step may have changed the screen
(closed loop), and refused with the closest names otherwise.
"""
from __future__ import annotations

import re
from dataclasses import replace

from server.planners import checks, grounding, record_ids
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.language import PRONOUN, Act, Clause, clean, quoted, words, strip_filler
from server.planners.intents_media import pause_intent, play_after_click, play_follow_up, play_from, play_key
from server.planners.intents_rows import open_by_row_link, row_relative, section_control
from server.planners.row_places import ACTION_WORDS, RESULT_NOUN, SIGNATURE, main_list, result_named, results_links, row_items
from server.planners.matching import content_words, find_count, find_keys, find_ordinal
from server.planners.site_search import search_for, search_site, site_search_box, without_leading_kind
from server.planners.page_names import NEIGHBOUR, is_this_page, order_link, same_path
from server.planners.state import ROLES_BY_NAME, Defer, State, Unplannable
from shared import vocabulary as V
from shared.keys import Key
from shared.screen import CLICKABLE_ROLES, ROLE_BUTTON, ROLE_LINK, ROLE_MENUITEM, ROLE_TAB, UIElement

_ROLE_NOUNS = {"button": ROLE_BUTTON, "link": ROLE_LINK, "tab": ROLE_TAB, "menu item": ROLE_MENUITEM,
               "item": "", "option": "", "entry": "", "tile": "", "icon": "", "card": "", "row": ""}
_SCREEN_NOUNS = re.compile(r"\s+(?:screen|page|view|section|menu|area|tab|panel|window|list|table|listing|overview|"
                           r"editor|report)$", re.I)
_URL = re.compile(r"\b(?:https?://\S+|/[\w\-./#?=&%]+)")
_NAMED = re.compile(r"^(?:the\s+)?(?:\w+\s+){0,2}?(?:called|named|titled|labelled|labeled)\s+(.+)$", re.I)
_KINDS = (r"movie|film|show|programme|program|channel|topic|page|table|item|entry|record|row|link|tab|section|episode|"
          r"video|song|article|product|category|user|customer|module|package|class|function|method|keyword|file|"
          r"document|doc|docs|documentation|reference|manual|chapter|post|issue|project|folder|key")
_CATEGORY = re.compile(rf"^(?:the\s+)?(?:{_KINDS})\s+(?=\S)", re.I)
_KIND_AFTER = re.compile(rf"(?<=\S)(?:(?:\s+(?:{_KINDS}))?\s+(?:documentation|docs|doc|reference|manual)|\s+(?:{_KINDS}))$",
                         re.I)   # "the json module", "the csv module documentation"
_ABOUT = re.compile(r"^(?:the\s+)?(?:documentation|docs|doc|page|details|help|info|information|entry|row|record|line)"
                    r"\s+(?:of|for|on|about)\s+"
                    r"(?:the\s+)?(?=\S)", re.I)                      # "the documentation of urllib"
_OWN_PAGE = re.compile(r"(?<=\S)['’]s?\s+(?:documentation|docs|doc|page|details|help|info|information|entry|record|"
                       r"profile|settings)$", re.I)                        # "the string module's documentation"
# the page of one record of a kind, named before ("that job's page", "this ticket's details")
_ONE_RECORDS_PAGE = re.compile(r"^(?:that|this|the|the\s+same)\s+(?P<k>[a-z]+(?<!s))['’]s\s+(?:own\s+)?(?:page|details?|detail\s+page|"
                               r"info|information|record|entry|screen|view)$", re.I)
_GENERIC_OWNER = re.compile(r"(?:site|app|application|page|user|account|module|customer|product|record|item|project|"
                            r"system|device|tv|screen)", re.I)
_LIST_OF = re.compile(r"^(?:the\s+|a\s+)?(?:full\s+|whole\s+|complete\s+)?(?:list|listing|index|overview|table)\s+of\s+"
                      r"(?:all\s+)?(?:the\s+)?(?P<x>[a-z][\w-]*s)(?:\s+(?:in|of|from|under|on)\s+(?:the\s+|our\s+)?"
                      r"(?P<where>[a-z][\w -]{0,30}))?$", re.I)   # "the list of topics", "… of devices in the lab"


_A_TO_Z = re.compile(r"^\W*a\s*(?:-|–|to)\s*z\W*$", re.I)
_INDEX_WORDS = frozenset({"index", "list", "listing", "directory", "overview", "catalog", "catalogue", "all"})


def _index_link(st: State, plural: str) -> str:
    """The link to the whole list of *plural* where no link names them: "Page index", "All pages", an "A - Z"."""
    assert st.live is not None
    kinds = {plural.lower(), plural.lower()[:-1]}
    for e in st.live.elements:
        label = e.name or e.text
        if e.role != ROLE_LINK or e.hidden or not label:
            continue
        said = set(words(label))
        if _A_TO_Z.match(label) or said & kinds and said & _INDEX_WORDS:
            return label
    return ""


def _object(c: Clause) -> tuple[str, str]:
    """The thing a clause names, and a role the tester gave it ("the Save button" → Save, button)."""
    text = quoted(c.rest) or clean(c.rest)
    text = re.sub(r"^(?:on|at|onto|to|into|over to|back to)\s+(?:the\s+)?", "", text, flags=re.I)
    if not re.match(r"^all\s+(?:filter|tab|view|link|button|option)s?$", text, re.I):   # "the All filter" is one
        text = re.sub(r"^(?:all|every|each)\s+(?:of\s+)?(?:the\s+|my\s+)?(?=\w)", "", text, flags=re.I)   # "all the products"
    text = re.sub(r"(?<=\w)\s+ones?$", "", text, flags=re.I)   # "the completed ones": what they are, not "ones"
    role = ""
    for noun, r in _ROLE_NOUNS.items():
        m = re.search(rf"\s+{noun}$", text, re.I)
        if m and len(text) > m.end() - m.start():
            text, role = text[:m.start()].strip(), r
            break
    m = _NAMED.match(text)
    if m:
        text = quoted(m.group(1)) or clean(m.group(1))
    return clean(text), role


_THAT_ONE = re.compile(r"(?:that|this|its|the\s+same)\s+(?:row|one|item|entry|tile|line|channel|programme|program|movie|"
                       r"film|show)", re.I)


def resolve_pronoun(text: str, st: State) -> str:
    if st.last_object and (PRONOUN.fullmatch(text.strip()) or _THAT_ONE.fullmatch(text.strip())):
        return st.last_object
    return text


def location_intent(c: Clause, st: State) -> bool:
    """"from the guide, …" / "on live TV, …" / a bare screen name: be on that screen first."""
    if c.act is not Act.NONE:
        return False
    m = re.match(r"^(?:from|on|in|at|inside|within|via|while on|while in)\s+(?:the\s+)?(?P<x>.+)$|^(?P<y>.+)$",
                 c.text.strip(), re.I)
    phrase = _SCREEN_NOUNS.sub("", (m.group("x") or m.group("y")).strip())
    found = grounding.screens(phrase, st.ctx, minimum=0.7 if m.group("x") else 0.9)
    if not m.group("x"):   # a bare name is a screen only by its own name, not by a keyword of it
        found = [t for t in found if max(grounding.similarity(phrase, t.node.label),
                                         grounding.similarity(phrase, t.node.id.replace("_", " "))) >= 0.9]
    if not found:
        return m.group("x") is not None and _live_place(st, phrase)
    st.goto(found[0].node)
    st.expect_check(None)
    return True


def _live_place(st: State, phrase: str) -> bool:
    """"from the module index, …" on a device with no tree: nothing to do where the page shown is that place (its
    title or main heading says it), else the link to it, opened first."""
    if st.live is None or not st.open_world or st.moved:
        return False
    phrase = re.sub(r"^(?:the|a|an)\s+", "", phrase.strip(), flags=re.I)
    if is_this_page(st, phrase):
        st.summary.append(f"on {phrase} already")
        return True
    links = [t for t in grounding.live_elements(phrase, st.live, roles=frozenset({ROLE_LINK, ROLE_TAB, ROLE_MENUITEM}),
                                                minimum=0.9)
             if not grounding.leaves_the_app(st.live.url, t.live.href)]
    if not links:
        return False
    _click_live_and_expect(st, links[0])
    return True


def press_intent(c: Clause, st: State) -> bool:
    inherits = st.last_act == "press" and c.act in (Act.NONE, Act.SUBMIT) and not c.rest.startswith(("the ", "a "))
    if c.act is not Act.PRESS and not inherits:
        return False
    body = c.rest if c.act is Act.PRESS else c.text
    # "press 'Clear completed' to tidy up the list": what it is for names no key ("up")
    body = re.sub(r"\s+(?:to|so\s+as\s+to|in\s+order\s+to)\s+(?!the\b|a\b|\d)[a-z]+\b.*$", "", body,
                  flags=re.I) or body
    if c.act is Act.PRESS and quoted(body) and not find_keys(quoted(body), st.key_choices()):
        return activate(Clause(f"click {body}", Act.CLICK, body), st)   # "press 'Clear completed'": a control
    chord = re.search(r"\b((?:ctrl|control|shift|alt|cmd|meta|command)\s*\+\s*[\w+]+)", body, re.I)
    if chord and st.has(V.PRESS_SHORTCUT):
        keys = re.sub(r"\bctrl\b", "Control", chord.group(1), flags=re.I).replace(" ", "")
        keys = re.sub(r"\b(cmd|command)\b", "Meta", keys, flags=re.I)
        st.add(V.PRESS_SHORTCUT, {"keys": keys}, f"Press {keys}", moves=True)
        return True
    keys = find_keys(body, st.key_choices())
    if not keys:
        if inherits:
            return False
        from server.planners.intents_media import pause_intent

        if pause_intent(c, st):   # "press pause": the player's own control, pressed until it says so
            return True
        return activate(Clause("click " + body, Act.CLICK, body), st)   # "press the Play button"
    count = find_count(body)
    for i, key in enumerate(keys):
        repeat = count if i == len(keys) - 1 else 1
        params: dict = {"key": key.value}
        if repeat > 1:
            params["repeat"] = repeat
        st.add(V.PRESS_KEY, params, f"Press {key.value}" + (f" {repeat} times" if repeat > 1 else ""))
    st.moved = True
    st.node = None if any(k in (Key.OK, Key.BACK, Key.HOME) for k in keys) else st.node
    typed, st.typed_into_focus = st.typed_into_focus, ""
    if keys == [Key.OK] and typed and st.last_act == "type":
        # "double-click Pay rent, type Pay the landlord and hit enter": the editor takes it, and the row shows it
        try:
            st.expect_check(checks.text_shown(st.ctx, typed))
            return True
        except CannotCheck:
            pass
    st.expect_check(None)
    return True


def back_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.BACK and not (c.act is Act.NAVIGATE and re.fullmatch(r"(?:back|to the previous (?:screen|page))",
                                                                              c.rest.strip().lower())):
        return False
    m = re.match(r"^(?:back\s+)?(?:(?:to|into|onto)\s+)?(?:the\s+)?(?P<x>.+)$", c.rest.strip(), re.I)
    if m and m.group("x").strip() and not re.fullmatch(r"(?:previous|last)\s+(?:screen|page|view)|back|again",
                                                        m.group("x").strip(), re.I):
        # "go back to home": a place, not a key
        try:
            return activate(Clause(f"go to {m.group('x')}", Act.NAVIGATE, f"to {m.group('x')}"), st)
        except Unplannable as exc:
            if not re.match(r"^back\b", c.rest.strip(), re.I) and c.act is not Act.BACK or _here(st, m.group("x")) \
                    or not str(exc).startswith("nothing called"):
                raise   # "go back to the admin home page" on that page: it is here, not the page before
            # "go back to the inbox" where nothing is called so: the screen before is that place
    own = order_link(st, "previous") if not re.search(r"\bback\b", c.text, re.I) else None
    if own is not None:   # "take me to the previous page" on a page with its own Previous: that page, not history
        _click_live_and_expect(st, own)
        return True
    # an app with a remote and a tree goes back with its BACK key; a web page with the browser's history
    if Key.BACK.value in st.key_choices() and (st.ctx.navigation.nodes or not st.has(V.GO_BACK)):
        st.add(V.PRESS_KEY, {"key": Key.BACK.value}, "Go back", moves=True)
    elif st.has(V.GO_BACK):
        st.add(V.GO_BACK, {}, "Go back", moves=True)
    else:
        raise Unplannable("the device has no way to go back")
    st.expect_check(None)
    return True



def neighbour_page(st: State, target: str) -> bool:
    """"go to the next page", "open the page right after it": the page's own link to it, and the page it leads
    to checked by its address's name."""
    m = NEIGHBOUR.match(target.strip())
    if m is None or st.live is None or m.group("q") and not is_this_page(st, m.group("q")):
        return False   # ("the page after "Commands"" where Commands is not the page shown: not this page's Next)
    said = (m.group("b") or m.group("w") or m.group("p")).lower()
    which = "next" if said in ("next", "following", "after") else "previous"
    link = order_link(st, which)
    if link is None and m.group("b"):
        return False   # "click Next": a wizard's button, or whatever else is named so
    if link is None:
        if st.moved and st.open_world:
            raise Defer(target)
        raise Unplannable(f"this page has no link to the {which} page", target)
    _click_live_and_expect(st, link)
    return True


def _here(st: State, place: str) -> bool:
    """A word of *place* names the screen shown (its title, a heading, its address): the place is here."""
    if st.live is None:
        return True   # not seen: never taken for the page before
    texts = " ".join([st.live.title, st.live.url, *(h.label for h in st.live.headings())]).lower()
    return any(len(w) >= 4 and w in texts for w in words(place))


def reload_intent(c: Clause, st: State) -> bool:
    if c.act is not Act.RELOAD:
        return False
    # "refresh the collections": the list's own Refresh (named just so: "Refresh Build" rebuilds a site); "reload",
    # or a refresh of the page itself, is the browser's
    own = [e for e in st.live.elements if e.role in (ROLE_BUTTON, ROLE_LINK) and not e.hidden and not e.disabled
           and words(e.name or e.text) == ["refresh"]] \
        if st.live is not None and not st.moved and c.verb.lower() == "refresh" and words(c.rest) \
        and not re.search(r"\b(?:page|browser|tab|window|site|screen|app)\b", c.rest, re.I) else []
    if len(own) == 1:   # the app's own Refresh: a reload of the browser may lose what the page holds (a sign-in)
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, own[0].label, live=own[0]), f"Click {own[0].label!r}")
        st.expect_check(None)
        return True
    st.add(V.RELOAD, {}, "Reload the page", moves=True)
    st.expect_check(None)
    return True


def url_intent(c: Clause, st: State) -> bool:
    if c.act not in (Act.OPEN, Act.NAVIGATE) or not st.has(V.OPEN_URL):
        return False
    m = _URL.search(c.rest)
    if not m or not re.match(r"^(?:to\s+)?(?:the\s+)?(?:url\s+|address\s+|page\s+)?\S+$", c.rest.strip(), re.I):
        return False
    st.add(V.OPEN_URL, {"url": m.group(0)}, f"Open {m.group(0)}", moves=True)
    st.expect_check(None)
    return True


def pointer_intent(c: Clause, st: State) -> bool:
    """hover / double-click / scroll (to X)."""
    if c.act not in (Act.HOVER, Act.DOUBLE_CLICK, Act.SCROLL):
        return False
    text, role = _object(c)
    text = re.sub(r"^(?:over|on)\s+", "", text, flags=re.I)
    if c.act is Act.SCROLL:
        m = re.fullmatch(r"(?:(?:the\s+)?page\s+)?(up|down)(?:\s+.*)?|(?:to the\s+)?(top|bottom)(?:\s+of the page)?", text.lower())
        if m or not text:
            direction = "up" if (m and (m.group(1) == "up" or m.group(2) == "top")) or "up" in c.low.split()[:2] else "down"
            st.add(V.SCROLL, {"direction": direction, "amount": 5000 if m and m.group(2) else 600},
                   f"Scroll {direction}")
            return True
    command = {Act.HOVER: V.HOVER, Act.DOUBLE_CLICK: V.DOUBLE_CLICK, Act.SCROLL: V.SCROLL_TO}[c.act]
    targets = grounding.live_elements(text, st.live, minimum=0.6)
    if not targets:
        if st.moved:
            raise Defer(text)
        raise Unplannable(f"nothing called {text!r} on the screen", text)
    t = targets[0]
    params = {"text": t.live.name or t.live.text or t.live.hint}
    if t.live.role in ROLES_BY_NAME:
        params["role"] = t.live.role
    st.add(command, params, f"{c.act.value.replace('_', '-').capitalize()} {t.label!r}",
           moves=c.act is Act.DOUBLE_CLICK)
    st.last_object = t.label
    return True


_A_FORM = re.compile(r"(?:the\s+|an?\s+|its\s+)?(?:(?:add|new|create|entry|edit|input)\s+)?form", re.I)
# "the form for a new bookmark", "the new issue form", "the page to add a user", "the bookmark creation dialog"
_NEW_FORM = re.compile(
    r"(?:the\s+|an?\s+)?(?:(?:form|page|screen|dialog|window)\s+(?:for|to)\s+(?:(?:add(?:ing)?|creat(?:e|ing)|mak(?:e|ing)|"
    r"enter(?:ing)?|register(?:ing)?)\s+(?:an?\s+|the\s+)?(?:new\s+)?|(?:an?\s+|the\s+)?new(?:\s+|$))(?P<a>[a-z][\w -]*?)?"
    r"|(?:new|add|create)\s+(?P<b>[a-z][\w -]*?)\s+(?:form|page|screen|dialog|window)"
    r"|(?P<c>[a-z][\w -]*?)\s+(?:creation|entry)\s+(?:form|page|screen|dialog|window))", re.I)


def new_form_noun(raw: str) -> str | None:
    """The kind a phrase asks a new record's form for ("the form for a new bookmark" → "bookmark"), else None."""
    m = _NEW_FORM.fullmatch(raw.strip())
    if m is None:
        return None
    noun = clean(m.group("a") or m.group("b") or m.group("c") or "")
    return "" if noun.lower() in ("one", "record", "entry", "item") else noun


# "bob's user page" is the user bob; "the issues nobody is assigned to" are the unassigned issues
_OWNED_PAGE = re.compile(r"^(?:the\s+)?(?P<x>[\w.@-]+(?:\s+[A-Z][\w-]*)?)['’]s?\s+(?P<k>[a-z]+)\s+"
                         r"(?:page|profile|details|record|entry|card)$")
_NOBODY = re.compile(r"^(?:the\s+|all\s+(?:the\s+)?)?(?P<x>[a-z]+)\s+(?:that\s+|which\s+)?(?:nobody|no one|noone)\s+"
                     r"(?:is|has|was|has been)\s+(?P<v>[a-z]+ed)(?:\s+(?:to|by|on))?$", re.I)


def _loosely_named(raw: str) -> str:
    m = _OWNED_PAGE.match(raw.strip())
    if m:
        return f"the {m.group('k')} {m.group('x')}"
    m = _NOBODY.match(raw.strip())
    if m:
        return f"un{m.group('v').lower()} {m.group('x')}"
    return raw


_ACTIONS = r"edit|editing|change|update|details?|view|history|log|preview|diff"
_PAGE_NOUN = r"(?:page|form|screen|view|dialog|window|tab)"
_ACTION_OF = re.compile(rf"^(?:the\s+)?(?:(?:change|edit|version|revision)\s+(?=history|log))?(?P<a>{_ACTIONS})\s+"
                        rf"(?:{_PAGE_NOUN}\s+(?:of|for)|(?<=history\s)(?:of|for)|(?<=log\s)(?:of|for)|"
                        rf"(?<=preview\s)(?:of|for)|(?<=details\s)(?:of|for)|(?<=diff\s)(?:of|for))\s+(?:the\s+)?(?P<rec>.+)$"
                        rf"|^(?:the\s+)?(?P<rec2>.+?)['’]s?\s+(?:(?:change|edit|version)\s+)?(?P<a2>{_ACTIONS})"
                        rf"(?:\s+{_PAGE_NOUN})?$", re.I)
_PAGE_ACTIONS = {"edit": ("edit", "change", "modify", "pencil"), "editing": ("edit", "change", "modify", "pencil"),
                 "change": ("edit", "change", "modify"), "update": ("edit", "change", "update"),
                 "details": ("view", "details", "show", "eye"), "detail": ("view", "details", "show", "eye"),
                 "view": ("view", "details", "show", "eye"), "history": ("history", "log"), "log": ("log", "history"),
                 "preview": ("preview",), "diff": ("diff", "history", "compare")}


# a control that begins with one of these does something to the record; it opens no page of it
_CHANGING_VERBS = frozenset("clear delete remove erase wipe purge reset drop destroy trash archive stop start restart "
                            "pause resume mute unmute disable enable".split())


def _action_page_of(st: State, raw: str) -> bool:
    """"the edit form for bookmark 7", "the edit page of the Flask tutorial bookmark": the record's own control
    for that action (its row's "Edit Record"), found by its number's address or by the row that shows it."""
    m = _ACTION_OF.match(raw.strip())
    if m is None or st.live is None:
        return False
    said = (m.group("rec") or m.group("rec2")).strip()
    action = (m.group("a") or m.group("a2")).lower()
    ref = record_ids.parse(said)
    controls = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_BUTTON) and not e.disabled]
    if ref is not None:
        mine = [e for e in controls if record_ids.addresses(e.href, ref)]
    else:
        kind = record_ids.KIND_LAST.match(said)
        name = kind.group("x") if kind and not grounding.rows(said, st.live, minimum=0.75) else said
        rows = grounding.rows(name, st.live, minimum=0.7)
        if len(rows) > 1 and rows[1].score >= rows[0].score - 0.05:
            rows = []   # two rows read alike: not this one's
        mine = [e for e in controls if rows and e.container == rows[0].name]
    wanted = _PAGE_ACTIONS[action]
    pick = [e for e in mine if (set(words(" ".join((e.name, e.text, e.hint)))) & set(wanted)
                                or any(f"/{w}" in e.href for w in wanted))
            and not set(words(e.name or e.text)[:1]) & _CHANGING_VERBS]   # "the log of X" is no "Clear Log"
    if not pick:
        return False
    el = pick[0]
    # the row's own control, even where another row's shows and this one's waits for a hover
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.95, el.label, live=el), f"Click {el.label!r} of {said!r}",
                  row=el.container if ref is None else "")
    st.summary.append(f"{action} of {said}")
    st.last_object = said if ref is not None else name
    try:   # the page opened is this record's: it shows its name
        st.expect_check(checks.text_shown(st.ctx, name) if ref is None and action not in ("edit", "editing", "change",
                                                                                            "update") else None)
    except CannotCheck:
        st.expect_check(None)
    return True


_KIND_NAME = re.compile(r"^(?:the\s+)?(?P<k>[a-z]{3,})\s+(?P<x>\S.*)$")
_PARTICLE = re.compile(r"(?:up|out|off|down|over|in|on|away|back|through|around|now|here|there)", re.I)
_NOT_NAMES = {"form", "page", "screen", "list", "tab", "menu", "button", "link", "one", "first", "last", "next",
              "folder", "directory", "section", "group", "category", "view", "project"}


_ABOUT_PAGE_WORDS = frozenset("module modules package documentation docs doc page pages reference api manual details "
                              "info information overview section screen view tab help".split())


def _list_of_kind_first(c: Clause, st: State, target: str) -> bool:
    """"the user bob" on a list of issues that shows bob only in its cells: the list of users first, then bob
    on it. Not when the name is a control here, or this page lists that kind."""
    from server.planners import records
    from server.planners.list_search import on_list_of

    m = _KIND_NAME.match(target.strip())
    if m is None or st.live is None or not st.open_world or m.group("x").lower() in _NOT_NAMES \
            or record_ids.parse(target) is not None:
        return False   # "ticket #2" is opened by its number (record_ids), not looked for by a name "#2"
    kind, name = m.group("k"), m.group("x")
    if grounding.live_elements(target, st.live, roles=frozenset({ROLE_LINK, ROLE_BUTTON, ROLE_TAB}), minimum=0.9):
        return False   # "the balance sheet" is the "Balance Sheet" link, not a sheet on the list of balances
    if _PARTICLE.fullmatch(re.sub(r"\s+(?:page|screen|view|tab|section|menu)$", "", name, flags=re.I)):
        return False   # "the settle up page", "the sign in screen": a phrasal verb's particle, not a name
    if re.fullmatch(r"(?:table|list|listing|page|screen|view|tab|section|menu|grid|report|overview)"
                    r"(?:\s+(?:under|in|on|of|from|at|inside|within)\s+.+)?", name, re.I):
        return False   # "the deliveries table", "the class list under Administration": a list named with its kind of
        # screen (and where it is), not a record "table"
    if set(words(name)) <= _ABOUT_PAGE_WORDS or re.match(r"(?:function|method|class|module|package|attribute|property|"
                                                          r"variable|constant|key)s?(?:$|\s+(?:of|for|in|on|under)\b)",
                                                          name, re.I):
        return False   # "the csv module documentation", "its encode method": the name, said with its kind
    if re.search(r"(?:ed|ing)$", kind) or re.fullmatch(r"[a-z]+s", name) or re.match(
            r"(?:about|on|for|with|from|in|at|by|that|which|who|whose|where|of|to|called|named|titled)\b", name, re.I):
        return False   # "the unassigned issues": a view of a list; "the ticket about …": a description
    if on_list_of(st, kind) or grounding.live_elements(name, st.live, roles=frozenset({ROLE_LINK, ROLE_BUTTON, ROLE_TAB}),
                                                       minimum=0.85):
        return False
    listing = records.entity_link(st, kind)
    if listing is None or listing.score < 0.75:
        return False
    st.click_live(listing, f"Open {listing.label!r} to find {name!r}")
    raise Defer(name, replace_with=[f"{'play' if c.act is Act.PLAY else 'open'} {name}"])


_QUALIFIED = re.compile(r"^(?:the\s+|all\s+(?:the\s+)?)?(?P<x>[a-z][\w-]*)\s+(?P<k>[a-z]{3,}s)$", re.I)


_ALL_OF = re.compile(r"^(?:me\s+)?(?:all|every)\s+(?:of\s+)?(?:the\s+|my\s+|our\s+)?(?P<k>[a-z]{3,}s)$", re.I)


def _all_view(st: State, said: str) -> bool:
    """"show all todos" on a list that offers views ("All | Active | Completed"): its "All" view, not a click on
    whatever else names the kind (the page's heading "todos")."""
    from server.planners.list_search import on_list_of

    m = _ALL_OF.match(clean(said))
    if m is None or st.live is None or not on_list_of(st, m.group("k")):
        return False
    kind = {m.group("k").lower(), m.group("k").lower().rstrip("s")}
    views = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_TAB, ROLE_BUTTON) and not e.hidden
             and "all" in words(e.name or e.text) and set(words(e.name or e.text)) <= {"all", "show", "view"} | kind]
    if len({(e.href, e.name or e.text) for e in views}) != 1:
        return False
    _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 0.9, views[0].label, live=views[0]))
    return True


def _view_of_list(st: State, target: str) -> bool:
    """"the unassigned issues" on the list of issues: the link that says "unassigned" ("Show Unassigned")."""
    from server.planners.list_search import on_list_of

    m = _QUALIFIED.match(target.strip())
    if m is None or st.live is None or not on_list_of(st, m.group("k")):
        return False
    views = [e for e in st.live.elements if e.role in (ROLE_LINK, ROLE_TAB) and not e.hidden and not e.selected
             and m.group("x").lower() in words(e.name or e.text) and len(words(e.name or e.text)) <= 3]
    if len({e.href for e in views}) != 1:
        return False
    _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 0.9, views[0].label, live=views[0]))
    return True


def _a_record_shown(st: State) -> bool:
    """The form on screen holds a record already (its text fields have values): an edit form, not a new one."""
    from server.planners import records

    return any(f.value.strip() for f in records.form_fields(st) if f.role == "textbox")


def _on_the_form(st: State, raw: str) -> bool:
    """"take me to the form" while a record's form is shown (its fields, then its submit button): it is here."""
    from server.planners import records

    from server.planners.list_search import on_list_of

    new_of = new_form_noun(raw)
    if st.live is None or not (_A_FORM.fullmatch(raw.strip()) or new_of is not None):
        return False
    if new_of is not None and (_a_record_shown(st) or new_of and not on_list_of(st, new_of)):
        return False   # "the form for a new user" is neither issue 3's edit form nor the new bookmark's
    save = records.save_button(st)
    if save is None:
        return False
    order = {id(e): i for i, e in enumerate(st.live.elements)}
    fields = [e for e in records.form_fields(st) if e.selector and order[id(e)] < order.get(id(save.live), -1)]
    if len(fields) < 2:
        return False
    # the field just above its submit button is the form's own, not a box of the page's header
    st.check(checks.element(st.ctx, selector=fields[-1].selector, description="Check the form is shown"))
    st.explicit_check_last = True
    return True


# a name as records have them: capitalised words or numbers, joined by a few small words ("Emma Schmidt",
# "Order 1042", "Bank of Lyon"), or quoted; not a phrase with a name in it ("an email to Alice Martin")
_ROW_OF = re.compile(r"(?:^|\bthe\s+)(?P<x>(?-i:[A-Z0-9\"'“])[^\s]*(?:\s+[^\s]+)*?)\s+(?:row|record|entry|line)$", re.I)


def _record_named(st: State, target: str, said: str) -> str:
    """The record *target* names, to look for in the app's lists: a name as records have them ("Emma Schmidt"),
    any name said with a record's kind (*said*: "see the Basil row"), or a name said with the kind of record a list
    of the app holds ("the SQLite documentation bookmark", where the app lists bookmarks); "" when it names none."""
    row_of = _ROW_OF.match(target) or _ROW_OF.search(clean(said))
    if row_of:
        return row_of.group("x")
    from server.planners import records
    from server.planners.list_search import on_list_of, record_shaped

    kind = record_ids.KIND_LAST.match(target)
    if kind and re.match(r"[A-Z0-9\"'“]", kind.group("x")) and not _SCREEN_NOUNS.search(" " + kind.group("k")) \
            and (on_list_of(st, kind.group("k")) or records.entity_link(st, kind.group("k")) is not None):
        return kind.group("x")
    return target if record_shaped(target) else ""


# a row said by its place in the list
_PLACE_WORD = re.compile(r"\b(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|\d+(?:st|nd|rd|th))\b", re.I)


def _names_more(said: str, label: str) -> bool:
    """*said* is a name whose first words, capitalised, tell it from *label*, which says only its last words:
    "Async Commands" is not the link "Commands", nor "Hidden Options" the heading "Options". (Words said after
    the label's, "Save Changes" for "Save", are often a kind and stay a match.)"""
    said_words = re.sub(r"^(?:the|a|an)\s+", "", said.strip(), flags=re.I).split()
    own = label.split()
    if not own or len(said_words) <= len(own) or [w.casefold() for w in said_words[-len(own):]] != \
            [w.casefold() for w in own]:
        return False
    return any(re.match(r"(?-i:[A-Z][a-z])", w) for w in said_words[:-len(own)])


# pages every app has, which it links rather than lists ("the Settings page" is no record to search for)
_APP_PAGES = frozenset("settings home profile account dashboard admin help about login logout search preferences "
                       "overview reports inbox notifications users".split())


def _a_result_found(st: State, raw: str, verb: str) -> None:
    """"search for robo and choose the result Robo Pals": what a search finds is on no screen known before, even in
    a tree that knows every screen; a name no screen has is picked from the results, once they are shown."""
    name = re.sub(r"^(?:the\s+)?(?:search\s+)?(?:result|hit|match|entry)\s+(?:called\s+|named\s+)?", "", raw.strip(),
                  flags=re.I).strip("\"'“” ")
    if not name or name.lower() in ("first result", "the first result") or grounding.screens(name, st.ctx, minimum=0.85) \
            or grounding.tree_elements(name, st.ctx, minimum=0.85):
        return
    raise Defer(name, replace_with=[f'{verb} "{name}"'])


# "move old_test.gcode into archive", "move the Contact page under About Us": a thing put into another, never a place
_MOVE_INTO = re.compile(r"^(?!(?:to|up|down|left|right|back|forward|on|over|ahead|along)\b)(?P<x>.+?)\s+(?:into|in\s+to|"
                        r"inside|under(?:neath)?|below|beneath|onto|to\s+(?:the\s+)?(?:folder|section|list|category))\s+"
                        r"(?P<y>\S.*)$", re.I)


def activate(c: Clause, st: State) -> bool:
    """open / go to / click / select / play / watch X."""
    if c.act not in (Act.NAVIGATE, Act.OPEN, Act.CLICK, Act.PLAY, Act.SET, Act.TUNE, Act.NONE):
        return False
    moved = _MOVE_INTO.match(c.rest.strip()) if (c.verb or "").lower() in ("move", "drag", "drop") else None
    if moved:   # a thing moved into another: no intent before found the control that moves it; opening it is not it
        raise Unplannable(f"nothing here moves {moved.group('x')!r} into {moved.group('y')!r}: name the control that "
                          f"does (e.g. 'click Move in the row of …')", c.text)
    raw, role = _object(c)
    if st.last_act == "search" and (PRONOUN.fullmatch(raw.strip()) or re.fullmatch(r"(?:the\s+)?(?:top\s+)?(?:result|hit|match)",
                                                                                 raw.strip(), re.I)):
        raw = "the first result"   # "search for X and open it": the result of the search
    raw = _loosely_named(resolve_pronoun(raw, st))
    one = _ONE_RECORDS_PAGE.match(c.rest.strip())
    if one:   # "that job's page": one job's own page, never the list of jobs
        kind = one.group("k").lower()
        if not st.last_object or kind not in words(st.last_object) or kind + "s" in words(st.last_object):
            # (what was named last is that job only where it was said to be one: "the nightly encode job")
            raise Unplannable(f"which {one.group('k')}? {c.rest.strip()!r} is the page of one {one.group('k')}: say "
                              "its name", one.group("k"))
        raw = st.last_object
    if st.last_object and _THAT_ONE.fullmatch(c.rest.strip()):
        raw = st.last_object   # "…, then select that row": the one the clause before named
    if st.last_act == "search" and st.steps and raw and c.act in (Act.OPEN, Act.CLICK, Act.PLAY):
        _a_result_found(st, raw, c.verb or "open")
    if c.act is Act.SET:
        m = re.match(r"^(?:over\s+)?to\s+(.+)$", c.rest.strip(), re.I)   # "switch to the guide"
        if not m:
            return False
        raw = clean(m.group(1))
    if c.act is Act.NONE:
        return False
    if raw and st.last_object and re.match(r"^(?:on\s+)?(?:its|their|his|her)\s+", c.rest.strip(), re.I):
        raw = f"{raw} next to {st.last_object}"   # "hover over buy milk and click its delete button"
    new_of = new_form_noun(raw) if raw and st.live is not None else None
    if new_of is not None:   # "the form for a new bookmark": here already, or the control that opens it
        from server.planners.intents_records import open_adder
        if _on_the_form(st, raw) or open_adder(st, new_of):
            return True
    if raw and c.act in (Act.OPEN, Act.NAVIGATE, Act.CLICK) and neighbour_page(
            st, re.sub(r"^(?:on\s+)?(?:to|into|onto)\s+", "", c.rest.strip(), flags=re.I)):
        return True
    if raw and (_action_page_of(st, raw) or _list_of_kind_first(c, st, raw) or row_relative(st, raw)
                or section_control(st, raw, c.verb)):
        return True
    # "the members' rows", "Dune's records": the rows of that list
    whose = re.match(r"^(?:the\s+)?(?P<x>.+?)(?:'s|’s|'|’)\s+(?P<r>rows|records|entries|data|contents?|items)$", raw or "", re.I)
    if whose:
        raw = f"{whose.group('r')} of {whose.group('x')}"
    # "all the books", "the rows in loans": the records themselves, not only the list's page
    records_of = re.match(r"^(?:the\s+)?(?:rows|records|entries|data|contents?|items)\s+(?:in|of|from)\s+(?:the\s+)?(?P<x>.+)$",
                          raw or "", re.I)
    if records_of:
        raw = records_of.group("x")
    wants_records = bool(records_of) or bool(re.match(r"^(?:all|every)\b", clean(c.rest), re.I))
    where = re.match(r"^(?P<a>.+?)\s+(?:from|in|on|under|inside)\s+(?:the\s+)?(?P<b>[\w -]+?)(?:\s+(?:screen|page|section|menu|tab))?$",
                     raw or "", re.I)
    if where and st.ctx.navigation.nodes:   # "play Ocean Giants from the replay": that screen, then the item on it
        place = [t for t in grounding.screens(where.group("b"), st.ctx, minimum=0.85)
                 if grounding.tree_elements(where.group("a"), st.ctx, prefer_node=t.node.id, minimum=0.8)]
        # (a name said before the place, never a split of a screen's own name: "video on demand" is the Movies,
        # not "video" on a screen called "demand")
        shown = grounding.screens(where.group("b"), st.ctx, minimum=0.85) \
            if re.match(r"(?-i:[A-Z0-9\"'“])", where.group("a").strip()) else []
        if place:
            if st.node != place[0].node.id:
                st.goto(place[0].node)
            raw = where.group("a")
        elif shown and st.node != shown[0].node.id:
            # "Robo Pals in the guide": what the tree does not name is read on that screen once it shows
            st.goto(shown[0].node)
            raise Defer(raw, replace_with=[f"{c.verb or 'select'} {where.group('a')}"])
        elif shown:
            raw = where.group("a")
    elif where and st.live is not None and grounding.live_elements(
            where.group("b"), st.live, roles=frozenset({"text", "heading"}), minimum=0.85) \
            and grounding.live_elements(where.group("a"), st.live, roles=CLICKABLE_ROLES, minimum=0.85):
        raw = where.group("a")   # "the class list under Administration": a section of the screen shown
    if not raw:
        if c.act is Act.PLAY:
            return pause_intent(Clause("play", Act.PLAY, ""), st) if st.last_act == "pause" else play_key(st)
        raise Unplannable(f"nothing to {c.act.value} in {c.text!r}")
    raw = _ABOUT.sub("", raw) or raw
    owner = _OWN_PAGE.sub("", raw)
    bare_owner = re.sub(r"^(?:the|a|an|this|my)\s+", "", owner, flags=re.I)
    if owner != raw and bare_owner and not _GENERIC_OWNER.fullmatch(bare_owner) \
            and any(grounding.live_elements(o, st.live, minimum=0.9) or grounding.tree_elements(o, st.ctx, minimum=0.9)
                    for o in {bare_owner, _KIND_AFTER.sub("", bare_owner)} if o):
        raw = owner   # "the string module's documentation": the page of a name shown here
    listed = _LIST_OF.match(raw)
    if listed and st.live is not None and not grounding.live_elements(raw, st.live, roles=CLICKABLE_ROLES, minimum=0.85) \
            and any(e.role in (ROLE_LINK, ROLE_TAB, ROLE_MENUITEM) and listed.group("x").lower() in words(e.name or e.text)
                    for e in st.live.elements if not e.hidden):
        raw = listed.group("x")   # "the list of topics" is the link "Topics", unless a control says "List of topics"
    elif listed and st.live is not None and not grounding.live_elements(raw, st.live, roles=CLICKABLE_ROLES, minimum=0.85):
        index = _index_link(st, listed.group("x"))
        if index:
            raw = index   # "the list of all pages": the wiki's "A - Z", a "Page index" link
    if _on_the_form(st, raw):
        return True
    target_text = _SCREEN_NOUNS.sub("", raw) or raw
    target_text = _without_particle(st, target_text)
    if re.search(r"\s+(?:list|listing|overview|table|section|area)$", raw, re.I) \
            and not target_text.lower().endswith("s"):
        target_text += "s"   # "the movie list" is the movies, not a movie
    wants_screen = c.act is Act.NAVIGATE or bool(_SCREEN_NOUNS.search(raw))
    category_free = _CATEGORY.sub("", target_text) or target_text
    if category_free == target_text:
        category_free = _KIND_AFTER.sub("", target_text) or target_text
    if category_free == target_text:
        category_free = without_leading_kind(st, target_text)   # "the plant Basil" on a page of plants

    ref = None if record_ids.named_whole(st, target_text) else \
        record_ids.parse(target_text) or record_ids.parse(category_free)
    if ref is not None and st.open_world and record_ids.open_record(st, ref):
        return True   # "ticket 2", "order #7": the record with that number, never a name holding the digit
    ordinal = find_ordinal(target_text)
    named_whole = (grounding.tree_elements(category_free, st.ctx, minimum=0.85)
                   or grounding.live_elements(category_free, st.live, minimum=0.85))
    if ordinal is not None and not named_whole and st.live is not None and st.open_world \
            and re.search(r"\bpage(?:\s+of\s+(?:the\s+)?(?:list|results|table))?\s*$", raw.strip(), re.I):
        if re.search(r"to[-\s]last|\blast\s+but|\bfrom\s+the\s+end", c.rest, re.I):
            raise Unplannable("say the page's number ('page 4'): a page counted from the end is not read", "page")
        return _page_of_list(st, ordinal)   # "the second page": of the list's pages, never its second row
    if ordinal is not None and not named_whole and _PLACE_WORD.search(target_text):
        return _ordinal(c, st, target_text, ordinal)

    if _all_view(st, c.rest) or _view_of_list(st, target_text):
        return True
    result = result_named(st, category_free)
    if result is not None:   # on a page of search results, the result that is the thing named
        _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 1.0, result.label, live=result))
        return True
    screen = grounding.screens(target_text, st.ctx)
    live = grounding.live_elements(category_free, st.live, roles=CLICKABLE_ROLES | {"text", "heading", "img", "cell"},
                                   minimum=0.6)
    if category_free != target_text and live:   # "the module index": the link "Module Index", not a cell "INDEX"
        whole = grounding.live_elements(target_text, st.live, roles=CLICKABLE_ROLES, minimum=0.9)
        if whole:
            live = sorted(whole + [replace(t, score=t.score * 0.97) for t in live
                                   if all(t.live is not w.live for w in whole)], key=lambda t: -t.score)
    live = [t for t in live if not _names_more(category_free, t.label) and not _names_more(target_text, t.label)
            and not _RESULTS_HEADER.search(t.label)]   # "213 search results for 'X'" says the query back, opens nothing
    if st.open_world and c.act in (Act.OPEN, Act.CLICK, Act.NAVIGATE) and live:
        # what is opened is a control: a link or button saying it, before a text or heading that says it too
        best = live[0].score
        clickable = [t for t in live if t.live is not None and (t.live.clickable or t.live.href)
                     and t.score >= best - 0.12]
        if clickable and not (live[0].live is not None and (live[0].live.clickable or live[0].live.href)):
            live = clickable + [t for t in live if all(t is not k for k in clickable)]
    if role:
        live = [t for t in live if t.live.role == role] or live
    live = grounding.within_the_app(st.live, live, category_free)   # not "Part of TodoMVC", unless named whole
    if wants_screen and st.open_world:   # "go to settings", "open the settings page": a control, not a paragraph
        live = [t for t in live if t.live is None or t.live.clickable or t.live.role not in ("text", "heading", "cell")]
    if not _SORTING.search(c.text):
        from server.planners.records import in_header_row

        # a table's header cells and sort links name columns: "the channel ticket" is no click on "Ticket"
        live = [t for t in live if t.live is None or not in_header_row(st, t.live)
                or grounding.norm(t.label) == grounding.norm(re.sub(r"^(?:the|a|an)\s+", "", target_text, flags=re.I))]
    if wants_screen and live:   # "open the search page": the link to it, not the search box's button
        nav = [t for t in live if t.score >= live[0].score - 0.001 and t.live is not None
               and t.live.role in (ROLE_LINK, ROLE_TAB, ROLE_MENUITEM)]
        live = nav + [t for t in live if all(t is not n for n in nav)]
    declared = grounding.tree_elements(category_free, st.ctx, prefer_node=st.node)

    if category_free != target_text:   # "the movie X": the whole words first, the name alone a little less
        whole = grounding.tree_elements(target_text, st.ctx, prefer_node=st.node)
        declared = sorted(whole + [replace(t, score=t.score * 0.97) for t in declared], key=lambda t: -t.score)
    if st.open_world:   # a draft's elements hold every row's text: "the orders of X" is not the row X
        declared = [t for t in declared if t.score >= 0.85 or not grounding.unexplained(target_text, t, st.ctx)]
    if screen and declared and (declared[0].element.opens == screen[0].node.id or (
            declared[0].node.id == screen[0].node.id and not declared[0].element.opens
            and grounding.norm(declared[0].element.text or "") == grounding.norm(screen[0].node.label))):
        # an element that only opens the screen named, or the screen's own title on it: go to the screen (goto
        # verifies it), never a click on its heading
        declared = []
    best_screen = screen[0].score if screen else 0.0
    best_live = live[0].score if live else 0.0
    best_declared = declared[0].score if declared else 0.0
    if c.act is Act.PLAY and declared and best_declared >= 0.8:
        best_screen = min(best_screen, 0.79)   # "play X" names a thing to play, not the screen it is on
    if c.act is Act.CLICK and screen and declared and best_declared >= 0.6 \
            and set(words(target_text)) <= set(words(declared[0].element.text or declared[0].element.name)) \
            and max(grounding.similarity(target_text, screen[0].node.label),
                    grounding.similarity(target_text, screen[0].node.id.replace("_", " "))) < 0.9:
        # "hit pause": the control "play pause" says every word; a screen that has "pause" only among its
        # keywords is where the control is, not what is clicked
        best_screen = min(best_screen, best_declared - 0.06)
    if screen and (best_screen >= 0.8 and best_screen >= best_declared - (0.0 if wants_screen else 0.05)
                   or wants_screen and best_screen >= 0.55 and best_screen >= best_live):
        node = screen[0].node
        st.goto(node, always=True)
        st.summary.append(f"go to {node.label}")
        st.last_object = node.label
        st.expect_check(None)   # goto proves its arrival
        return True
    if best_live < 0.85 and st.open_world and st.live is not None:
        from server.planners.filter_builder import condition_filter, flag_condition

        flag = flag_condition(st, raw)
        if flag is not None and condition_filter(st, flag):
            return True   # "show the indoor plants": the list's yes/no column, filtered
    if live and c.act in (Act.OPEN, Act.NAVIGATE) and grounding.is_code_name(category_free) and _inert(st, live[0]) \
            and not declared:
        # "open os.path" where a line only says "key = os.path": words shown, with nothing there to open
        live = [t for t in live if not _inert(st, t)]
        best_live = live[0].score if live else 0.0
    if live and best_live >= max(best_declared, 0.7) - 0.001 and st.moved and st.open_world and best_live < 0.9 \
            and not declared:
        raise Defer(raw)   # a step before changed the screen: a loose match on the one seen before is not taken
    if live and best_live >= max(best_declared, 0.7) - 0.001:
        t = live[0]
        if t.live is not None and t.live.role in ("heading", "text") and not t.live.clickable and st.live is not None:
            from server.planners.intents_control import click_verb_control, verb_control

            verb = verb_control(strip_filler(c.text), st)   # "start a load test": the Start button, not the heading
            if verb is not None and click_verb_control(st, verb):
                return True
        if open_by_row_link(st, t):
            return True
        t = _refuse_ambiguous_row_control(live, target_text)
        here = st.node
        _click_live_and_expect(st, t, asked=category_free)
        if st.expect is None and t.live is not None:
            _expect_as_declared(st, here, t.label)
        if c.act is Act.PLAY:
            play_after_click(st, t.label, [d for d in declared if d.node.id == here and d.score >= 0.8])
        if wants_records and st.open_world:
            st.expect_check(None)
            raise Defer(t.label, replace_with=[f'show the records of "{t.label}"'])
        return True
    if declared and best_declared >= 0.6:
        t = declared[0]
        if st.node != t.node.id:
            st.goto(t.node)
        label = t.element.text or t.element.name
        st.click_declared(t.element, None, f"Select {label}")
        st.summary.append(f"select {label}")
        st.last_object = label
        _expect_after_declared(st, t)
        play_follow_up(c, st, label, t)
        return True
    if _scoped_target(c, st, target_text):   # "the history of Bob Chen": before any partial match
        return True
    if screen:
        st.goto(screen[0].node, always=True)
        st.last_object = screen[0].node.label
        st.expect_check(None)
        return True
    mentioned = live and live[0].score < 0.7 and grounding.is_code_name(category_free)   # "… from the os.path module"
    if live and not mentioned and (live[0].score >= 0.7 or live[0].live is None or live[0].live.role in CLICKABLE_ROLES):
        _click_live_and_expect(st, live[0])   # not a word or two found in a paragraph: no control at all
        return True
    home = _home_link(st, target_text)
    if home is not None:
        _click_live_and_expect(st, home)
        return True
    if _at_home(st, target_text) and st.live is not None and st.live.title:
        st.prove(lambda: checks.page(st.ctx, st.live.title))   # here already: the end state holds, and is proved
        return True
    kind = re.match(rf"^(?:the\s+)?(?P<k>{_KINDS})\s+\S", target_text, re.I) \
        or re.match(r"^(?:the\s+)?(?P<k>(?-i:[a-z]{3,}))\s+\S", target_text, re.I)
    if kind and set(words(target_text[kind.end("k"):])) <= _ABOUT_PAGE_WORDS:
        kind = None   # "the zipfile module reference": zipfile's page, not a "module reference" of kind zipfile
    if kind and st.live is not None and st.open_world:
        from server.planners import records

        # "the ticket about the remote's battery warning": its row's link, when this page lists it
        about = re.sub(r"^(?:the\s+)?[a-z]+\s+(?:about|on|for|called|named|titled|with|regarding|concerning|from|"
                       r"(?:sent|written|posted|created|added|filed|reported|opened)\s+by|by)\s+"
                       r"(?:the\s+|a\s+|an\s+)?(?:subject\s+)?", "", target_text, flags=re.I)
        about = re.sub(r"['’]s\b", "", about)   # "the remote's battery warning" is listed as "Remote battery warning"
        own = records.record_link(st, about) if about != target_text else None
        if own is None and about != target_text:
            own = _link_of_row(st, about)   # "the email with the password reset code": the row says most of it
        if own is None and about != target_text:
            from server.planners.list_search import result_link

            hit = result_link(st, about)   # the app's search results, which no row holds
            own = Target(TargetKind.LIVE_ELEMENT, 0.9, hit.label, live=hit) if hit is not None else None
        if own is not None:
            _click_live_and_expect(st, own)
            return True
        box = site_search_box(st, as_you_type=False) if about != target_text else None
        if box is not None:   # not listed here: the app's own search finds it, the results list it
            search_for(st, about, box)
            raise Defer(about, replace_with=[f"{c.verb or 'open'} {target_text}"])
        # "the topic CLASSES", "the plant Basil": the list of topics / plants first (a link named so)
        listing = records.entity_link(st, kind.group("k"))
        if listing is not None:
            st.click_live(listing, f"Open {listing.label!r}")
            raise Defer(category_free, replace_with=[f"{c.verb or c.text.split()[0]} {category_free}"])
    if st.live is not None and st.open_world and _shown_part(st, target_text):
        return True   # "the Dune book" where Dune is a row here: not the list of books first
    kind_last = re.match(r"^(?:the\s+|all\s+(?:the\s+)?)?(?P<x>\S.*?)\s+(?P<k>(?-i:[a-z]{3,}))$", target_text, re.I)
    if kind_last and st.live is not None and st.open_world:
        from server.planners import records

        # "the TestPlan wiki page", "the active tickets": the list of wikis / tickets first, then the name on it
        listing = records.entity_link(st, kind_last.group("k"))
        qualifier = kind_last.group("x")
        if listing is not None and set(words(qualifier)) <= set(words(listing.label)):
            _click_live_and_expect(st, listing)   # "unassigned issues": the link "Show Unassigned" is that view
            return True
        if listing is not None and not kind_last.group("k").lower().endswith("s") \
                and (grounding.screens(qualifier, st.ctx, minimum=0.7)
                     or any(t.live is not listing.live for t in grounding.live_elements(qualifier, st.live, minimum=0.8))):
            # "the TV guide" is the guide, not an item "TV" of it: "TV" names a screen or control of its own
            _click_live_and_expect(st, listing)
            return True
        if listing is not None:
            st.click_live(listing, f"Open {listing.label!r}")
            # a plural kind names a list ("the active tickets"); a singular one, one item of it (TestPlan)
            rest = target_text if kind_last.group("k").lower().endswith("s") else kind_last.group("x")
            rest = re.sub(r"^(?:the\s+|all\s+(?:the\s+)?)", "", rest, flags=re.I)
            raise Defer(rest, replace_with=[f"{c.verb or 'open'} {rest}"])
        if listing is None and not kind_last.group("k").lower().endswith("s"):
            own = records.record_link(st, qualifier)   # "the invoice email": the row link "Invoice for November"
            if own is not None and sum(e.role == ROLE_LINK and e.label == own.label for e in st.live.elements) == 1:
                # one such link: a value many rows link to ("beta", a milestone) is no record of this kind
                _click_live_and_expect(st, own)
                return True
    if st.moved and (st.screen is not None or st.open_world):
        raise Defer(target_text)
    # "the settings page": a page of the app, which it links, not a thing to search for; "the TestPlan page", "the
    # Summer Reading page": a page written as a name (a wiki's, a site's), which the search finds
    named_page = bool(re.search(r"[a-z][A-Z]|\d|[\"'“]|[A-Z]\w*\s+[A-Z]", target_text)) or bool(
        re.fullmatch(r"(?:the\s+)?[A-Z][a-z]\w+", target_text.strip()) and target_text.strip().lower() not in _APP_PAGES)
    if (named_page or not _SCREEN_NOUNS.search(raw)) and search_site(c, st, target_text):
        return True
    name = _record_named(st, target_text, c.rest)
    if name and st.open_world and (not wants_screen or named_page) and c.act in (Act.OPEN, Act.NAVIGATE):
        from server.planners.list_search import seek_record

        if seek_record(st, name, c.text):   # "open Emma Schmidt": a record on one of the app's lists
            return True
    if wants_screen and not st.open_world:
        names = ", ".join(n.label for n in st.ctx.navigation.nodes)
        raise Unplannable(f"there is no {target_text!r} screen on {st.ctx.userinterface}; its screens are: {names}")
    if st.live is not None and st.open_world and not st.moved and c.act is Act.CLICK and len(words(target_text)) <= 3:
        from server.planners import records

        menu = records.more_menu(st)
        if menu is not None:   # "click delete" where the page keeps its actions behind "more" (made when opened)
            st.click_live(menu, f"Open {menu.label!r} to find {target_text!r}")
            raise Defer(target_text, replace_with=[c.text])
    raise Unplannable(f"nothing called {target_text!r} on any screen of this device", target_text)


def _link_of_row(st: State, said: str) -> Target | None:
    """The one link of the one row whose words are most of *said* (its other words say what the record holds)."""
    rows = grounding.rows(said, st.live, minimum=grounding.BY_WORDS)
    if len(rows) != 1 or st.live is None:
        return None
    links = [e for e in st.live.elements if e.container == rows[0].name and e.role == ROLE_LINK and not e.hidden
             and e.href and not grounding.stays_on_page(e.href)]
    if len(links) != 1:
        return None
    return Target(TargetKind.LIVE_ELEMENT, rows[0].score, links[0].label, live=links[0])


def _without_particle(st: State, target: str) -> str:
    """"settle up" where the screen's control is "Settle", "sign in" where it is "Sign In": the control named by
    the phrasal verb's own word, when nothing is named by the whole; else *target* unchanged."""
    m = re.match(r"^(?P<x>.+?)\s+(?P<p>\w+)$", target.strip())
    if m is None or st.live is None or not _PARTICLE.fullmatch(m.group("p")):
        return target
    if grounding.live_elements(target, st.live, roles=CLICKABLE_ROLES, minimum=0.85):
        return target
    return m.group("x") if grounding.live_elements(m.group("x"), st.live, roles=CLICKABLE_ROLES, minimum=0.9) else target


_SORTING = re.compile(r"\b(?:sort|sorted|sorting|column|header|order\s+by)\b", re.I)
_SCOPE = re.compile(r"^(?P<a>.+?)\s+(?:of|for|in|from|on|inside|within)\s+(?:the\s+|a\s+)?(?P<b>.+)$", re.I)
_CONTAINER_NOUNS = re.compile(r"\s+(?:table|list|page|screen|section|tab)$", re.I)


def _scoped_target(c: Clause, st: State, text: str) -> bool:
    """"the insert form for members", "the history of Bob Chen": open B first, then A on the screen it shows."""
    m = _SCOPE.match(text)
    if not m or st.live is None:
        return False
    inner = _CONTAINER_NOUNS.sub("", m.group("a")).strip()
    inner = re.sub(r"\s+(?:form|page|tab|view|screen)$", "", inner, flags=re.I) or inner
    outer = _CONTAINER_NOUNS.sub("", clean(m.group("b"))).strip()
    outer = re.sub(r"^(?:[a-z]+\s+)(?=[A-Z])", "", outer)   # "the customer Bob Chen" → Bob Chen
    found = grounding.live_elements(outer, st.live, roles=CLICKABLE_ROLES, minimum=0.85)
    found = [t for t in grounding.within_the_app(st.live, found, outer) if t.live.role in ROLES_BY_NAME or t.live.clickable]
    if not found:
        return False
    st.click_live(found[0], f"Open {found[0].label!r}")
    if inner.lower() in ("form", "page", "screen", "view", "tab", "the form", "the page"):
        st.expect_check(None)   # "the form for a new ticket": what it opened is that form
        return True
    raise Defer(outer, replace_with=[f"open {inner}"])


_HOME_WORDS = {"home", "main", "start", "index", "dashboard", "landing", "front", "root", "admin", "overview"}


def _refuse_ambiguous_row_control(live: list[Target], target_text: str) -> Target:
    """The control to click, *live*'s first; refused for "click delete" where every row has its own Delete: which
    row is not said, and a guess acts on a record the tester did not name (a row deleted instead of a column).
    Links of one name in several lists are no such rows where one leads to a page of its own and the others to
    a part of other pages ("Options" of a contents list: options.html, and parameters.html#options)."""
    t = live[0]
    if t.live is None or not t.live.container:
        return t
    same = [o for o in live if o.live is not None and grounding.norm(o.label) == grounding.norm(t.label)]
    rows = {o.live.container for o in same if o.live.container}
    alone = any(not o.live.container for o in same)
    pages = [o for o in same if o.live is not None and o.live.role == ROLE_LINK and o.live.href and "#" not in o.live.href]
    if len(rows) > 1 and not alone and len(pages) == 1 and all(
            o.live is not None and (o.live.role == ROLE_LINK and o.live.href or not o.live.clickable) for o in same):
        # (a list item that only holds the link's words is no control of its own)
        return pages[0]
    if len(rows) > 1 and not alone:
        raise Unplannable(f"{len(rows)} rows each have {t.label!r}: say which one (e.g. '{target_text} "
                          f"in the row of …')", target_text)
    return t


def _shown_part(st: State, target_text: str) -> bool:
    """"the Electricity bill", "the project settings": what the screen shows of the phrase, less a word of
    kind or context; a row's own (view/edit) link, or a control named so."""
    from server.planners import records

    el = records.shown_part(st, target_text)
    if el is None:
        return False
    name = el.name or el.text
    own = records.record_link(st, name)
    if own is not None:
        _click_live_and_expect(st, own)
        st.last_object = name
        return True
    if el.role in grounding.ACTIONABLE:
        _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el))
        return True
    return False


def _names_home(text: str, kinds: set[str]) -> bool:
    """*text* says nothing but a home page of one of *kinds* ("the home page", "the main screen")."""
    ws = set(words(text))
    return bool(ws) and ws <= _HOME_WORDS | {"page", "screen"} and bool(ws & kinds)


def _index_free(path: str) -> str:
    """A path with its folder's index page as the folder ("/index.html" is "/")."""
    return re.sub(r"(?<=/)index\.html?$", "", path)


def _at_home(st: State, text: str) -> bool:
    """*text* names the app's home page ("the home page") and the page shown is its root (or root index page)."""
    if st.live is None or not st.live.url or not _names_home(text, {"home", "main", "start", "index"}):
        return False
    from urllib.parse import urlparse

    at = urlparse(st.live.url)
    if at.query or at.fragment.startswith(("/", "!")):
        return False   # "/#/settings", "?page=reports": a view of the root, not its home
    return _index_free(at.path or "/") == "/"


def _home_link(st: State, text: str) -> Target | None:
    """"the home page", "the admin home": the link back to the app's root (its brand or Home link)."""
    if st.live is None or not _names_home(text, {"home", "main", "start", "dashboard", "index"}):
        return None
    from urllib.parse import urljoin, urlparse

    here = urlparse(st.live.url)
    root = "/" + here.path.strip("/").split("/")[0] + "/" if here.path.strip("/") else "/"

    def path_of(href: str) -> str | None:
        """The path a link leads to in this app (None when it leaves it), an index page as its folder."""
        to = urlparse(urljoin(st.live.url, href))
        if here.netloc and to.netloc != here.netloc:
            return None   # "Powered by Sphinx": another site's home is not this app's
        if (to.path, to.query) == (here.path, here.query) and to.query:
            return None   # "index.php?page=reports" on that page: this page, not the home
        return _index_free(to.path)

    links = [e for e in st.live.elements if e.role == "link" and not e.hidden and e.href and not e.href.startswith("#")
             and (e.name or e.text) and path_of(e.href) is not None]
    named = next((e for e in links if set(words(e.name or e.text)) & {"home", "start", "dashboard"}), None)
    # else the first link to the app's root, in page order (the brand link comes before "view site")
    pick = named or next((e for e in links if path_of(e.href) in ("/", root, root.rstrip("/"))), None)
    return Target(TargetKind.LIVE_ELEMENT, 0.8, pick.label, live=pick) if pick is not None else None


def _inert(st: State, t: Target) -> bool:
    """A shown text nothing opens: a cell, a line or a heading no handler makes clickable, in no row with a link
    of its own (a row's link opens the record its plain cells show)."""
    el = t.live
    if el is None or el.clickable or el.role not in ("cell", "text", "row", "heading", "term"):
        return False
    return st.live is None or not el.container or not any(
        e.container == el.container and e.role == ROLE_LINK and not e.hidden for e in st.live.elements)


# what a link to the page after or before this one says instead of that page's name
_ORDER_WORDS = frozenset({"next", "previous", "prev", "older", "newer", "page", "continue", "forward"})


def _click_live_and_expect(st: State, t: Target, asked: str = "") -> None:
    """Click *t*, and expect the page it opens to be named as the tester asked (*asked*, when the clicked
    label only resembles it: "open json" that clicked "_json" must not pass on the _json page)."""
    el = t.live
    if el is not None and not el.clickable and not el.href and st.live is not None:
        # a text that names something ("class Email(Validator):") opens nothing: the link that names it does (the
        # docs' "Email", to #Email)
        own = SIGNATURE.match((el.name or el.text).rstrip(":"))
        said = (el.name or el.text).rstrip(":")[own.start("n"):] if own else (el.name or el.text)
        said = re.split(r"[(\s]", said.strip(), maxsplit=1)[0]
        links = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and e.href
                 and (e.name or e.text).strip() == said and said]
        if links:
            el = links[0]
            t = Target(TargetKind.LIVE_ELEMENT, t.score, el.label, live=el)
    url_before = st.live.url if st.live is not None else ""
    st.click_live(t, f"Click {t.label!r}" + (f" ({el.role})" if el.role else ""))
    st.summary.append(f"click {t.label}")
    st.last_object = t.label
    expect = None
    name = grounding.bare_label(el.name or el.text) or el.name or el.text   # "json (package)" opens json's page
    # a search result's code signature ("def csv.reader(unknown):", "class csv.DictWriter"): the name it documents
    sig = SIGNATURE.match(name.rstrip(":"))
    if sig and re.fullmatch(r"\S*", name.rstrip(":")[sig.end():]):
        name = name.rstrip(":")[sig.start("n"):]
    stem = re.sub(r"\.(?:html?|php|aspx?|jsp)$", "", (el.href or "").split("#")[0].split("?")[0].rstrip("/")
                  .rsplit("/", 1)[-1]).lower()
    if (not asked or set(content_words(asked)) <= set(content_words(name))) and len(words(name)) > 1 \
            and stem in words(name) and not grounding.is_code_name(name):
        name = stem   # "Module Index" → index.html, a page that calls itself "Module List": its address's word
    if set(words(name)) <= _ORDER_WORDS and re.fullmatch(r"[a-z][a-z-]{2,}", stem) and not same_path(st, el.href):
        name = stem.replace("-", " ")   # "next" (to arguments.html): the page it leads to is named by its address
    if asked and " ".join(asked.lower().split()) != " ".join(name.lower().split()) \
            and re.sub(r"[\W_]+", "", asked.lower()) == re.sub(r"[\W_]+", "", name.lower()):
        name = asked   # alike but not the same: the page must be the one asked for
    try:
        if el.role in (ROLE_LINK, ROLE_TAB, ROLE_MENUITEM) and name and checks.has_check(st.ctx, V.WAIT_FOR_PAGE) \
                and not grounding.stays_on_page(el.href) and len(name) <= 60 and content_words(name) \
                and not set(words(name)) & ACTION_WORDS:
            expect = checks.page(st.ctx, name)
        elif el.href and re.fullmatch(r"#[A-Za-z][\w.:-]*", el.href) and checks.has_check(st.ctx, V.WAIT_FOR_PAGE) \
                and el.href[1:] not in url_before:
            # a place on the page (a docs page's "#Email"): the address names it once it is gone to
            expect = checks.page(st.ctx, el.href[1:])
    except CannotCheck:
        expect = None
    st.expect_check(expect)


# the header of a page of search results, which says the query back ("213 search results for 'load'")
_RESULTS_HEADER = re.compile(r"\b(?:search\s+)?(?:results?|matches|hits)\s+(?:for|matching)\s+[\"'“‘]|^\d+\s+(?:search\s+)?"
                             r"(?:results?|matches|hits)\b", re.I)


# and a control that starts something ("Play" opens the player, which shows "Pause")
_DOING_WORDS = ACTION_WORDS | {"play", "watch", "start", "resume", "pause", "stop", "go", "ok", "continue", "begin"}


def _expect_as_declared(st: State, node_id: str | None, label: str) -> None:
    """A row of the screen shown, clicked by what it says ("4 Kids Planet Robo Pals 20:00"), that holds the text
    of one element the tree declares there which opens a screen ("Kids Planet", opens Live TV): that screen, and
    the element's text shown on it, as if the element had been selected."""
    node = st.node_info(node_id) if node_id else None
    if node is None:
        return
    said = set(words(label))
    held = [e for e in node.elements if e.opens and not e.many and (e.text or e.name)
            and set(words(e.text or e.name)) <= said]
    if len(held) != 1:
        return
    st.node = held[0].opens
    _expect_after_declared(st, Target(TargetKind.TREE_ELEMENT, 1.0, held[0].text or held[0].name, element=held[0],
                                      node=node))


def _expect_after_declared(st: State, t: Target) -> None:
    """After selecting a declared element that opens a screen, that screen shows the element's text.

    A draft tree knows better: the screen an element opens has its own title (the explorer named the
    element "title"), and a link such as "View and edit SQL" is not what the editor it opens shows.
    """
    el = t.element
    st.expect_check(None)
    opened = st.node_info(el.opens) if el.opens and st.open_world else None
    title = next((e.text for e in opened.elements if e.name == "title" and e.text), "") \
        if opened is not None and not opened.param else ""
    if title:
        try:
            st.expect_check(checks.text_shown(st.ctx, title))
            return
        except CannotCheck:
            pass
    if el.opens and el.text and not el.many and not set(words(el.text)) & _DOING_WORDS:
        # where the screen it opens declares what shows the item (a banner, a title with no words of its own),
        # the item is read there: its name in the row clicked would pass if the click did nothing
        target = st.node_info(el.opens)
        shows = next((e for e in target.elements if e.selector and not e.text and not e.many
                      and set(words(e.name)) & {"banner", "title", "heading", "name"}), None) if target else None
        try:
            st.expect_check(checks.element(st.ctx, selector=shows.selector, text=el.text,
                                           description=f"Check {el.text} is shown") if shows is not None
                            else checks.text_shown(st.ctx, el.text))
        except CannotCheck:
            pass


def _page_of_list(st: State, index: int) -> bool:
    """The pager's link to page *index* + 1 ("2" beside "1" and "›"), outside the list's rows."""
    assert st.live is not None
    if st.moved:
        raise Defer(f"page {index + 1}")   # the pager of the list the steps before lead to
    numbers = [e for e in st.live.elements if e.role == ROLE_LINK and not e.hidden and re.fullmatch(r"\d{1,3}", e.label)
               and (not e.container or e.container == e.label)]
    # the pager: the run of links numbered one after another from 1 ("1 2 3"), never a lone badge ("3" new messages)
    pager: list[UIElement] = []
    for e in numbers:
        if int(e.label) == len(pager) + 1:
            pager.append(e)
    if index < 0:
        if len(pager) < 2:
            raise Unplannable("the list shows no numbered pages", "page")
        pick = pager[-1]
    else:
        number = index + 1
        if number > len(pager) or (number > 1 and len(pager) < 2):
            raise Unplannable(f"the list has no page {number} here: it fits on fewer pages, or shows no pager",
                              f"page {number}")
        pick = pager[number - 1]
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, pick.label, live=pick), f"Go to page {pick.label}")
    st.expect_check(None)
    return True


def _ordinal(c: Clause, st: State, text: str, index: int) -> bool:
    noun = " ".join(w for w in content_words(text) if w not in {"first", "second", "third", "fourth", "fifth",
                                                                "last", "1st", "2nd", "3rd"} and not w.isdigit())
    declared = grounding.tree_elements(noun, st.ctx, prefer_node=st.node, many=True) if noun else []
    if declared:
        t = declared[0]
        if st.node != t.node.id:
            st.goto(t.node)
        query = st.last_object
        st.click_declared(t.element, index, f"Select the {text}")
        st.expect_check(None)
        if c.act is Act.PLAY and t.element.opens:
            play_from(st, t.element.opens, query)   # "search for X and play it": X must be what plays
        elif c.act is Act.PLAY and query:
            # the result opens a screen the tree does not name: play there, and prove X is what plays
            raise Defer(text, replace_with=["click play", f'check "{query}" is shown'])
        st.last_object = query or text
        return True
    if noun and st.open_world and st.live is not None:
        from server.planners import records
        from server.planners.list_search import go_to_list, on_list_of

        # "the second customer": of the list of customers, not the second thing of whatever list is shown
        if records.entity_link(st, noun) is not None and not on_list_of(st, noun):
            return go_to_list(st, noun, [c.text])
    live = st.live
    if live is not None and st.open_world and st.last_act == "search" and st.steps:
        raise Defer(text)   # "search for X and open the first result": of the results, once they are shown
    results = results_links(live) if live is not None and RESULT_NOUN.search(noun) else []
    if results:
        pick = results[index] if -len(results) <= index < len(results) else None
        if pick is None:
            raise Unplannable(f"there are only {len(results)} results on the screen")
        _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 1.0, pick.label, live=pick))
        return True
    if live is not None:
        items = row_items(live)
        containers = main_list(items)
        if containers:
            pick = containers[index] if -len(containers) <= index < len(containers) else None
            if pick is None:
                raise Unplannable(f"there are only {len(containers)} items on the screen")
            in_row = [e for e in items if e.container == pick]
            # the item's own link (its name), not its selection box or its Edit / Delete controls
            first = next((e for e in in_row if e.role == ROLE_LINK and not set(words(e.name or e.text)) & ACTION_WORDS),
                         in_row[0])
            _click_live_and_expect(st, Target(TargetKind.LIVE_ELEMENT, 1.0, first.label, live=first))
            return True
    if st.moved:
        raise Defer(text)
    raise Unplannable(f"no list of {noun or 'items'!r} on any screen of this device", noun)
