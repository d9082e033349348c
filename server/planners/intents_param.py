"""Opening one item of a parameterised screen: "open River of Glass", "open the topic CLASSES".

A parameterised node (``NodeInfo.param``, ``NodeInfo.items``) is one screen
shown for many items — a movie's detail page, a table, a documentation topic.
When the thing a clause opens is one of its items, the clause grounds to
``goto(node, param=<item>)``: navigation clicks that item by its name and
verifies that the page shows it. The item is named as the tester wrote it,
in the item's own spelling ("harbor" in "Silent Harbor" stays a search, but
"open silent harbor" opens "Silent Harbor"); a phrase that names a screen or
control of its own better is left to the other intents.
"""
from __future__ import annotations

import re
from typing import Iterable

from server.planners import grounding
from server.planners.language import Act, Clause, clean, quoted
from server.planners.state import Defer, State
from shared import vocabulary as V
from shared.models import NodeInfo

ACTS = (Act.OPEN, Act.NAVIGATE, Act.CLICK, Act.NONE)
# "watch Melody TV", "tune to Tech Today": an item whose own screen is where it plays (a channel's live
# screen, a recording's player), not a detail page with a Play control of its own
PLAYING_ACTS = (Act.PLAY, Act.TUNE)
_PLAY_CONTROL = re.compile(r"^(?:play|watch|start|resume|listen)\b", re.I)
MIN_SCORE = 0.85
_LEAD = re.compile(r"^(?:on|at|to|into|up)\s+", re.I)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
_PAGE_WORDS = re.compile(r"\s+(?:page|screen|details?|detail page|view)$", re.I)


def _phrase(c: Clause) -> str:
    # the words as written: clean() would drop a leading "The" that is part of a title
    text = quoted(c.rest) or " ".join(c.rest.strip(" .!?;,").split())
    text = _LEAD.sub("", text) if clean(text) else ""
    return _PAGE_WORDS.sub("", text).strip()


def _category(phrase: str, node: NodeInfo) -> str:
    """The item's name once a leading word naming the node ("movie", "topic", "table") is dropped."""
    head, _, tail = phrase.partition(" ")
    names = {w.lower().rstrip("s") for w in re.findall(r"[^\W_]+", " ".join([node.id, node.label, node.param,
                                                                          *node.keywords]))
             if not w.startswith("{")}
    return tail.strip() if tail and head.lower().rstrip("s") in names else phrase


def item_of(phrase: str, node: NodeInfo) -> tuple[float, str]:
    """How well *phrase* names one of *node*'s items, and the item's words as it spells them."""
    best: tuple[float, str] = (0.0, "")
    bare = _ARTICLE.sub("", phrase)
    keyed = _category(bare, node)
    for candidate in {phrase, bare, keyed}:
        low = candidate.lower()
        if len(low) < 3 and not (candidate is keyed and keyed != bare and low in (i.lower() for i in node.items)):
            continue        # a short key ("3") names an item only after its kind ("plant 3"), and exactly
        for item in node.items:
            at = item.lower().find(low)
            whole = at >= 0 and (at == 0 or not item[at - 1].isalnum()) and \
                (at + len(low) == len(item) or not item[at + len(low)].isalnum())
            if whole:
                # "the last orbit" in "The Last Orbit": the item's own spelling of the words
                score = 1.0 if len(low) == len(item) else 0.86 + 0.1 * len(low) / len(item)
                found = item[at:at + len(low)]
            else:
                score, found = grounding.similarity(candidate, item), item
            if score > best[0]:
                best = (score, found)
    return best


def _plays_elsewhere(node: NodeInfo) -> bool:
    """The item's screen leads on to where it plays (a movie's page and its Play control)."""
    return any(e.opens and (_PLAY_CONTROL.match(e.name) or _PLAY_CONTROL.match(e.text)) for e in node.elements)


def _listed_here(node: NodeInfo, st: State) -> bool:
    """The screen the device is on lists *node*'s items ("open the guide and pick Laugh Track")."""
    here = next((n for n in st.ctx.navigation.nodes if n.id == st.node), None)
    return here is not None and any(e.opens == node.id for e in here.elements)


def param_intent(c: Clause, st: State) -> bool:
    """Ground "open <item>" to the parameterised screen that lists the item."""
    playing = c.act in PLAYING_ACTS
    if (c.act not in ACTS and not playing) or not st.has(V.GOTO) or "param" not in st.param_names(V.GOTO):
        return False
    phrase = _phrase(c)
    if not phrase:
        return False
    nodes = [n for n in st.ctx.navigation.nodes if not (playing and _plays_elsewhere(n))]
    best = _best_item(phrase, st, nodes)
    part = _PART_OF.match(phrase) if best is None and playing else None
    named = grounding.screens(part.group("a"), st.ctx, minimum=0.8) if part else []
    if named and named[0].node is not None:
        # "watch the replay of Ocean Giants": an item of a screen the named one opens (Replay's items play)
        opened = {e.opens for e in named[0].node.elements if e.opens}
        best = _best_item(_ARTICLE.sub("", part.group("b").strip()), st, [n for n in nodes if n.id in opened])
    if best is None:
        return not playing and _part_of_item(phrase, st)
    (score, item), node = best
    # a screen named as well by the phrase ("open movies") is a screen, not an item
    if any(t.score >= score and not t.node.param for t in grounding.screens(phrase, st.ctx) if t.node):
        return False
    _open_item(st, node, item)
    return True


def _best_item(phrase: str, st: State, nodes: Iterable[NodeInfo]) -> tuple[tuple[float, str], NodeInfo] | None:
    """The item of a parameterised node among *nodes* that *phrase* names: one the screen shown lists first,
    then the best-named one."""
    scored = [(item_of(phrase, n), n) for n in nodes if n.param and n.items]
    scored = [(score, n) for score, n in scored if score[0] >= MIN_SCORE]
    return max(scored, key=lambda sn: (_listed_here(sn[1], st), sn[0][0])) if scored else None


def _open_item(st: State, node: NodeInfo, item: str) -> None:
    """Go to *node*'s screen for *item*; goto verifies the item is the one shown."""
    slot = "{" + node.param + "}"
    title = node.label.replace(slot, item) if slot in node.label else f"{node.label}: {item}"
    st.add(V.GOTO, {"node": node.id, "param": item}, f"Open {title}", moves=True)
    st.node, st.moved = node.id, True
    st.last_act, st.last_object = "open", item
    st.expect_check(None)


_PART_OF = re.compile(r"^(?P<a>.+?)\s+(?:of|for|about)\s+(?P<b>.+)$", re.I)
_WHOLE_ITEM = re.compile(r"^(?:the\s+)?(?:(?:details?|info|information|record|entry|profile|card|overview|main)"
                         r"(?:\s+(?:page|screen|view))?|page|screen|view)$", re.I)


def _part_of_item(phrase: str, st: State) -> bool:
    """"the history of Bob Chen", "the details for Desk Lamp": open the item's own screen, then (unless the
    part is the item's page itself) what the phrase names on it, against that screen once it shows."""
    m = _PART_OF.match(phrase)
    if not m:
        return False
    outer = _ARTICLE.sub("", m.group("b").strip())
    best = _best_item(outer, st, st.ctx.navigation.nodes)
    if best is None:
        return False
    (_, item), node = best
    inner = m.group("a").strip()
    whole = bool(_WHOLE_ITEM.match(inner))
    if not whole and not st.open_world and not any(
            t.node is not None and t.node.id == node.id for t in grounding.tree_elements(inner, st.ctx, minimum=0.8)):
        return False    # a complete tree says what the item's screen has: the part is not there
    _open_item(st, node, item)
    if whole:
        return True
    raise Defer(item, replace_with=[f"open {inner}"])
