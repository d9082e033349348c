"""Checks as testers phrase them.

"check the banner shows Melody TV", "Melody TV is listed", "is there a Save
button?", "the title is Customers", "3 items are shown", "buy milk is not
shown anymore", "subtitles are on", "buy milk is ticked", "channel 8 is Tech
Today" (tune, then check). A check never navigates to make itself pass,
except to the screen the tree says its subject lives on.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target, TargetKind
from server.planners.counts import (
    DONE_BY, count_check, count_of, counted_by_value, qualified, state_said, view_first,
)
from server.planners.language import PRONOUN, Act, Clause, bare_switch, clean, quoted, words
from server.planners.matching import STOPWORDS, nodes_with_keyword
from server.planners.intents_channel import (
    channel_check, channel_name_check, channel_names, channel_number, channel_row_check, tune_channel, tuned_name_check,
)
from server.planners.list_search import on_list_of
from server.planners.page_names import (
    DESCRIBED, KIND_TAIL, KIND_TAIL_ANY, goes_elsewhere, is_this_page, leads_here, named_here, named_of_kind,
    plural_of_said, shows_text,
)
from server.planners.state import Defer, State, Unplannable
from shared import vocabulary as V
from shared.models import ElementInfo, NodeInfo
from shared.screen import ROLE_CHECKBOX, ROLE_LISTITEM, ROLE_ROW, UIElement

NEGATION = re.compile(r"\b(?:not|no longer|isn't|aren't|doesn't|don't|isnt|arent|doesnt|dont|never|disappear(?:s|ed)?|gone|hidden|"
                      r"absent|missing|removed|deleted|nowhere)\b|"
                      r"(?:^\s*|\b(?:sure|check|verify|ensure|confirm|assert|that|and|then)\s+)"
                      r"there(?:'s|’s|\s+(?:is|are|should\s+be|must\s+be|will\s+be))\s+no\b", re.I)
# ("there's no X" opens what is said: "the message There's no todo yet is shown" is a text to find, as it reads)
_SHOWN = (r"(?:shown|displayed|visible|listed|present|there|available|playing|documented|mentioned|on (?:the )?screen|"
          r"on (?:the )?page|in the list|in the results|appears?|appearing|showing|displaying|exists?|"
          r"included|gone|hidden|absent|missing|removed|deleted|here)")
_STATE_WORDS = {"checked": "checked", "ticked": "checked", "completed": "checked", "done": "checked",
                "complete": "checked", "marked": "checked", "unchecked": "unchecked", "unticked": "unchecked",
                "incomplete": "unchecked", "active": "unchecked", "enabled": "enabled", "disabled": "disabled",
                "selected": "selected", "focused": "focused", "greyed out": "disabled", "finished": "checked",
                "crossed out": "checked", "crossed off": "checked", "struck through": "checked",
                "checked off": "checked", "ticked off": "checked", "not done": "unchecked",
                "not completed": "unchecked", "open": "unchecked", "pending": "unchecked", "unfinished": "unchecked"}
_STATES = "|".join(sorted((re.escape(w) for w in _STATE_WORDS), key=len, reverse=True))


GENERIC_SUBJECTS = {"page", "screen", "list", "results", "result", "table", "app", "window", "display", "tv", "site",
                    "view", "header", "footer", "body", "content", "section", "panel", "form", "dialog", "grid",
                    "menu", "sidebar", "toolbar", "output", "editor", "box", "area", "it", "this", "there",
                    # words for what shows a text, not names of one element ("confirm label reads 'Subtitles: On'")
                    "label", "text", "caption", "message"}


# quoted text is what the screen shows, word for word: "Timer does not ring" holds no negation of the check
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']+'(?!\w)|‘[^’]*’")


# a state word that starts a name of capitalised words ("a section called Hidden Options", "the Deleted Items
# folder") negates nothing; said alone ("Hidden", "is Not listed"), or in a task written all in capitals of words
# ("Verify Silent Harbor Is Not Shown"), it still does
_IN_A_NAME = re.compile(r"(?<=\S\s)(?-i:(?:Hidden|Gone|Missing|Absent|Removed|Deleted|Disappear(?:s|ed)?))"
                        r"(?=\s+(?-i:[A-Z][a-z]))")


def negated(text: str) -> bool:
    text = _QUOTED.sub(" ", text)
    said = re.findall(r"[A-Za-z][\w'’-]*", text)
    if sum(w[0].isupper() for w in said) * 2 < len(said):   # (not a task in capitals of words throughout)
        text = _IN_A_NAME.sub("_", text)
    return bool(NEGATION.search(text))


def _strip_neg_words(text: str) -> str:
    text = re.sub(r"\b(?:does|do|did)\s+not\s+", "", text, flags=re.I)   # "channel 9 does not exist"
    lead = r"((?:^\s*|\b(?:sure|check|verify|ensure|confirm|assert|that|and|then)\s+))"
    text = re.sub(lead + r"there(?:'s|’s|\s+(?:is|should\s+be|must\s+be|will\s+be))\s+no\b", r"\1there is a", text,
                  flags=re.I)
    text = re.sub(lead + r"there\s+are\s+no\b", r"\1there are a", text, flags=re.I)
    text = re.sub(r"\b(?:isn't|aren't|doesn't|don't|isnt|arent|doesnt|dont)\b", "is", text, flags=re.I)
    return re.sub(r"\b(?:not|no longer|never|anymore|any more)\b", " ", text, flags=re.I)


def _strip_neg(text: str) -> str:
    parts, at = [], 0
    for m in _QUOTED.finditer(text):   # the words of a quoted text stay as they are
        parts += [_strip_neg_words(text[at:m.start()]), m.group(0)]
        at = m.end()
    parts.append(_strip_neg_words(text[at:]))
    return re.sub(r"\s+", " ", "".join(parts)).strip()


# "a column named genre", "the user called admin": what the thing is called is the text to look for
_NAMED = re.compile(r"^(?:an?\s+|the\s+|any\s+)?(?:[\w-]+\s+){1,2}?(?:called|named|titled|labell?ed)\s+(?P<x>.+)$", re.I)
# "the product Golden Spoon": a kind of thing, then its name
# (a name: capitalised words, numbers or a quote; "the power LED turns white" is a sentence, not the power "LED …")
_KIND_THEN_NAME = re.compile(r"^(?:an?|the)\s+(?P<kind>[a-z]+)\s+(?P<x>[\"'“‘].*|(?-i:[A-Z0-9])\S*(?:\s+(?:(?-i:[A-Z0-9&])\S*|"
                             r"(?-i:of|on|in|at|to|for|and|the|a|an|de|du|la|le|von|van|with)))*)$")


_PARTS = frozenset("column columns row rows entry entries item items field fields tab tabs button buttons link links "
                   "option options section sections page pages record records".split())
_HAS_FIELD = re.compile(r"^(?P<rec>.+?)\s+(?:has|have)\s+(?:the\s+|a\s+|an\s+)?(?P<f>[a-z]+)\s+(?:of\s+|set\s+to\s+|=\s*)?"
                        r"(?P<v>\S.*)$", re.I)


def _field_stated(st: State, flat: str) -> bool:
    """"Add a dark mode has status deferred": the value of a column or field the screen names, for that record
    (checked as "the status of X is deferred"), never the field's own name found anywhere on the page."""
    m = _HAS_FIELD.match(flat)
    if m is None or st.live is None or count_of(m.group("f")) is not None or m.group("f").lower() in _PARTS \
            or re.match(r"(?:named|called|titled|labell?ed|with|for)\b", m.group("v"), re.I):
        return False   # "the books table has a column named genre": a part of the screen, not a field's value
    from server.planners import records
    from server.planners.builtin import INTENTS
    from server.planners.language import read_clause

    named = records.header_words(st) | {w.rstrip("s") for e in st.live.elements
                                        if e.role in ("textbox", "combobox", "checkbox") for w in words(e.name)}
    if m.group("f").lower().rstrip("s") not in named:
        return False
    stated = read_clause(f"check the {m.group('f')} of {m.group('rec')} is {m.group('v')}")
    return any(intent(stated, st) for _, intent in INTENTS)


def _subject_text(text: str) -> str:
    text = re.sub(r"^(?:that|if|whether)\s+", "", text.strip(), flags=re.I)
    text = re.sub(r"^(?:the\s+)?(?:text|word|words|message|label|entry|item|string|value|option|name)\s+", "",
                  text, flags=re.I)
    text = re.sub(r"^(?:an?|the)\s+(?=\S+\s+(?:entry|item|record|line)$)", "", text, flags=re.I)
    text = re.sub(r"(?<=\S)\s+(?:entry|item|record|line)$", "", text, flags=re.I)   # "a Products entry"
    # "version 2.4.0 is listed": the number, whether the page says "Version 2.4.0", "v2.4.0" or "2.4.0"
    text = re.sub(r"^(?:the\s+)?(?:version|release)\s+v?(?=\d+(?:\.\d+)+$)", "", text.strip(), flags=re.I)
    m = _NAMED.match(text)
    if m:
        text = m.group("x")
    else:
        m = _KIND_THEN_NAME.match(text) or _MESSAGE_THEN_TEXT.match(text)
        if m and m.group("kind").lower() not in GENERIC_SUBJECTS and m.group("kind").lower() not in _NOT_KINDS:
            text = m.group("x")
    q = quoted(text)
    # '"Alice" starts with a zero balance': quoted words with more said of them are no text to find alone
    around = set(words(re.sub(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']*'(?!\w)", " ", text)))
    return q if q and around <= _AROUND_QUOTED else clean(text)


_AROUND_QUOTED = frozenset("is are shown listed displayed visible present there appears appear exists still now on in "
                           "the a an screen page list text word words message label item entry button link tab heading "
                           "title shows says reads should be must called named option value".split())


# "the error Please enter a name": a kind of message, then its words as the page writes them, sentence or not
_MESSAGE_THEN_TEXT = re.compile(r"^(?:an?|the)\s+(?P<kind>error|warning|notice|notification|alert|toast|banner|hint|"
                                r"tooltip|prompt|caption|heading|status)\s+(?P<x>(?:[\"'“‘]|(?-i:[A-Z0-9])).*)$", re.I)


_NOT_KINDS = {"channel", "number", "page", "step", "version", "level", "row", "column", "item", "option"}


# "no bookmark points to example.net", "no one is called Zed", "none of the todos says buy milk": a value no record has
_NONE_SAYS = re.compile(r"^(?:no(?:body|\s+one|\s+(?:other\s+)?[a-z][\w-]*)|none\s+of\s+(?:the\s+)?[a-z][\w-]*)\s+"
                        r"(?:points?\s+to|links?\s+to|says?|reads?|mentions?|contains?|(?P<named>(?:(?:is|are)\s+)?(?:called|named|titled))|"
                        r"(?P<to>(?:is|are|was|were)\s+(?:assigned|given|allocated|booked|scheduled|reserved)\s+(?:to|for)|belongs?\s+to)|"
                        r"(?:is|are)\s+(?:tagged|from|in|at)|lives?\s+in|comes?\s+from|(?:has|have)\s+(?:the\s+)?(?:tag|title|name|"
                        r"word|text|label)|(?:is|are)\s+tagged(?:\s+with)?)\s+(?P<x>.+)$", re.I)


# "there are no results", "the search found nothing", "no matches are shown"
_NO_RESULTS = re.compile(r"^(?:that\s+)?(?:(?:there\s+(?:are|is|were|should\s+be|must\s+be)\s+)?no\s+(?:search\s+)?"
                         r"(?:results?|matches|hits)(?:\s+(?:are\s+|were\s+)?(?:shown|found|listed|returned|displayed))?"
                         r"|(?:the\s+)?search\s+(?:found|finds|returned|returns|gave|gives|shows?)\s+(?:nothing|no\s+"
                         r"(?:results?|matches|hits))|nothing\s+(?:is|was)\s+found)"
                         r"(?:\s+for\s+\S.*)?$", re.I)
# how an app says its search found nothing: "No search results for 'x'.", "No results found", "0 matches"
_NOTHING_FOUND = re.compile(r"\b(?:no|0|zero)\s+(?:\w+\s+){0,2}(?:results?|matches|hits)\b|"
                            r"\bnothing\s+(?:was\s+|is\s+)?found\b|\b(?:did\s+not|didn't)\s+match\b", re.I)
_RESULTS_SAID = re.compile(r"\b(?:[1-9]\d*\s+(?:\w+\s+)?(?:results?|matches|hits)|results?\s+for)\b", re.I)


def _nothing_found(st: State) -> None:
    """A search that found nothing: the app says so ("No results found"), where the screen shows what it says;
    where it shows results instead, a check that fails ("3 search results" must not be shown)."""
    if st.live is None or st.open_world and st.last_act == "search" and st.steps:
        raise Defer("the results")   # read on the screen the search leads to
    said = [t for t in st.live.visible_texts() if len(t) <= 120 and _NOTHING_FOUND.search(t)]
    counts = [t for t in st.live.visible_texts() if len(t) <= 120 and _RESULTS_SAID.search(t) and t not in said]
    if said and counts:
        raise Unplannable(f"the screen says both {said[0]!r} and {counts[0]!r}: name the text to check", "no results")
    if said:
        st.prove(lambda: checks.text_shown(st.ctx, said[0]))
        return
    if counts:
        st.prove(lambda: checks.text_shown(st.ctx, counts[0], False))
        return
    raise Unplannable("I cannot tell how this screen says that nothing was found: name the text it shows "
                      "(e.g. 'check \"No results\" is shown')", "no results")


def _absent_name(st: State, name: str) -> None:
    """Check *name* is not shown. A name the screen shows only in part ("Omar Haddad" where the list says Omar)
    is refused: its absence would pass though the person is listed."""
    if st.live is not None:
        shown = {" ".join(t.split()).casefold() for e in st.live.elements if not e.hidden
                 for t in (e.name, e.text) if t}
        parts = [w for w in name.split() if w[:1].isupper() and len(w) > 2]
        if len(parts) > 1 and not any(name.casefold() in t for t in shown):
            part = next((w for w in parts if w.casefold() in shown), "")
            if part:
                raise Unplannable(f"the screen shows {part!r}, not {name!r}: say the name as it is shown", name)
    _text_check(st, name, True, subject="")


def _titles(node: NodeInfo) -> list[ElementInfo]:
    """*node*'s own title elements: one that says its name ("Live TV"), or one whose text is the item it shows
    ("#movie-title"); never a list's many titles."""
    return [e for e in node.elements if "title" in words(e.name) and e.selector and not e.many]


def _screen_shown(st: State, node: NodeInfo, negative: bool) -> None:
    """*node* is the screen shown: its own title element, read where it is, never gone to (a goto would make it
    so) and never its name anywhere (a menu names every screen)."""
    title = next((e for e in node.elements if "title" in words(e.name) and e.selector and e.text), None)
    if title is None:
        # else its title's element, whatever it says (a screen of one item: "#movie-title"), shown only there
        own = next(iter(_titles(node)), None)
        if own is None:
            raise Unplannable(f"nothing declared on {node.label} tells that it is the screen shown", node.label)
        st.check(checks.element(st.ctx, selector=own.selector, present=not negative,
                                description=f"Check {node.label} is {'not ' if negative else ''}the screen shown"))
        return
    st.check(checks.element(st.ctx, selector=title.selector, text=title.text, present=not negative,
                            description=f"Check {node.label} is {'not ' if negative else ''}the screen shown"))


def _shown_when_on(st: State, subject: str) -> bool:
    """*subject* is a thing the device opens or plays (a channel's row, a programme's tile), not a setting or a
    switch: being on is being shown."""
    declared = grounding.tree_elements(subject, st.ctx, prefer_node=st.node, minimum=0.85)
    if not declared or declared[0].element.values or not declared[0].element.opens:
        return False
    switches = grounding.live_elements(subject, st.live, roles=frozenset({"switch", "checkbox"}), minimum=0.85) \
        if st.live is not None else []
    return not switches


def read_on_screen(c: Clause, st: State) -> Clause:
    """"Check the guide: channel 5 is Melody TV", "Check Settings: subtitles on": the check that follows the screen's
    name, read on that screen (gone to first, unless it is a screen of one item or one that plays, which going to
    would open or play something); the clause unchanged where no screen is named so."""
    m = re.match(r"^(?:the\s+)?(?P<p>[\w ]{2,30}?)\s*:\s*(?P<rest>\S.+)$", c.rest.strip()) if c.act is Act.CHECK else None
    screen = grounding.screens(m.group("p"), st.ctx, minimum=0.9) if m and st.ctx.navigation.nodes else []
    if not screen:
        return c
    node = screen[0].node
    plays = {n.id for w in ("play", "playback", "player") for n in nodes_with_keyword(w, st.ctx)}
    if st.node != node.id and not node.param and node.id not in plays:
        st.goto(node)
    elif st.node != node.id:
        _screen_shown(st, node, False)   # never gone to (that would open or play something): it must be the one shown
    st.read_on = node.id
    rest = m.group("rest").strip()
    rest = bare_switch(rest) or rest   # "Check Settings: subtitles on": subtitles is on
    return Clause(f"check {rest}", Act.CHECK, rest)


# "confirm that it does", "check it is", "verify that's so": the check said just before, confirmed
_SAID_BEFORE = re.compile(r"(?:that\s+)?(?:it|this|that|so)(?:['’]s\s+so|\s+(?:does|did|is|has|happens|works|holds|"
                          r"really\s+does))?(?:\s+so)?\s*[.!?]*", re.I)


# a yes/no question about how something is, said with the verb first ("are subtitles on", "is the audio in French",
# "is the lock set to On"): the statement it asks about reads "X is V"
_ASKED_STATE = re.compile(
    r"^(?P<be>is|are)\s+(?P<x>(?!there\b|it\b|this\b|that\b)\S.*?)\s+(?P<v>(?:(?:now|still|currently)\s+)?(?:(?:switched|turned|toggled)\s+)?"
    r"(?:on|off|enabled|disabled|activated|deactivated|active|inactive|locked|unlocked|muted|unmuted|visible|hidden|"
    r"shown|displayed|listed|playing|paused|selected|checked|ticked|unchecked|unticked|highlighted"
    r"|(?:set\s+to|in)\s+(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)?|set\s+to\s+(?:on|off)))$"
    # ("is the audio French?", "is the banner Melody TV?": a thing described, then a name)
    r"|^(?P<be2>is|are)\s+(?P<x2>(?:the|its|their|my|our)(?:\s+(?!(?:\w+ing|on|in|at|from|for|of|to|by|with)\b)[a-z][a-z-]*){1,3})\s+(?P<v2>(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z0-9])[\w-]*)*)$",
    re.I)


def check_intent(c: Clause, st: State) -> bool:
    body = c.rest.strip().rstrip("?")
    if (not body or PRONOUN.fullmatch(body) or _SAID_BEFORE.fullmatch(body.strip())) and st.steps \
            and st.steps[-1].command in checks.check_commands(st.ctx):
        # "there should be 15 watches in total, verify it", "genre should read Drama. Verify": the clause before
        # is that check
        st.explicit_check_last = True
        return True
    if not body:
        raise Unplannable(f"nothing to check in {c.text!r}")
    if re.match(r"^(?:how many|what|which|who|where|when)\b", body, re.I):
        raise Unplannable(f"a check needs what to expect: {body!r} asks a question (say, e.g., 'there are 8 rows')",
                          body)
    if _NO_RESULTS.match(body):
        _nothing_found(st)
        return True
    negative = negated(body)
    none = re.match(r"^no\s+(?P<x>.+?)\s+(?:is|are)\s+(?:shown|displayed|visible|listed|present|there)$", body, re.I) \
        or re.match(r"^no\s+(?P<x>(?:[\w-]+\s+){1,2}(?:called|named|titled)\s+.+?|[\w-]+\s+(?:[\"'“‘].+?|(?-i:[A-Z0-9])\S*"
                    r"(?:\s+(?-i:[A-Z0-9])\S*)*))\s+(?:(?:is|are)\s+(?:left|found)|exists?|appears?|remains?|shows\s+up)$",
                    body, re.I)   # "no member called John Smith exists": a name, never a word no page prints
    if none:   # "no error is displayed": the error is not shown ("no member Zed Hill remains": Zed Hill)
        x = none.group("x")
        x = x if re.match(r"(?:the|an?)\s", x, re.I) else "the " + x
        body, negative = f"{x} is shown", True
    nobody = _NONE_SAYS.match(body)
    if nobody and nobody.group("to") and not re.match(r"(?-i:[A-Z0-9\"'“‘])", nobody.group("x")):
        nobody = None   # "no shift is assigned to anyone", "… to the beta milestone": no one name to look for
    if nobody and not negative:   # "no bookmark points to example.net", "nobody lives in Lyon": the value is not shown
        x = nobody.group("x")
        if nobody.group("named"):   # "nobody called Zed is on the rota": the name, not what is said of it
            x = re.sub(r"\s+(?:is|are|was|were|works?|appears?|shows?\s+up|has|have|exists?)\b.*$", "", x, flags=re.I)
        _absent_name(st, _subject_text(x))
        return True
    has_none = re.match(r"^(?P<x>(?-i:[A-Z0-9])[\w .'’-]*?)\s+(?:has|have|gets?|holds?)\s+no\s+(?P<k>[a-z][\w-]*)$", body)
    if has_none and not negative and on_list_of(st, has_none.group("k")):
        _absent_name(st, has_none.group("x"))   # "Zed has no shifts" on the list of shifts
        return True
    flat = _strip_neg(body)
    flat = re.sub(r"^there\s+(?:should|must|shall|will)\s+be\b", "there are", flat, flags=re.I)
    flat = re.sub(r"\b(?:should|must|shall|will)\s+(?:still\s+)?be\b", "is", flat, flags=re.I)
    # "we have 3 suppliers", "we've got 3 plants": there are 3 of them (the tester's "we" owns nothing)
    flat = re.sub(r"^(?:i|we|you)\s*(?:have|'ve|’ve|got)(?:\s+got)?\s+(?=(?:exactly\s+)?(?:\d+|one|two|three|four|five|six|"
                  r"seven|eight|nine|ten|eleven|twelve)\s)", "there are ", flat, flags=re.I)
    flat = re.sub(r"^(?:i|we|you)\s+(?:can\s+|should\s+|do\s+)?(?:see|find|have)\s+", "", flat, flags=re.I)
    # "are subtitles on?", "is the audio in French?", "is the parental lock set to On?": the statement asked about
    asked = _ASKED_STATE.match(flat)
    if asked:
        g = (lambda k: asked.group(k) or asked.group(f"{k}2"))
        flat = f"{g('x')} {g('be').lower()} {g('v')}"
    # "is pump_a running?", "is enc_three FATAL?": a name the screen shows, and the one word asked of it
    asked_of = None if asked else re.match(r"^(?P<be>is|are)\s+(?P<x>\S.*?)\s+(?:still\s+|currently\s+|now\s+)?"
                                          r"(?P<s>[A-Za-z][\w-]+)$", flat, re.I)
    if asked_of and re.search(r"\s(?:a|an|the|one\s+of\s+the|my|our|your)$", asked_of.group("x"), re.I):
        asked_of = None   # "is Chloe a participant": a kind, not a state
    if asked_of and st.live is not None and asked_of.group("x").lower() not in ("there", "it", "this", "that") \
            and grounding.live_elements(asked_of.group("x"), st.live, minimum=0.8):
        flat = f"{asked_of.group('x')} {asked_of.group('be').lower()} {asked_of.group('s')}"
    # "is parental lock enabled?": a setting the tree declares is on or off; never the element's own enabled state
    states = r"(?P<s>enabled|disabled|activated|deactivated|switched\s+on|switched\s+off|turned\s+on|turned\s+off)$"
    m = re.match(r"^(?P<x>.+?)\s+(?:is|are)\s+(?:(?:now|still|currently)\s+)?" + states, flat, re.I) \
        or re.match(r"^(?:is|are)\s+(?P<x>.+?)\s+(?:(?:now|still|currently)\s+)?" + states, flat, re.I)
    if m and st.ctx.navigation.nodes:
        setting = [t for t in grounding.tree_elements(m.group("x"), st.ctx, prefer_node=st.node, minimum=0.85)
                   if not t.element.opens and not t.element.many]
        if setting:
            on = m.group("s").lower().split()[-1] in ("enabled", "activated", "on")
            flat = f"{m.group('x')} is {'on' if on else 'off'}"
    # "Wild Earth is on", "Future of Robots is on now": a channel or a programme is on when it is shown; only a
    # setting or a switch is on as a state
    m = re.match(r"^(?P<x>.+?)\s+(?:is|are)\s+on(?:\s+(?:air|now|right\s+now|at\s+the\s+moment|currently|tonight|"
                 r"today))?$", flat, re.I)
    if m and st.has(V.PRESS_KEY) and channel_number(st, m.group("x")) is not None:
        # "Melody TV on?", "check Aurora News is on": a channel the tree names is on when it is the current one
        channel_name_check(st, m.group("x").strip(), negative)
        return True
    if m and _shown_when_on(st, m.group("x")):
        item = grounding.tree_elements(m.group("x"), st.ctx, prefer_node=st.node, minimum=0.85)[0]
        if negative:
            raise Unplannable(f"I cannot tell that {m.group('x')} is not on: a screen that does not show it "
                              "proves nothing", m.group("x"))
        if st.node == item.node.id or st.node is None and item.node.id == st.ctx.navigation.current_node:
            # on the list that names every channel, its name proves nothing: the screen it opens must show it
            target = st.node_info(item.element.opens)
            if target is not None:
                st.goto(target)
        flat = f"{m.group('x')} is shown"
    # "is the banner showing Gadget Lab?": what it shows
    m = re.match(r"^(?:is|are)\s+(?P<x>(?:the|its|this|that|their)\s+.+?)\s+(?:showing|displaying|saying|reading|listing)\s+"
                 r"(?P<y>\S.*)$", flat, re.I)
    if m:
        flat = f"{m.group('x')} shows {m.group('y')}"
    # "is the audio language set to English?", "is the audio language English?": a setting's value, asked
    m = re.match(r"^(?:is|are)\s+(?!there\b)(?P<x>.+?)\s+(?:set|switched|changed|configured)\s+(?:to|as)\s+(?P<v>.+)$",
                 flat, re.I)
    if m:
        flat = f"{m.group('x')} is {m.group('v')}"
    elif re.match(r"^(?:is|are)\s+(?!there\b)\S+\s+\S+", flat, re.I) and st.ctx.navigation.nodes:
        said = flat.split()[1:]
        for k in range(len(said) - 1, 0, -1):
            name, value = " ".join(said[:k]), " ".join(said[k:])
            found = grounding.tree_elements(name, st.ctx, prefer_node=st.node, minimum=0.9)
            if found and found[0].element.values and any(words(v) == words(value) for v in found[0].element.values):
                flat = f"{name} is {value}"
                break
    # a question is a statement to check: "is Wild Earth in the guide?" → "Wild Earth is in the guide"
    m = re.match(r"^(?:is|are)\s+(?!there\b)(?P<x>.+?)\s+(?:there\s+|still\s+)?(?:(?:listed|shown|included|found|"
                 r"available)\s+(?=(?:in|on|at|under)\s))?(?P<p>(?:in|on|at|under)\s+.+|" + _SHOWN + r")$", flat, re.I)
    if m:
        flat = f"{m.group('x')} is {m.group('p')}"
    # "the settings screen is open": being on a screen is proved by going there (goto verifies)
    m = re.match(r"^(?:the\s+)?(?P<x>.+?)\s+(?:screen|page|view|menu|tab)\s+(?:is|are)\s+(?:now\s+)?(?:open|opened|active|"
                 r"showing|displayed|shown|visible|up|on screen)$", flat, re.I) or \
        re.match(r"^(?:the\s+)?(?P<x>.+?)\s+(?:is|are)\s+(?:now\s+)?(?:open|opened|active|up)$", flat, re.I)
    if m and not negative:
        found = grounding.screens(m.group("x"), st.ctx, minimum=0.85)
        if found and st.has(V.GOTO):
            if st.node == found[0].node.id:   # the plan is there: goto only verifies it
                st.goto(found[0].node, always=True)
            else:   # after a step whose landing is unknown ("press back"): a goto would make it so
                _screen_shown(st, found[0].node, negative=False)
            st.explicit_check_last = True
            return True
    # "its title is shown" right after opening X: the title shows X
    m = re.match(r"^its\s+(?P<x>.+?)\s+(?:is|are)\s+(?:shown|displayed|visible|correct|right|there)$", flat, re.I)
    if m and st.last_object:
        flat = f"the {m.group('x')} shows {st.last_object}"

    # "we're on channel 1", "the channel is now 8", "channel 3 is shown": the channel on now, never tuned
    m = re.match(r"^(?:(?:we|you|i|it|the\s+tv|the\s+box)(?:['’]re|['’]s|['’]m|\s+are|\s+is|\s+am)\s+)(?:now\s+|still\s+)?"
                 r"(?:on|at|tuned\s+to|watching)\s+channel\s*(?P<n>\d{1,4})$", flat, re.I) \
        or re.match(r"^(?:the\s+)?(?:current\s+)?channel\s+(?:is|shows)\s+(?:now\s+)?(?:channel\s*)?(?P<n>\d{1,4})$",
                    flat, re.I) \
        or re.match(r"^channel\s*(?P<n>\d{1,4})\s+(?:is|shows)\s+(?:now\s+)?(?:shown|on|showing|displayed|playing|active|"
                    r"selected|tuned(?:\s+in)?|on\s+screen)$", flat, re.I)
    if m and st.ctx.navigation.nodes:
        channel_check(st, m.group("n"), negative)
        return True
    if _channel_named_check(st, flat, negative):
        return True
    # "we should be back on Live TV", "we're on the home screen": that screen's own title, read where it is;
    # (see _screen_shown)
    # never a goto (which would make it so) and never its name anywhere (a menu says every screen's name)
    m = re.match(r"^(?:we|you|i|it|the\s+tv|the\s+box)(?:['’]re|['’]s|['’]m|\s+are|\s+is|\s+am)\s+(?:now\s+|back\s+|still\s+)*"
                 r"(?:on|at|in|to)\s+(?:the\s+)?(?P<x>.+?)$", flat, re.I)
    if m and st.ctx.navigation.nodes:
        place = re.sub(r"\s+(?:screen|page|menu|view|tab)$", "", m.group("x"), flags=re.I)
        node = next((t.node for t in grounding.screens(place, st.ctx, minimum=0.85)
                     if max(grounding.similarity(place, t.node.label),
                            grounding.similarity(place, t.node.id.replace("_", " "))) >= 0.85), None)
        if node is not None:
            _screen_shown(st, node, negative)
            return True
        if channel_number(st, m.group("x")) is not None and _channel_named_check(st, f"the channel is {m.group('x')}",
                                                                                   negative):
            return True   # "we're on Melody TV"
        flat = f"{m.group('x')} is shown"

    # "channel 4 in the guide is Kids Zone"; on the guide, "Secrets of the Reef is showing on channel 5 tonight": its row
    m = re.match(r"^(?:the\s+)?channel\s*(?:number\s*)?(?P<n>\d{1,4})\s+(?:in|on)\s+the\s+(?P<p>[\w ]{2,30}?)\s+"
                 r"(?:is|shows?|reads?|lists?)\s+(?P<x>.+?)(?:\s+(?-i:tonight|now|today))?$", flat, re.I) \
        or re.match(r"^(?:the\s+)?channel\s*(?:number\s*)?(?P<n>\d{1,4})\s+(?:is|shows?|reads?)\s+(?:listed\s+as\s+|shown\s+as\s+)?"
                    r"(?P<x>.+?)\s+(?:in|on)\s+the\s+(?P<p>[\w ]{2,30}?)$", flat, re.I)
    if m and channel_row_check(st, m.group("n"), _subject_text(m.group("x")), negative, where=m.group("p")):
        return True
    # on the guide the task said to read, or went to ("Open the guide and check channel 5 is Melody TV"): its row
    row = _ON_CHANNEL.match(flat) if st.node and (st.node == st.read_on or st.moved) else None
    if row and channel_row_check(st, row.group("n") or row.group("m"), _subject_text(row.group("x") or row.group("y")),
                                 negative):
        return True
    m = re.match(r"^(?:the\s+)?channel\s*(?:number\s*)?(\d{1,4})\s+(?:is|shows?|plays?|reads?|=)\s+(?:(?:now\s+)?(?:showing|playing|"
                 r"airing|on)\s+)?(.+?)(?:\s+(?-i:tonight|now|today|right\s+now))?$", flat, re.I)
    if m:
        tune_channel(st, m.group(1))
        _tuned_shows(st, m.group(1), _subject_text(m.group(2)), negative)
        return True
    m = re.match(r"^(?P<x>.+?)\s+(?:is|plays)\s+(?:on\s+|at\s+)channel\s*(?P<n>\d{1,4})$", flat, re.I) \
        or re.match(r"^(?P<x>(?-i:[A-Z0-9])[^,]*?)\s+is\s+channel\s*(?:number\s*)?(?P<n>\d{1,4})$", flat, re.I)
    # "Melody TV is on channel 5"; "Laugh Track is channel 7" (a name: "the current channel is channel 6" is no tuning)
    if m and st.has(V.PRESS_KEY):
        tune_channel(st, m.group("n"))
        _tuned_shows(st, m.group("n"), _subject_text(m.group("x")), negative)
        return True
    if not negative and _field_stated(st, flat):
        return True
    # "there are 3 items" / "3 todos are listed" / "the list has 2 items"; "the Hull depot has two vans": its
    # column's value, in two rows
    m = (re.match(r"^there\s+(?:is|are)\s+(?:exactly\s+)?(?P<n>\w+)\s+(?P<k>.+?)(?:\s+" + _SHOWN + r")?$", flat, re.I)
         or re.match(r"^(?:exactly\s+)?(?P<n>\w+)\s+(?P<k>.+?)\s+(?:are|is)\s+" + _SHOWN + r"$", flat, re.I)
         or re.match(r"^(?:the\s+)?(?P<owner>.+)\s+(?:has|have|shows?|lists?|contains?)\s+(?:exactly\s+)?(?P<n>\w+)\s+"
                     r"(?P<k>.+)$", flat, re.I))
    if m and count_of(m.group("n")) is not None and not re.match(r"[a-z]", m.group("k").strip(), re.I):
        m = None   # "the details page shows 2019 · Drama · 2h 04m": a text with a number in it, no count of things
    if m and count_of(m.group("n")) is not None:
        count, kind = count_of(m.group("n")) or 0, clean(m.group("k"))
        owner = m.groupdict().get("owner") or ""
        place = grounding.screens(owner, st.ctx, minimum=0.9) if owner and st.ctx.navigation.nodes else []
        if place and st.has(V.GOTO):   # "the guide lists 8 channels": counted on the guide
            if st.node != place[0].node.id:
                st.goto(place[0].node)
            owner = ""
        if view_first(st, flat, count, kind):
            return True
        if owner and not negative and counted_by_value(st, count, kind, owner):
            return True
        if owner and _someone_named(st, owner):
            # "Ann has one open ticket", "the Staff group has one member": a count of that one's, which the rows of
            # the list shown do not give; counting them would pass on every list of one row
            raise Unplannable(f"I cannot tell which {kind} are {owner}'s: open {owner} first, or check the number "
                              "its row shows", owner)
        count_check(st, count, kind, negative)
        return True
    # "3 bookmarks have the recipes tag": things that show a value, said with what the value is
    m = re.match(r"^(?:exactly\s+|only\s+|just\s+)?(\w+)\s+([a-z][\w-]*)\s+(?:should\s+|must\s+)?(?:have|has|carry|carries)\s+"
                 r"(?:the\s+|a\s+|an\s+)?(\S+)\s+(tag|label|status|category|type|priority|state|flag)$", flat, re.I)
    if m and count_of(m.group(1)) is not None:
        noun = f"{m.group(2)} tagged {m.group(3)}" if m.group(4).lower() in ("tag", "label") \
            else f'{m.group(2)} with "{m.group(3)}"'
        count_check(st, count_of(m.group(1)) or 0, noun, negative)
        return True
    # "2 customers live in Lyon", "three books are by Orwell": a number of things with some value
    m = re.match(r"^(?:exactly\s+|only\s+|just\s+)?(\w+)\s+([a-z][\w-]*)\s+(?:live|lives|come|comes|are|is|were|was)\s+"
                 r"(?:based\s+|located\s+)?((?:(?:%s)\s+)?(?:in|from|at|by|with|to|tagged|named|called|titled)\s+.+)$" % DONE_BY,
                 flat, re.I)
    if m and count_of(m.group(1)) is not None and qualified(f"{m.group(2)} {m.group(3)}") is not None:
        count_check(st, count_of(m.group(1)) or 0, clean(f"{m.group(2)} {m.group(3)}"), negative)
        return True
    # "3 items are left", "two tasks remain": a number of things in some state, as a counter shows it
    m = re.match(r"^(?:exactly\s+|only\s+|just\s+)?(\w+)\s+([a-z][\w-]*)\s+(?:(?:is|are)\s+(?:still\s+)?)?"
                 r"(left|remaining|remain|to do|completed|done|selected|open|pending|active|in total)$", flat, re.I)
    if m and count_of(m.group(1)) is not None:
        state = {"remain": "left", "remaining": "left"}.get(m.group(3).lower(), m.group(3).lower())
        count_check(st, count_of(m.group(1)) or 0, f"{m.group(2)} {state}", negative)
        return True
    # "4 processes are running": a number of things in a state their rows show (a State column's "running")
    m = re.match(r"^(?:exactly\s+|only\s+|just\s+)?(\w+)\s+([a-z][\w-]*)\s+(?:is|are)\s+(?:currently\s+|still\s+|now\s+)?"
                 r"([a-z][\w-]*)$", flat, re.I)
    if m and count_of(m.group(1)) is not None and state_said(st, f"{m.group(3)} {m.group(2)}") is not None:
        count_check(st, count_of(m.group(1)) or 0, f"{m.group(3)} {m.group(2)}", negative)
        return True
    # "is there a Save button" / "there is a Save button"
    m = re.match(r"^(?:is|are)\s+there\s+(?:an?\s+|any\s+|the\s+)?(.+)$|^there(?:'s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?(.+)$",
                 flat, re.I)
    if m:
        thing = m.group(1) or m.group(2)
        named = re.match(r"^(?:\w+\s+){0,2}?(?:called|named|titled|labelled|labeled|saying)\s+(?P<x>.+)$", thing, re.I) \
            or re.match(r"^(?:an?\s+|the\s+)?(?:todo|task|item|entry|ticket|issue|note|post|bookmark|card|reminder|bug|"
                        r"story|record|row)s?\s+(?:about|mentioning|regarding|concerning|containing|that\s+(?:says|mentions|"
                        r"contains))\s+(?:the\s+|a\s+|an\s+)?(?P<x>.+)$", thing, re.I)   # "a todo about the plumber"
        kind = re.match(r"^(?:an?\s+|the\s+)?(?P<k>[a-z]+)\s+(?:called|named|titled)\s", thing, re.I)
        where = ""
        if kind and st.ctx.navigation.nodes:   # "is there a movie called X?": among the movies
            where = next((f"{kind.group('k')}{s}" for s in ("s", "") for t in grounding.screens(
                f"{kind.group('k')}{s}", st.ctx, minimum=0.9)
                if max(grounding.similarity(f"{kind.group('k')}{s}", t.node.label),
                       grounding.similarity(f"{kind.group('k')}{s}", t.node.id)) >= 0.9), "")   # by its own name
        _text_check(st, _subject_text(named.group("x") if named else thing), negative, subject="", where=where)
        return True
    # "the title of the json page is json", "the csv page's heading says csv": that page's title, the page opened
    # first where it is not the one shown (its link's word alone is no proof: the link says it on every page)
    m = re.match(r"^(?:the\s+)?(?:title|heading|header)\s+(?:of|on)\s+(?:the\s+)?(?P<x>.+?)\s+(?P<k>" + _PAGE_KINDS + r")"
                 + _TITLE_VERB + r"(?P<v>.+)$", flat, re.I) \
        or re.match(r"^(?:the\s+)?(?P<x>.+?)\s+(?P<k>" + _PAGE_KINDS + r")(?:'s|’s)?\s+(?:title|heading|header)"
                    + _TITLE_VERB + r"(?P<v>.+)$", flat, re.I)
    if m and m.group("x").lower() in ("the", "this", "a", "an", "current", "whole"):
        m = None   # "the page title is X": this page's (below)
    if m and st.live is not None:
        if not is_this_page(st, m.group("x")):
            if _open_its_page(st, m.group("x"), m.group("k")):
                raise Defer(m.group("x"), replace_with=[f'check the {"heading" if "head" in flat.lower() else "title"} '
                                                       f'{"is not" if negative else "is"} {m.group("v")}'])
            # never read on another page: the one named is looked for (or the check refused)
            raise Unplannable(f"nothing called {m.group('x')!r} is open, and nothing here opens it", m.group("x"))
        _page_check(st, _subject_text(m.group("v")), negative)
        return True
    # "the title is X" / "the page title is X" / "the heading says X" / "we are on the X page"
    m = re.match(r"^(?:the\s+)?(?:page\s+|screen\s+|window\s+|movie\s+|film\s+|show\s+|programme\s+|program\s+)?"
                 r"(?:title|heading|header)\s+(?:is|reads?|says?|shows?|=|(?:should|must|ought\s+to|has\s+to)\s+"
                 r"(?:be|read|say|show))\s+(.+)$",
                 flat, re.I) or re.match(r"^(?:i|we|you)(?:'m|'re| am| are)\s+(?:now\s+)?(?:on|in|at)\s+(?:the\s+)?(.+?)"
                                         r"(?:\s+(?:screen|page|view|tab))?$", flat, re.I)
    if m:
        _page_check(st, _subject_text(m.group(1)), negative)
        return True
    # "we are watching Cinema Nova": what plays is shown
    m = re.match(r"^(?:i|we|you)(?:'m|'re| am| are)\s+(?:now\s+|still\s+)?(?:watching|playing|viewing|listening to|"
                 r"streaming)\s+(.+)$", flat, re.I)
    if m:
        _text_check(st, _subject_text(m.group(1)), negative, subject="")
        return True
    # "the URL contains /customers"
    m = re.match(r"^(?:the\s+)?(?:url|address|location|path)\s+(?:is|contains?|includes?|has|ends with)\s+(.+)$", flat, re.I)
    if m:
        st.check(checks.page(st.ctx, _subject_text(m.group(1)), not negative))
        return True
    # "subtitles are on" / "X is set to French" / "buy milk is ticked"
    m = re.match(r"^(?P<subject>.+?)\s+(?:is|are|should be|must be|has to be|needs to be)\s+(?:set\s+to|turned|switched)?"
                 r"\s*(?P<v>on|off|enabled|disabled)$", flat, re.I) or \
        re.match(r"^(?P<subject>.+?)\s+(?:is|are|should be|must be)\s+(?:set\s+to|now)\s+(?P<v>.+)$", flat, re.I)
    if m:
        _value_check(st, m.group("subject"), m.group("v"), negative)
        return True
    # "the audio is English": a setting the tree declares with its values, said with one of them
    m = re.match(r"^(?:the\s+)?(?P<subject>.+?)\s+(?:is|are)\s+(?:in\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)$", flat, re.I)
    # (each word said is a word of the setting's name: "the audio" is the audio language, "the menu language" is not)
    declared = [t for t in grounding.tree_elements(m.group("subject"), st.ctx, prefer_node=st.node)
                if t.score >= 0.6 and set(words(m.group("subject"))) - {"the", "a", "an", "its", "my", "our"}
                <= set(words(t.element.name))] if m else []
    if m and declared and any(v.casefold() == m.group("v").casefold() for v in declared[0].element.values):
        _value_check(st, declared[0].element.name, m.group("v"), negative)
        return True
    m = re.match(r"^(?:is|are)\s+(?!there\b)(?P<subject>.+?)\s+(?:marked\s+(?:as\s+)?)?(?P<state>" + _STATES + r")$",
                 flat, re.I) or \
        re.match(r"^(?P<subject>.+?)\s+(?:is|are)\s+(?:marked\s+(?:as\s+)?)?(?P<state>" + _STATES + r")$", flat, re.I)
    if m:
        state = _STATE_WORDS[m.group("state").lower()]
        if state in ("enabled", "disabled") and grounding.live_elements(
                _subject_text(m.group("subject")), st.live, roles=frozenset({"checkbox", "switch"}), minimum=0.7):
            # "is Email alerts enabled?": a box or switch is enabled when it is on, not when it can be clicked
            _value_check(st, m.group("subject"), state, negative)
            return True
        _state_check(st, _subject_text(m.group("subject")), state, negative)
        return True
    if re.search(r"\bmarked\s+as\b", flat, re.I):
        raise Unplannable(f"I cannot tell how {body!r} shows on the screen: name the text or the box to check", body)
    # "the banner shows Melody TV" / "the list contains buy milk"
    flat = re.sub(r"\b(?:should|must)\s+(?=(?:show|display|read|say|contain|include|list|have)\b)", "", flat, flags=re.I)
    # (not a noun that reads as a verb: "the list of modules", "the module list includes …")
    m = re.match(r"^(?P<subject>(?:the\s+|a\s+|an\s+|this\s+|that\s+|my\s+)?\S.*?)(?<!\bthe)(?<!\ba)(?<!\ban)\s+"
                 r"(?:shows?|displays?|reads?|says?|contains?|has|have|"
                 r"lists?(?!\s+(?:of|includes?|contains?|shows?|has|have|displays?|mentions?|does|doesn't|should)\b)|includes?|"
                 r"returns?|gives?|yields?|outputs?|produces?|results? in|equals?|is equal to|comes? back with|"
                 r"mentions?|refers? to|talks? about|(?-i:documents?|describes?|covers?|explains?)|"
                 r"should (?:show|display|read|say|contain|include|list|have)|is showing|are showing|"
                 r"(?:is|are) displaying)\s+(?P<text>.+)$", flat, re.I)
    if m and _inside_quotes(m.group("subject")):
        m = None   # "\"Your order has shipped\" was sent to sam": the verb is the quoted name's own word
    opened = bool(m) and bool(st.last_object) and m.group("subject").strip(" \"'“”") == st.last_object
    if m and not opened and not re.fullmatch(r"(?:it|this|that|there|the (?:screen|page|display|tv))",
                                             m.group("subject").strip(), re.I):
        _text_check(st, _subject_text(m.group("text")), negative, subject=m.group("subject"))
        return True
    if m:
        on_screen = m.group("subject").lower() in ("the screen", "the display", "the tv")
        _text_check(st, _subject_text(m.group("text")), negative, subject="", ocr=on_screen)
        return True
    # "Melody TV is in the guide", "Tea Kettle is shown among the products"
    m = re.match(r"^(?P<text>.+?)\s+(?:is|are)\s+(?:still\s+)?(?:listed\s+|shown\s+|there\s+|displayed\s+)?"
                 r"(?:in|on|under|inside|among|within)\s+"
                 r"(?:the\s+)?(?P<where>.+)$", flat, re.I)
    if m and not re.fullmatch(r"(?:the\s+)?(?:screen|page|display)", m.group("where"), re.I):
        _text_check(st, _subject_text(m.group("text")), negative, subject="", where=m.group("where"))
        return True
    # "is Chloe a participant?", "Basil is a plant": a name (capitalised or quoted) in a kind's list is shown
    m = re.match(r"^(?:is|are)\s+(?P<x>[\"'“]?[A-Z0-9][^\s]*(?:\s+[A-Z0-9][^\s]*){0,3}[\"'”]?)\s+(?:an?|one of the)\s+"
                 r"(?P<kind>[a-z]+(?:\s+[a-z]+)?)(?:\s+(?:of|in|on|at)\s+(?:the\s+|this\s+|our\s+)?[\w -]+)?$", flat) or \
        re.match(r"^(?P<x>[\"'“]?[A-Z0-9][^\s]*(?:\s+[A-Z0-9][^\s]*){0,3}[\"'”]?)\s+(?:is|are)\s+(?:still\s+)?"
                 r"(?:an?|one of the)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)(?:\s+(?:of|in|on|at)\s+(?:the\s+|this\s+|our\s+)?[\w -]+)?$", flat)
    if m:
        _text_check(st, _subject_text(m.group("x")), negative, subject="")
        return True
    # "the current channel is Aurora News": a named element shows a value
    m = re.match(r"^(?P<subject>.+?)\s+(?:is|are|equals|=)\s+(?P<v>.+)$", flat, re.I)
    if m and not re.search(_SHOWN + r"$", flat, re.I) and not re.match(r"^(?:in|on|at|under|inside|among|within)\b|^"
                                                                       + _SHOWN + r"\b", m.group("v"), re.I):
        declared = grounding.tree_elements(m.group("subject"), st.ctx, prefer_node=st.node, minimum=0.8)
        live = grounding.live_elements(m.group("subject"), st.live, minimum=0.8)
        if declared or live:
            _text_check(st, _subject_text(m.group("v")), negative, subject=m.group("subject"))
            return True
        label = _label_said_loosely(st, m.group("subject"))
        if label and "label" in st.param_names(V.WAIT_FOR_ELEMENT):   # "the failure rate is 0%": "Failures 0%"
            value = _subject_text(m.group("v"))
            st.prove(lambda: checks.element(st.ctx, text=value, label=label, present=not negative,
                                            description=f"Check {label!r} {'is not' if negative else 'is'} {value!r}"))
            return True
    # "Melody TV is listed" / "the Save button is visible" / "buy milk is gone"
    m = re.match(r"^(?P<text>.+?)\s+(?:is|are|should be|must be|can be seen|still)?\s*(?:still\s+)?"
                 + _SHOWN + r"(?:\s+(?:on|in|at)\s+(?P<where>.+))?$", flat, re.I)
    if m:
        _text_check(st, _subject_text(m.group("text")), negative, subject="", where=m.group("where") or "")
        return True
    # "it was saved", "they were added": what the task made or named last is shown
    m = re.match(r"^(?:it|this|that|they)\s+(?:was|were|is|are|got|has been|have been)\s+(?:successfully\s+)?"
                 r"(?:saved|created|added|stored|recorded|submitted|made)$", flat, re.I)
    if m and st.last_object and not _names_a_control(st, st.last_object):
        _text_check(st, st.last_object, negative, subject="")
        return True
    m = re.match(r"^(?:the\s+|its\s+|their\s+|his\s+|her\s+)?(?P<label>[a-z][a-z -]{1,40}?)\s+(?:is|are|reads?|says?)\s+"
                 r"(?P<v>\S.*)$", flat, re.I)
    if m and st.live is not None and _labelled_text(st, m.group("label"), _subject_text(m.group("v")), negative):
        return True
    if _declared_fact(st, flat, negative):
        return True
    if re.search(r"\b(?:is|are|was|were|should|must)\b", flat, re.I):
        if st.live is None and st.moved and st.open_world:
            # "stop mail-relay and check mail-relay is stopped": read on the screen the action leads to
            raise Defer(c.text, replace_with=[c.text])
        # a statement this planner cannot read: checking its words as text could pass by accident
        raise Unplannable(f"I cannot tell what to check in {body!r}", body)
    if _relation_check(st, flat, negative):
        return True
    _text_check(st, _subject_text(flat), negative, subject="")
    return True


_NAME_OR_NUMBER = re.compile(r"(?<![\w.])(?:[A-Z][\w'’-]*|[-+]?\d[\d,]*(?:\.\d+)?)(?![\w])")
_NOT_NAMES = {"The", "A", "An", "I", "It", "This", "That", "There", "We", "You"}


# "the channel on screen is Aurora News", "you should end up on Cinema Nova", "it should wrap round to Tech Today",
# "it's Melody TV now": the channel on now, by its name
_CHANNEL_NOW = re.compile(
    r"^(?:the\s+)?(?:current\s+)?channel\s+(?:(?:currently|now)\s+)?(?:(?:on\s+(?:the\s+)?screen|on\s+now|playing|shown|"
    r"showing|on|(?:we|you|i)(?:['’]re|\s+are|['’]m|\s+am)\s+on)\s+)?(?:is|shows)\s+(?:now\s+)?(?P<x>.+?)(?:\s+now)?$|"
    r"^(?:we|you|i|it|the\s+tv|the\s+box|live\s+tv|the\s+channel)\s+(?:should\s+|will\s+|must\s+)?(?:now\s+)?"
    r"(?:end(?:s|ed)?\s+up|land(?:s|ed)?|"
    r"wrap(?:s|ped)?(?:\s+(?:round|around|back))?|go(?:es)?\s+back|(?:is|are|am)\s+back|get(?:s)?\s+back)\s+"
    r"(?:back\s+)?(?:on|at|to|in)\s+(?P<y>.+?)(?:\s+now)?$|"
    r"^(?:it|this)(?:['’]s|\s+is|\s+(?:should|must)\s+(?:now\s+)?be)\s+(?:now\s+)?(?P<z>.+?)(?:\s+now)?$|"
    r"^(?P<w>(?-i:[A-Z0-9])[^,;]*?)\s+is\s+(?:now\s+)?on(?:\s+(?:now|right\s+now|air))?$|"
    # "we're watching Kids Planet", "the TV is tuned to Wild Earth": a channel only when one is called so
    r"^(?:we|you|i|it|the\s+tv|the\s+box)(?:['’]re|['’]s|['’]m|\s+are|\s+is|\s+am)\s+(?:now\s+|still\s+)?"
    r"(?:watching|tuned\s+(?:in\s+)?to)\s+(?P<v>.+?)(?:\s+now)?$", re.I)


# "channel 5 is Melody TV", "Secrets of the Reef is showing on channel 5 tonight"
_ON_CHANNEL = re.compile(r"^(?:the\s+)?channel\s*(?:number\s*)?(?P<n>\d{1,4})\s+(?:is|shows?|reads?)\s+(?P<x>.+?)"
                         r"(?:\s+(?-i:tonight|now|today))?$|^(?P<y>.+?)\s+(?:is\s+)?(?:on|showing\s+on|playing\s+on|airing\s+on)\s+"
                         r"channel\s*(?P<m>\d{1,4})(?:\s+(?-i:tonight|now|today))?$", re.I)


def _tuned_shows(st: State, number: str, said: str, negative: bool) -> None:
    """After tuning *number*: a channel's name is read from the banner (the guide names every channel), anything
    else (a programme) wherever the screen shows it."""
    if not (channel_number(st, said) is not None and tuned_name_check(st, number, said, negative)):
        _text_check(st, said, negative, subject="")


def _channel_named_check(st: State, flat: str, negative: bool) -> bool:
    alone = re.fullmatch(r"(?:(?:we['’]re|we\s+are|it['’]s|it\s+is)\s+)?(?:on\s+)?(?:ch|channel)\.?\s*(\d{1,4})", flat.strip(), re.I)
    if alone and st.ctx.navigation.nodes and st.has(V.PRESS_KEY):   # "…, channel 8" said as what holds
        channel_check(st, alone.group(1), negative)
        return True
    m = _CHANNEL_NOW.match(flat.strip())
    if m is None or not st.ctx.navigation.nodes or not st.has(V.PRESS_KEY):
        return False
    name = re.sub(r"^(?:the\s+)?(?:channel\s+)?", "", m.group("x") or m.group("y") or m.group("z") or m.group("w")
                  or m.group("v"),
                  flags=re.I).strip()
    name = name.strip("\"'“”‘’ ")
    said_number = re.fullmatch(r"(?:ch|channel)\.?\s*(\d{1,4})", name, re.I)
    if said_number:   # "the current channel shows "CH 8"": its number, read where the channel on now shows
        channel_check(st, said_number.group(1), negative)
        return True
    known = channel_names(st)
    numbered = re.match(r"^(\d{1,4})\s+(?P<n>\S.*)$", name)
    if numbered and channel_number(st, numbered.group("n")) is not None:
        name = numbered.group("n")   # "wraps round to 1 Aurora News": the channel's number and its name
    if not name or re.fullmatch(r"\d+", name) or grounding.screens(name, st.ctx, minimum=0.85):
        return False   # a number, or a screen ("we should be back on Live TV"): read elsewhere
    if channel_number(st, name) is None and not (m.group("x") and known):
        return False   # "it's a 2019 drama": no channel's name; the channel said in words is still read as one
    channel_name_check(st, name, negative)
    return True


# "the Star Cadets replay is from Thursday", "Comedy Gala aired on Laugh Track": what an item the tree names is from
_ITEM_FROM = re.compile(r"^(?:the\s+)?(?P<x>.+?)(?:\s+(?:replay|programme|program|show|episode|recording|item|entry|"
                        r"listing|tile))?\s+(?:is|was|are|were|comes|came|airs|aired|is\s+dated|was\s+shown|was\s+on)\s+"
                        r"(?:from|on|at|by|dated)\s+(?P<v>\S.*)$", re.I)


def _declared_fact(st: State, flat: str, negative: bool) -> bool:
    """"the Star Cadets replay is from Thursday": an item the tree declares by its own name (one element, with a
    selector) shows the value said, where its screen lists it; a wrong value fails the check there."""
    m = _ITEM_FROM.match(flat)
    if m is None or not st.ctx.navigation.nodes:
        return False
    name = m.group("x").strip()
    found = [t for t in grounding.tree_elements(name, st.ctx, prefer_node=st.node, minimum=0.9)
             if not t.element.many and t.element.selector and words(t.element.text or t.element.name) == words(name)]
    if len({t.node.id for t in found}) != 1:
        return False
    t = found[0]
    if st.node != t.node.id:
        st.goto(t.node)
    value = _subject_text(m.group("v"))
    st.prove(lambda: checks.element(st.ctx, selector=t.element.selector, text=value, present=not negative,
                                    description=f"Check {name} {'is not' if negative else 'is'} from {value}"))
    return True


def _relation_check(st: State, flat: str, negative: bool) -> bool:
    """"Dan pays Bob 256.48": a relation stated in words, shown as a row ("Dan | Bob | 256.48").

    The names and numbers it states must all show in one row, in the order stated (who pays whom is
    the order of the row's columns); a row in another order, or none, fails the check at run time.
    """
    tokens = [t for t in _NAME_OR_NUMBER.findall(flat) if t not in _NOT_NAMES]
    if len(tokens) < 2 or not st.open_world or not re.search(r"\s[a-z]{2,}\s", f" {flat} "):
        return False   # a relation has a word between its names ("pays", "owes"); a tree's screens say more
    if st.moved:
        raise Defer(flat)   # the row is on the screen the steps before lead to: read it there
    if st.live is None or grounding.live_elements(flat, st.live, minimum=0.9):
        return False   # the words themselves are on the screen
    rows = [e for e in st.live.elements if e.role in (ROLE_ROW, ROLE_LISTITEM) and "header-row" not in e.hint.split()
            and _in_order(tokens, e.text or e.name)]
    if len(rows) != 1:
        return False   # none, or no one row: the text check says what is missing
    row = rows[0].text or rows[0].name
    st.prove(lambda: checks.element(st.ctx, row=row, present=not negative,
                                    description=f"Check a row shows {' … '.join(tokens)} in that order"))
    return True


def _in_order(tokens: list[str], text: str) -> bool:
    at = 0
    for t in tokens:
        m = re.compile(rf"(?<![\w.]){re.escape(t)}(?![\w])", re.I).search(text, at)
        if m is None:
            return False
        at = m.end()
    return True


def _names_a_control(st: State, text: str) -> bool:
    """*text* is the label of a button or link (the "Create ticket" just pressed), not something the task made:
    seeing it proves nothing was saved."""
    return any(e.role in ("button", "link") and grounding.norm(e.name or e.text) == grounding.norm(text)
               for e in (st.screen.elements if st.screen is not None else ()))


_ROLE_SUFFIX = re.compile(r"^(?P<t>.+?)\s+(?P<r>button|link|tab|checkbox|heading|field|dropdown|option|menu item)$", re.I)
_ROLE_OF = {"button": "button", "link": "link", "tab": "tab", "checkbox": "checkbox", "heading": "heading",
            "field": "textbox", "dropdown": "combobox", "option": "option", "menu item": "menuitem"}


def _whole_list_first(st: State, text: str) -> None:
    """"Emma Schmidt is not listed" on a list of several pages: this page alone cannot prove it (she may be on
    the next one). The app's search for her first, and the check on its results; with no search, refused."""
    from server.planners import records
    from server.planners.list_search import record_shaped
    from server.planners.site_search import search_for, site_search_box

    if re.search(r"\b(?:gone|no longer|deleted|removed|disappeared|went away)\b", st.said, re.I):
        return   # after its deletion, said so: the record was found to be deleted, on the page it was listed on
    if st.live is None or st.moved or not st.open_world or not record_shaped(text.strip()) \
            or records.more_pages(st) is None:
        return
    if grounding.rows(text, st.live, minimum=0.9) or grounding.live_elements(text, st.live, minimum=0.9):
        return   # shown on this page now: the check fails while it stays, wherever else it is
    box = site_search_box(st, as_you_type=False)   # an absence is shown by a results page, not a popup
    if box is not None:
        search_for(st, text, box)
        raise Defer(text, replace_with=[f'check that "{text}" is not shown'])
    raise Unplannable(f"the list shows one page of several: {text!r} could be on another page, so this page cannot "
                      "show it is absent; search or filter for it first", text)


def _someone_named(st: State, owner: str) -> bool:
    """*owner* names a record or a group by name ("Ann", "the Staff group"), not the list or the page shown."""
    if st.live is None or not re.search(r"(?-i:[A-Z0-9])", owner):
        return False
    said = re.sub(r"\s+(?:list|table|page|screen|view|section|tab)$", "", owner.strip(), flags=re.I)
    titles = [st.live.title] + [e.name or e.text for e in st.live.elements if e.role in ("heading", "tab") or e.selected]
    return not any(grounding.similarity(said, t) >= 0.85 for t in titles if t)


_CAPITALISED = re.compile(r"(?<![\w'’])(?-i:[A-Z0-9][\w'’&.-]*)(?:\s+(?-i:[A-Z0-9][\w'’&.-]*))*")


def _listed_here(st: State, text: str, where: str) -> bool:
    """*where* is a list said by its kind ("the watch list") and a row of the screen shown lists *text*, while no
    control here names *where* as another place to go ("the groups list" beside a "Groups" link)."""
    m = re.fullmatch(r"(?:the\s+|my\s+|our\s+)?(?P<k>[a-z]+(?:\s+[a-z]+)?)\s+(?:list|listing|table|overview)", where.strip(),
                     re.I)
    if m is None or st.live is None or st.moved:
        return False
    if grounding.live_elements(m.group("k"), st.live, roles=frozenset({"link", "tab", "menuitem", "button"}),
                               minimum=0.85):
        return False
    want = grounding.norm(text)
    return bool(want) and any(e.container and not e.hidden and want in grounding.norm(e.name or e.text)
                              for e in st.live.elements)


def refuse_unfalsifiable(st: State, text: str) -> None:
    """"Suppliers group is not shown" where the page shows "Suppliers" but never the words together: a check
    that could never fail. Refused, with what to say instead, rather than passed on any screen."""
    if st.live is None or len(words(text)) < 2:
        return
    shown = [t.casefold() for t in st.live.visible_texts()]
    if any(text.casefold() in t for t in shown):
        return
    names = [n for n in _CAPITALISED.findall(text) if n.casefold() != text.casefold()]
    if any(n.casefold() in t for n in names for t in shown):
        raise Unplannable(f"{text!r} is never shown as such, so its absence proves nothing: say the name alone "
                          f"({names[0]!r}), or a count of what must be absent", text)


# a count said to have been found ("7 pages were found", "3 results are returned")
_COUNT_FOUND = re.compile(r"^(?P<n>\d+)\s+(?P<k>[a-z]+)\s+(?:were|was|are|is|have\s+been|has\s+been|got)\s+"
                          r"(?:found|returned|matched|listed|shown)$", re.I)


# "Neon Tides detail page", "the Ocean Giants info screen is shown": an item's own screen, by its name
_ITEM_PAGE = re.compile(r"^(?:the\s+)?(?P<x>(?-i:[A-Z0-9\"'“])[^,;]*?)(?:['’]s)?\s+(?P<k>(?:detail|details|info|information)\s+)?"
                        r"(?:page|screen|view)(?:\s+(?:is\s+)?(?:shown|displayed|open|opened|up))?$", re.I)


def _item_page_shown(st: State, text: str, negative: bool) -> bool:
    """*text* says an item's own screen is shown ("Neon Tides detail page"): the screen of one item (one whose
    title element says what it shows) has that name in its title. False where no such screen is declared."""
    m = _ITEM_PAGE.match(text.strip())
    if m is None or not st.ctx.navigation.nodes:
        return False
    name = m.group("x").strip("\"'“” ")
    if grounding.screens(name, st.ctx, minimum=0.85):
        return False   # "the Settings page": a screen of its own name (read elsewhere)
    pages = [n for n in st.ctx.navigation.nodes if any(not e.text for e in _titles(n))
             and (not m.group("k") or re.search(r"\b(?:detail|details|info)\b", f"{n.label} {' '.join(n.keywords)}",
                                                 re.I))]
    if len(pages) != 1:
        return False
    title = next(e for e in _titles(pages[0]) if not e.text)
    st.prove(lambda: checks.element(st.ctx, selector=title.selector, text=name, present=not negative,
                                    description=f"Check {name}'s {pages[0].label} is {'not ' if negative else ''}shown"))
    return True


def _text_check(st: State, text: str, negative: bool, subject: str, where: str = "", ocr: bool = False) -> None:
    """*text* is shown (on *subject*, an element the tree declares, when named)."""
    if not text:
        raise Unplannable("nothing to check")
    if st.last_object and re.fullmatch(r"(?:the\s+|this\s+|that\s+)?(?:setting|option|switch|toggle)", subject.strip(), re.I):
        subject = st.last_object   # "turn the lock on, then check the setting reads On": that setting, not any "On"
    if not subject and not where and _item_page_shown(st, text, negative):
        return
    screen = [t.node for t in grounding.screens(text, st.ctx, minimum=0.95)] if not subject and not where else []
    if len(screen) == 1 and grounding.norm(text) == grounding.norm(screen[0].label) and _titles(screen[0]):
        _screen_shown(st, screen[0], negative)   # "check Live TV is shown": that screen, by its own title
        return
    found = _COUNT_FOUND.match(text.strip())
    if found:   # "the results say 7 pages were found": the app writes the count its own way ("found 7 pages")
        text = f"{found.group('n')} {found.group('k')}"
    if PRONOUN.fullmatch(text.strip()):
        if not st.last_object:   # checking the word "she" itself could pass by accident
            raise Unplannable(f"nothing named before says what {text.strip()!r} is: name it", text)
        text = st.last_object   # "then check she is listed"
    if negative and re.match(r"^(?:it|they|he|she|this|that)(?:['’]s|['’]re|\s+is|\s+are|\s+was|\s+were|\s+has)\b",
                             text.strip(), re.I):
        # "check it's not assigned to carol": a sentence about "it", which no page shows word for word, so its
        # absence would pass whatever the page says
        raise Unplannable(f"I cannot tell what {text.split()[0]!r} is in {text!r}: name it", text)
    if negative and not subject and _proved_gone(st, text):
        # "delete Rake and check it is no longer listed": the deletion's own check proved its row or link gone;
        # the words themselves may still show, in the notice that says it was deleted
        st.explicit_check_last = True
        return
    if negative and not subject and not where:
        _whole_list_first(st, text)
        if not st.moved:   # on the screen the check will read: a phrase it could never show proves nothing
            refuse_unfalsifiable(st, text)
    m = _ROLE_SUFFIX.match(text)
    if m and not subject and "role" in st.param_names(V.WAIT_FOR_ELEMENT) and st.open_world:
        role = _ROLE_OF[m.group("r").lower()]
        st.prove(lambda: checks.element(st.ctx, text=_subject_text(m.group("t")), role=role, present=not negative))
        return
    if where and _listed_here(st, text, where):
        where = ""   # "Python downloads appears in the watch list", on that list: a row here shows it
    if where:
        screen = grounding.screens(where, st.ctx, minimum=0.75) or grounding.screens(
            re.sub(r"\s+(?:list|listing|screen|page|section|tab|catalogue|catalog)$", "", where.strip(), flags=re.I),
            st.ctx, minimum=0.8)   # "in the movies list": the movies
        if screen:
            if st.node != screen[0].node.id:
                st.goto(screen[0].node)
        elif not subject:
            subject = where   # "in the banner": an element
    if subject and st.live is not None and not st.moved and st.open_world and _PREDICATE.match(text.strip()) \
            and _of_a_named_record(st, subject, text, negative):
        return
    if subject and st.live is not None and not st.moved and st.open_world and is_this_page(st, subject) \
            and not grounding.tree_elements(subject, st.ctx, prefer_node=st.node, minimum=0.9):
        subject = ""   # "open textwrap and check it mentions dedent": the page shown is textwrap's, and says it
    if subject:
        screen = grounding.screens(subject, st.ctx, minimum=0.8)
        declared = grounding.tree_elements(subject, st.ctx, prefer_node=st.node)
        if screen and (not declared or declared[0].element.opens == screen[0].node.id
                       or screen[0].score >= declared[0].score
                       or declared[0].node.id == screen[0].node.id and not _stems(subject) & _stems(declared[0].element.name)):
            # ("the setting reads 'Audio language: Spanish'": the Settings screen, not its title, which matched
            # only through its screen's name)
            # "the guide lists Laugh Track": the subject is a screen, the text must show on it
            if st.node != screen[0].node.id:
                st.goto(screen[0].node)
            subject = ""
    if subject:
        declared = grounding.tree_elements(subject, st.ctx, prefer_node=st.node)
        if declared and declared[0].element.selector:
            t = declared[0]
            if st.node != t.node.id:
                st.goto(t.node)
            st.prove(lambda: checks.element(st.ctx, selector=t.element.selector, text=text, present=not negative,
                                            description=f"Check {t.element.name} {'does not show' if negative else 'shows'} {text!r}"))
            if not negative and t.element.many:
                st.last_object = text   # "is Cup Final Highlights in the results? if so play it": it is that one
            elif t.element.opens and not t.element.many:
                st.last_object = t.element.text or t.element.name   # "Boreal Sports shows X, then select that row"
            return
        if _on_its_tab(st, subject, text, negative):
            return
        core = re.sub(r"^(?:the|a|an)\s+|\s+(?:field|box|input|textbox|text box|dropdown|select|drop-down)$", "",
                      subject.strip(), flags=re.I)
        live = grounding.live_elements(core, st.live, minimum=0.75)
        own = own_part(st, core) if not live else ""
        if own:   # "the rye loaf description" on Rye Loaf's page: its Description
            live = grounding.live_elements(own, st.live, roles=frozenset({"textbox", "combobox"}), minimum=0.85)
        if live and live[0].live is not None and live[0].live.selector and "text" in st.param_names(V.WAIT_FOR_ELEMENT):
            el = live[0].live
            if el.role in ("combobox", "textbox"):
                # that field's value, where the device reads a field by its label (not another box's)
                named = el.name if el.name and "label" in st.param_names(V.WAIT_FOR_ELEMENT) and own else ""
                st.prove(lambda: checks.element(st.ctx, text=text, role=el.role, present=not negative, label=named))
                return
            if el.role in ("text", "cell", "term") and not el.clickable and 0 < len(words(el.label)) <= 4 \
                    and "label" in st.param_names(V.WAIT_FOR_ELEMENT) and not set(words(el.label)) & set(words(text)):
                # "the RPS is 0": the value the label "RPS" shows just after it, never a "0" elsewhere on the page
                st.prove(lambda: checks.element(st.ctx, text=text, label=el.label, present=not negative,
                                                description=f"Check {el.label!r} {'is not' if negative else 'is'} "
                                                            f"{text!r}"))
                return
        if not live and not declared and _in_its_row(st, subject, text, negative):
            return
        if live and not declared and _in_named_row(st, subject, live, text, negative):
            return

        if not (set(words(subject)) & GENERIC_SUBJECTS) and not live and not declared and not _shown_alike(st, text):
            if st.moved:
                raise Defer(subject)   # the screen the steps before lead to may have it: look then
            raise Unplannable(f"no element called {subject.strip()!r} on any screen of this device", subject)
        # a subject we cannot place ("the list", "the page"): the text itself must show
    if not subject:
        # "check the banner is shown": the words may name a declared element rather than a text
        declared = grounding.tree_elements(text, st.ctx, prefer_node=st.node, minimum=0.9)
        if declared and declared[0].element.selector and st.node in (None, declared[0].node.id) \
                and text.lower() not in (declared[0].element.text or "").lower() \
                and set(words(text)) <= set(words(declared[0].element.name)) | set(words(declared[0].element.text or "")):
            # (only where the words name the element and say nothing more: "Parental lock: On" says its state)
            t = declared[0]
            if st.node is None and st.has(V.GOTO):
                st.goto(t.node)
            st.prove(lambda: checks.element(st.ctx, selector=t.element.selector, present=not negative,
                                            description=f"Check {t.element.name} is {'gone' if negative else 'shown'}"))
            return
    text = named_of_kind(st, text, negative)
    if not negative:
        text = _as_shown(st, text)
        if st.moved and st.live is None and st.node is None and st.open_world and st.screen is not None:
            raise Defer(text)   # a page of an app never mapped: what it shows, and how, is read once it is shown
    st.prove(lambda: checks.text_shown(st.ctx, text, not negative, prefer_ocr=ocr))
    if not negative:
        st.last_object = text   # "verify Blue Mug is there, then open it"


# what a record is said to be before its value ("tagged HowTo", "filed under Billing", "marked as urgent")
# (only a tag said of it: "assigned to bob" in its row may be the requester's bob, "filed under Billing" its own title's)
_PREDICATE = re.compile(r"^(?:tagged|labell?ed)\s+(?:as\s+|with\s+)?", re.I)
_RECORD_ROLES = frozenset({"link", "heading", "row", "listitem", "cell", "article"})


def _of_a_named_record(st: State, subject: str, text: str, negative: bool) -> bool:
    """"Feature Flag is tagged HowTo": what is said of a record named on the screen (its link, its heading, its
    row) is checked where that record shows, never anywhere on the page ("… are tagged HowTo" in another
    tiddler's text is not Feature Flag's tag). Its row, or the card its heading heads; else its own page, opened
    by its link; else it cannot be checked here."""
    assert st.live is not None
    if set(words(subject)) & GENERIC_SUBJECTS or not re.match(r"^(?:the\s+)?(?-i:[A-Z0-9\"'“])", subject.strip()):
        return False
    found = [t.live for t in grounding.live_elements(subject, st.live, minimum=0.85)
             if t.live is not None and t.live.role in _RECORD_ROLES and not t.live.hidden]
    if not found:
        return False
    # its heading over its card first, then a row it is in, then its link
    found.sort(key=lambda e: (not (e.role == "heading" and e.container), not e.container, e.role != "link"))
    el = found[0]
    value = _PREDICATE.sub("", text.strip()) or text
    if set(words(value)) <= set(words(el.label)):
        return False   # "Billing address is tagged Billing": its own name says it, whatever its tags
    row = el.container if el.container and el.container != el.label else ""
    if row:
        st.prove(lambda: checks.element(st.ctx, text=value, row=row, present=not negative,
                                        description=f"Check {el.label!r} {'is not' if negative else 'is'} {text!r}"))
        return True
    if el.role == "link" and el.href and not st.moved:
        st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, el.label, live=el), f"Open {el.label!r}")
        raise Defer(subject)
    raise Unplannable(f"nothing on the screen shows what {el.label!r} is: open its page first", subject)


def _in_its_row(st: State, subject: str, text: str, negative: bool) -> bool:
    """"the Work calendar says Meetings and deadlines", where one row (a card) of a list shows Work: the words must
    show in that row, never elsewhere on the page."""
    if st.live is None or st.moved or is_this_page(st, subject) \
            or re.search(r"\b(?:table|page|list|screen|tab|section|menu|panel|column|field|form)$", subject.strip(), re.I):
        return False   # "the books table has a column genre": the page shown, not a row of it
    from server.planners.site_search import without_kind

    name = without_kind(st, re.sub(r"^(?:the|a|an)\s+", "", subject.strip(), flags=re.I), named=False)
    rows = [r for r in grounding.rows(name, st.live, minimum=0.85)
            if (grounding.norm(r.name) + " ").startswith(grounding.norm(name) + " ")]   # the row is the record named
    if len(rows) != 1:
        return False
    row = rows[0].name
    st.prove(lambda: checks.element(st.ctx, text=text, row=row, present=not negative,
                                    description=f"Check {name!r} {'does not show' if negative else 'shows'} {text!r}"))
    return True


def _in_named_row(st: State, subject: str, live: list[grounding.Target], text: str, negative: bool) -> bool:
    """"pump_a is running" where pump_a is a name (a link, a cell) in a row of a list: the words must show in that
    row, never in another one (another process that runs). Not where two rows are named alike, nor where the words
    are part of the name itself, nor for a record described rather than named ("the bug that drops the last row
    has been resolved")."""
    el = live[0].live
    if el is None or not el.container or el.role in ("textbox", "combobox") or st.moved or st.live is None \
            or re.search(r"\b(?:that|which|who|whose)\b", subject, re.I) or re.match(r"(?:been|being)\b", text, re.I):
        return False
    if any(t.live is not None and t.live.container != el.container and t.score >= live[0].score - 0.05
           for t in live[1:]):
        return False
    if set(words(text)) & set(words(el.label)) or grounding.norm(text) in grounding.norm(el.label):
        return False
    row = el.container
    text = _as_the_row_says(st, row, text, el.label)
    st.prove(lambda: checks.element(st.ctx, text=text, row=row, present=not negative,
                                    description=f"Check the row of {el.label!r} {'does not show' if negative else 'shows'} "
                                                f"{text!r}"))
    return True


def _as_the_row_says(st: State, row: str, text: str, name: str) -> str:
    """"up" where the row says RUNNING: a state in the row's own word for it (never its opposite's word)."""
    from server.planners.rows_in_state import alike, rows_of, shown_states, shown_word, state_stem

    assert st.live is not None
    if len(text.split()) != 1:
        return text
    said = alike(state_stem(text))
    shown = shown_states(row, rows_of(st.live).get(row, []), name=name)
    if state_stem(text) in shown or not said & shown:
        return text
    return shown_word(row, said, name) or text


def own_part(st: State, said: str) -> str:
    """"rye loaf description" on the page of Rye Loaf: "description", the part of it this page has; else ""."""
    if st.live is None or st.moved:
        return ""
    ws = said.split()
    return next((" ".join(ws[k:]) for k in range(len(ws) - 1, 0, -1) if is_this_page(st, " ".join(ws[:k]))
                 and grounding.live_elements(" ".join(ws[k:]), st.live, roles=frozenset({"textbox", "combobox"}),
                                             minimum=0.85)), "")


def _stems(text: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in words(text) if w not in STOPWORDS}


def _label_said_loosely(st: State, subject: str) -> str:
    """The one short label on the screen (plain text, a word to three) whose words are all among the subject's
    ("Failures" of "the failure rate", "Users" of "the user count"); "" when none, or more than one, is."""
    if st.live is None:
        return ""
    said = _stems(subject)
    found = {e.label for e in st.live.elements if e.role == "text" and not e.clickable and not e.hidden
             and 0 < len(words(e.label)) <= 3 and _stems(e.label) and _stems(e.label) <= said}
    return found.pop() if len(found) == 1 else ""


_PAGE_KINDS = r"tab|view|panel|section|page|screen|article|docs|documentation|doc\s+page|help\s+page"
_TITLE_VERB = r"\s+(?:is|reads?|says?|shows?|=|(?:should|must|ought\s+to|has\s+to)\s+(?:be|read|say|show))\s+"
_TAB_SUBJECT = re.compile(r"^(?:the\s+)?(?P<x>\S.*?)(?:\s+(?P<k>" + _PAGE_KINDS + r"))?$", re.I)


def _on_its_tab(st: State, subject: str, text: str, negative: bool) -> bool:
    """"the Failures tab lists /no-such-page", "the pairing page mentions Leak L3", "the FAQ says …": the text is
    read on that tab or page, opened first where it is not the one shown (and proved open before the text is
    looked for). A subject that says no tab or page must be the very name of a link or tab of the app's
    navigation; a page's link may be one of a collapsed navigation (its click follows it)."""
    m = _TAB_SUBJECT.match(subject.strip())
    if m is None or st.live is None:
        return False
    said_kind = bool(m.group("k"))
    if not said_kind and named_here(st, m.group("x")):
        return False   # "the status does not show Running": a label of this page, never a page to leave for
    if is_this_page(st, m.group("x")):
        return False   # "the ticket page shows closed" on the ticket's own page: read here
    tab = _its_tab(st, m.group("x"), said_kind)
    if tab is None:
        return False
    if _open_its_page(st, m.group("x"), m.group("k") or ""):
        if KIND_TAIL_ANY.match(text) and not negative:   # "lists the Leak L3 sensor": read as that page names it
            raise Defer(tab.label, replace_with=[f"check the page shows {text}"])
        raise Defer(tab.label, replace_with=[f'check "{text}" is {"not " if negative else ""}shown'])
    st.prove(lambda: checks.text_shown(st.ctx, text if negative else _as_shown(st, text), not negative))
    return True


def _its_tab(st: State, name: str, said_kind: bool) -> UIElement | None:
    """The tab, or link to another page, that opens the page called *name*; a name that says no kind of page must be
    that very name."""
    assert st.live is not None
    tabs = [t for t in grounding.live_elements(name, st.live, roles=frozenset({"tab", "link", "menuitem", "treeitem"}),
                                               minimum=0.7 if said_kind else 0.95)
            if t.live is not None and (not t.live.hidden or t.live.role == "link" and goes_elsewhere(t.live))
            and (said_kind or goes_elsewhere(t.live) or t.live.role in ("tab", "treeitem"))
            and not plural_of_said(name, t.label)]
    # the link called just so before one that says more ("Options" before "Advanced Options"), and one to a page of
    # its own before one to a part of another page ("options.html" before "parameters.html#options")
    tabs.sort(key=lambda t: (grounding.norm(t.label) != grounding.norm(name), "#" in (t.live.href or "") if t.live else True))
    if not tabs and said_kind and st.live is not None and words(name):
        # "the license page" whose one link says more ("BSD-3-Clause License"): every word said, in one link only
        holding = {e.href: e for e in st.live.elements if e.role == "link" and e.href and goes_elsewhere(e)
                   and not e.hidden and set(words(name)) <= set(words(e.name or e.text))}
        return next(iter(holding.values())) if len(holding) == 1 else None
    return tabs[0].live if tabs else None


def _open_its_page(st: State, name: str, kind: str) -> bool:
    """Open the page called *name* by its tab or link (proved open); False where it is open already, or where
    nothing here opens it."""
    tab = _its_tab(st, name, bool(kind))
    if tab is None or tab.selected or {"selected", "active", "current"} & set(tab.hint.split()) \
            or tab.role != "treeitem" and leads_here(st, tab):   # (a tree's item is shown by selecting it)
        return False
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 1.0, tab.label, live=tab),
                  f"Open the {tab.label!r} {kind or ('tab' if tab.role == 'tab' else 'page')}")
    try:
        # "json (package)" opens json's page: the name without its aside
        st.check(checks.page(st.ctx, grounding.bare_label(tab.name or tab.text) or tab.name or tab.text))
    except CannotCheck as exc:
        raise Unplannable(str(exc)) from exc
    return True


# a name, then a word of the tester's for what it is ("the Checking account", "the Acme supplier")
_NOUN_TAIL = re.compile(r"^(?P<x>(?:(?:the|a|an)\s+)?(?-i:[A-Z0-9])\S*(?:\s+\S+)*?)\s+(?P<k>account|card|user|customer|"
                        r"supplier|vendor|payee|product|project|ticket|issue|task|order|invoice|category|tag|group|team|"
                        r"member|device|box|channel|movie|show|watch|bookmark|contact|company|client|study|trial|job|"
                        r"process|program|service|site|space|board|list|report)$", re.I)


def _as_shown(st: State, text: str) -> str:
    """*text* as the screen shown now names a record, where the tester wrapped the name in a word for what it is:
    "the Password reset requested mail" is the row "Password reset requested …". Only where the rest is, word for
    word, the whole name of an element shown, or (two words or more) the start of one; unchanged where the screen
    shows *text* itself, where the steps before change the screen, or where the tester quoted it. "Invalid email"
    never becomes "Invalid" of "Invalid password"; "Order 5 shipped" never becomes "Order 5"."""
    if st.live is None or st.moved or not st.open_world or re.search(
            rf"[\"'“‘]{re.escape(text)}[\"'”’]", st.said or ""):
        return text
    if shows_text(st, text):
        return text
    names = [grounding.norm(e.name or e.text) for e in st.live.elements if not e.hidden and (e.name or e.text)]

    def names_one(x: str) -> bool:
        said = grounding.norm(x)
        return any(n == said or len(said.split()) >= 2 and n.startswith(said + " ") for n in names)

    described = DESCRIBED.match(text)
    core = described.group("x") if described else text
    tail = KIND_TAIL.match(core)
    kind = _NOUN_TAIL.match(core) if tail is None else None
    if kind is not None and on_list_of(st, kind.group("k")):
        tail = kind   # "the Savings account" on the accounts: the row "Savings" (elsewhere "Acme" may be a customer)
    candidates = ([core] if described else []) + \
        ([re.sub(r"^(?:the|a|an)\s+", "", tail.group("x"), flags=re.I)] if tail else [])
    found = next((x for x in candidates if re.search(r"[A-Z0-9]", x) and names_one(x)), "")
    if found:
        return found
    # "the Leak L3 sensor" where a table's column is headed "Sensor": the name, as a cell of it shows it whole
    from server.planners.records import without_header_word

    bare = without_header_word(re.sub(r"^(?:the|a|an)\s+", "", text, flags=re.I), st)
    shown = bare != text and grounding.norm(bare) in names
    return bare if shown else text


def _proved_gone(st: State, text: str) -> bool:
    """*text* names a record this plan's deletion already proved gone (its name, or the start of it)."""
    t = grounding.norm(text)
    return bool(t) and any(t == g or g.startswith(t + " ") for g in st.gone)


def _shown_alike(st: State, text: str) -> bool:
    """Some element shows *text*, its numbers aside ("3 items left" for "2 items left"): the tester's name
    for that element ("the item counter") need not match how the page names it."""
    if st.live is None or not re.search(r"\d", text):
        return False
    pattern = re.compile(r"\s*".join(r"\d+" if re.fullmatch(r"\d+", w) else re.escape(w) for w in text.split()) + r"$",
                         re.I)
    return any(pattern.match(t.strip()) for t in st.live.visible_texts())


def _page_check(st: State, name: str, negative: bool) -> None:
    node = [t for t in grounding.screens(name, st.ctx, minimum=0.8)   # by its own name, not by a keyword
            if max(grounding.similarity(name, t.node.label), grounding.similarity(name, t.node.id)) >= 0.9]
    if node and not negative and st.has(V.GOTO) and st.node == node[0].node.id:
        st.goto(node[0].node, always=True)   # goto to where we are only verifies it
        return
    if checks.has_check(st.ctx, V.WAIT_FOR_PAGE):
        st.prove(lambda: checks.page(st.ctx, name, not negative))
    else:
        st.prove(lambda: checks.text_shown(st.ctx, name, not negative))


def _state_check(st: State, subject: str, state: str, negative: bool) -> None:
    subject = re.sub(r"\s+(?:box|checkbox|check box|toggle|switch|option)$", "", subject, flags=re.I) or subject
    if negative:
        state = {"checked": "unchecked", "unchecked": "checked", "enabled": "disabled",
                 "disabled": "enabled"}.get(state, state)
        if state in ("selected", "focused"):
            raise Unplannable(f"cannot check that {subject!r} is not {state}")
    if grounding.rows(subject, st.live):
        st.prove(lambda: checks.element(st.ctx, row=subject, role=ROLE_CHECKBOX if state in ("checked", "unchecked")
                                        else "", state=state, description=f"Check {subject!r} is {state}"))
    else:
        st.prove(lambda: checks.element(st.ctx, text=subject, state=state, description=f"Check {subject!r} is {state}"))


def _value_check(st: State, subject: str, value: str, negative: bool) -> None:
    """"subtitles are on", "the language is set to French": the control named *subject* shows *value*."""
    if st.last_object and re.fullmatch(r"(?:the\s+|this\s+|that\s+)?(?:setting|option|switch|toggle|it)", subject.strip(),
                                       re.I):
        subject = st.last_object   # "enable the parental lock, so that the setting is shown as On": that setting
    value = _subject_text(value)
    low = value.lower()
    toggles = grounding.live_elements(subject, st.live, roles=frozenset({"checkbox", "switch"}), minimum=0.7)
    if toggles and low in ("on", "off", "enabled", "disabled"):
        state = "checked" if low in ("on", "enabled") else "unchecked"
        if negative:
            state = "unchecked" if state == "checked" else "checked"
        st.prove(lambda: checks.element(st.ctx, text=toggles[0].label, role=toggles[0].live.role, state=state))
        return
    declared = grounding.tree_elements(subject, st.ctx, prefer_node=st.node)
    row_text = declared[0].element.text if declared else ""
    opens = st.node_info(declared[0].element.opens) if declared and declared[0].element.opens else None
    if declared and low == "on" and not negative and re.match(r"(?-i:[A-Z0-9])", subject) and opens is not None \
            and opens.param and not declared[0].element.values and len(words(row_text)) > len(words(subject)) \
            and not re.search(r"\b(?:on|off)\b", row_text, re.I):
        # "make sure Tech Today is on": a name whose row shows more than it ("8 Tech Today Gadget Lab 20:00"), no
        # on/off, and opens the screen of one item (the channel playing), is no setting: it is on the air, shown
        _text_check(st, subject, negative, subject="")
        return
    if declared and declared[0].element.selector:
        t = declared[0]
        if st.node != t.node.id:
            st.goto(t.node)
        shown = value.capitalize() if low in ("on", "off") else value
        st.prove(lambda: checks.element(st.ctx, selector=t.element.selector, text=shown, present=not negative,
                                        description=f"Check {t.element.name} shows {shown}"))
        return
    dropdowns = grounding.fields(subject, st.live)
    if dropdowns and dropdowns[0].live is not None and dropdowns[0].live.role == "combobox":
        st.prove(lambda: checks.element(st.ctx, text=value, role="combobox", present=not negative))
        return
    if not words(subject):
        raise Unplannable("nothing to check")
    _text_check(st, value, negative, subject=subject)


# words a label adds to what it names without the page saying them ("the tracking number" is "Tracking: ZX9913")
_GENERIC_LABEL_WORDS = frozenset("number no value field code id amount text label name date time".split())


def _labelled_text(st: State, label: str, value: str, negative: bool) -> bool:
    """"the amount due is 88.20 EUR", "the tracking number is ZX9913" where the page reads them in its own text
    ("Amount due: 88.20 EUR. Due date: …", "… Tracking: ZX9913."): the label as the page writes it, its separator,
    then the value ("Amount due: 88.20 EUR"), checked in the one text that says the label; so "the due date is
    88.20 EUR" fails though that text holds both. A label said in more than one text, or in none, is no such check."""
    assert st.live is not None
    said = [w for w in words(label) if w not in STOPWORDS and len(w) >= 2]
    if not said or all(w in _GENERIC_LABEL_WORDS for w in said) or not value or len(value) > 80:
        return False

    # the label's words in order, a few marks apart; a word like "number" the page may leave out
    parts = [(re.escape(w[:max(4, len(w) - 2)]) + r"\w*", w in _GENERIC_LABEL_WORDS) for w in said]
    pattern = ""
    for part, optional in parts:
        joined = part if not pattern else rf"\W{{1,3}}{part}"
        pattern += f"(?:{joined})?" if optional else joined
    label_re = re.compile(rf"\b{pattern}", re.I)

    def label_span(text: str) -> tuple[int, int] | None:
        # the fullest: "due date" is "Due date: …", not the "due" of "Amount due" before it
        m = max(label_re.finditer(text), key=lambda m: (len(m.group(0).split()), -m.start()), default=None)
        return (m.start(), m.end()) if m else None

    found = [(e, span) for e in st.live.elements if not e.hidden and e.selector and (e.text or e.name)
             and e.role not in ("button", "link", "textbox", "combobox", "checkbox")
             for span in [label_span(e.text or e.name)] if span]
    if len({e.selector for e, _ in found}) != 1:
        return False
    el, (start, end) = found[0]
    text = el.text or el.name
    sep = re.match(r"[\s:=\-–—]*", text[end:]).group(0)   # type: ignore[union-attr]
    phrase = f"{text[start:end]}{sep}{value}"
    shown = re.search(re.escape(phrase), text, re.I)
    phrase = text[shown.start():shown.end()] if shown else phrase
    st.check(checks.element(st.ctx, selector=el.selector, text=phrase, present=not negative,
                            description=f"Check the text that says {label!r} {'does not show' if negative else 'shows'} "
                                        f"{value!r}"))
    return True


def _inside_quotes(head: str) -> bool:
    """*head* ends inside a quoted name: it opened a quote it did not close."""
    return head.count('"') % 2 == 1 or head.count("“") > head.count("”")
