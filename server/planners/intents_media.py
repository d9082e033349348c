"""Playing and pausing: the play / pause control a screen or its tree offers, else the remote's PLAY_PAUSE key.

"pause", "resume playback", "play it" with nothing named (:func:`pause_intent`), and what "play X" does
once X's detail page is open (:func:`play_follow_up`): press its Play, then check X is what plays.
"""
from __future__ import annotations

import re

from server.planners import checks, grounding
from server.planners.checks import CannotCheck
from server.planners.grounding import Target
from server.planners.language import Act, Clause, words
from server.planners.matching import nodes_with_keyword
from server.planners.state import Defer, State, Unplannable
from shared.models import ElementInfo
from shared import vocabulary as V
from shared.keys import Key
from shared.screen import CLICKABLE_ROLES

_PLAY_CONTROL = ("play", "resume", "start")
_PAUSE_CONTROL = ("pause", "stop")


_BARE_MEDIA = re.compile(r"(?:the\s+)?(?:current\s+)?(?:video|movie|film|playback|player|stream|programme|program|show|"
                         r"it|this|that|watching|playing|content|media|channel)?", re.I)
# what plays, said without its title ("the video is running", "check it is paused")
_MEDIA_NOUN = r"(?:video|movie|film|playback|player|stream|programme|program|show|it|picture)"
# what plays, said with no title of its own: "the movie", "the catch-up programme", "this episode", "it", "playback"
_GENERIC_MEDIA = (r"(?:(?:the|this|that|my|our|its|current|selected|chosen|first|second|third|last|next|new|live|"
                  r"catch-?up|replay|recorded|same)\s+)*(?:video|movie|film|playback|player|stream|programme|program|show|"
                  r"episode|clip|recording|broadcast|content|media|picture|it|this|that|item|one)"
                  r"(?:['’]s)?(?:\s+(?:state|status|playback\s+state))?")   # "the player state is Paused"


_CONTROL_NAMED = re.compile(r"^(?:the\s+)?(?P<w>pause|play|resume)(?:\s+(?:button|control|key|icon))?$", re.I)


def pause_intent(c: Clause, st: State) -> bool:
    named = _CONTROL_NAMED.match(c.rest.strip()) if c.act in (Act.CLICK, Act.PRESS) else None
    if named is not None:   # "hit pause", "press the play button": the act itself
        verb = named.group("w").lower()
        c = Clause(verb, Act.PAUSE if verb == "pause" else Act.PLAY, "")
    bare = not c.rest or bool(_BARE_MEDIA.fullmatch(c.rest.strip()))
    if c.act is not Act.PAUSE and not (c.act is Act.PLAY and bare and st.last_act != "search"):
        return False   # "search for X and play it": it is the result
    players = {n.id for w in ("player", "playback") for n in nodes_with_keyword(w, st.ctx)}
    if c.act is Act.PLAY and re.fullmatch(r"it|this|that|this\s+one|that\s+one", c.rest.strip(), re.I) \
            and st.last_object and st.node not in players and st.last_act not in ("pause", "playback-check"):
        return False   # "is X in the results? if so play it": it is X, not whatever the remote's key would play
    if c.act is Act.PAUSE and not bare:
        return False
    wanted = _PAUSE_CONTROL if c.act is Act.PAUSE else _PLAY_CONTROL
    if _set_playback(st, paused=c.act is Act.PAUSE):
        return True
    declared = [t for w in wanted for t in grounding.tree_elements(w, st.ctx, prefer_node=st.node, minimum=0.9)
                if st.node in (None, t.node.id)]
    live = [t for w in wanted for t in grounding.live_elements(w, st.live, roles=CLICKABLE_ROLES, minimum=0.8)]
    other = _PLAY_CONTROL if c.act is Act.PAUSE else _PAUSE_CONTROL
    shown = [t for w in other for t in grounding.live_elements(w, st.live, roles=CLICKABLE_ROLES, minimum=0.8)]
    if not live and shown and shown[0].live is not None and not any(
            set(words(e.name or e.text)) & set(wanted) for e in st.live.elements if not e.hidden) \
            and set(words(shown[0].label)) <= {*other, "button", "playback", "video", "movie"}:
        # a player showing only Pause already plays (only Play: it is paused): pressing its toggle would undo it
        st.check(checks.element(st.ctx, text=shown[0].label, role=shown[0].live.role,
                                description=f"Check it {'plays' if c.act is Act.PLAY else 'is paused'} "
                                            f"({shown[0].label!r} shown)"))
        return True
    if not live and not declared and st.live is None and st.moved and st.open_world \
            and Key.PLAY_PAUSE.value in st.key_choices():
        raise Defer(wanted[0])   # the remote's toggle, pressed blind, may undo what the screen the steps lead to shows
    if live:
        st.click_live(live[0], f"{wanted[0].capitalize()}")
    elif declared:
        st.click_declared(declared[0].element, None, f"{wanted[0].capitalize()}")
        st.node = declared[0].node.id
    elif Key.PLAY_PAUSE.value in st.key_choices():
        st.add(V.PRESS_KEY, {"key": Key.PLAY_PAUSE.value}, f"{wanted[0].capitalize()} (PLAY_PAUSE)")
    else:
        raise Unplannable(f"the device has no way to {wanted[0]}")
    st.expect_check(None)
    return True


_STATE_WORDS = {"state", "status"}
_PLAYING_WORDS = {"playing", "running", "going", "resumed", "unpaused", "rolling"}
_PAUSED_WORDS = {"paused", "stopped", "frozen", "halted"}


def _playback_state(st: State) -> tuple[ElementInfo, ElementInfo] | None:
    """The screen's play/pause control and the element that says whether it plays (a player's "Playing" /
    "Paused"), both declared by the tree on the screen the device is on."""
    node = st.node_info(st.node) if st.node else None
    if node is None:
        return None
    state = next((e for e in node.elements if set(words(e.name)) & _STATE_WORDS and e.selector), None)
    # the one control that plays and pauses ("play pause"; an explored draft names it by what it said when seen:
    # "pause"); a screen with a Play and a Pause of their own has no one toggle
    toggles = [e for e in node.elements if set(words(e.name)) & {"play", "pause"} and e.selector and not e.many
               and not set(words(e.name)) - {"play", "pause", "button", "toggle", "control"}]
    control = next((e for e in toggles if {"play", "pause"} <= set(words(e.name))), None) \
        or (toggles[0] if len(toggles) == 1 else None)
    return (control, state) if control is not None and state is not None else None


def _set_playback(st: State, paused: bool) -> bool:
    """Pause or resume with the player's one play/pause control, pressed until its state says so: a toggle is
    never pressed blind (pressing it on a paused player would resume it)."""
    found = _playback_state(st)
    if found is None or not st.has(V.CLICK_UNTIL):
        return False
    control, state = found
    word = "Paused" if paused else "Playing"
    st.add(V.CLICK_UNTIL, {"selector": control.selector, "expect": word, "shows": state.selector, "max_clicks": 2},
           f"{'Pause' if paused else 'Resume'} playback until it shows {word}")
    st.expect_check(None)
    return True


# how a check says what plays is in a state: "is playing", "starts playing", "should be running", "has stopped",
# "plays", "is being played" (the state word, or None for a verb that says it plays)
_PLAYBACK_SAID = re.compile(
    r"^(?:that\s+)?(?:the\s+)?(?P<x>.+?)\s*(?P<be>(?:\s(?:is|has|should|must|will|does|did)|['’]s)\s+(?P<not>not\s+)?|\s+(?P<not2>"
    r"(?:is|does|has)n['’]?t\s+|never\s+)|\s+)"
    r"(?:(?:actually|really|now|still|definitely|properly|correctly|already)\s+)*"
    r"(?:(?:be|been|have|get|got)\s+)?(?:(?:starts?|started|starting|begins?|began|begun|keeps?|kept|continues?|continued|"
    r"start|begin|keep|continue)\s+(?:to\s+)?)?"
    r"(?P<s>\w+)(?:\s+again)?(?:\s+(?:in|on)\s+(?:the\s+)?(?:player|screen|tv|video\s+player))?$", re.I)
# a verb that says it plays, with no state word: "the film plays", "playback starts", "it is being played"
_PLAYS_VERB = {"plays", "play", "played", "starts", "started", "begins", "began", "resumes", "resumed", "runs"}


def _playback_said(rest: str) -> tuple[str, str, bool] | None:
    """The subject, "Playing" or "Paused", and whether it is negated, of a check that says what plays is in
    a state; None where the clause says something else."""
    m = _PLAYBACK_SAID.match(rest.strip().rstrip(".!?"))
    if m is None:
        return None
    said, subject = m.group("s").lower(), m.group("x").strip()
    negated = bool(m.group("not") or m.group("not2"))
    if not m.group("be").strip() and re.search(r"\b(?:shows?|says?|reads?|displays?|lists?|contains?)\b", subject, re.I):
        return None   # "the player shows Playing": what an element shows, read by the check intent
    if said in _PLAYING_WORDS or said in _PLAYS_VERB and said not in ("starts", "started", "begins", "began") \
            or said in ("starts", "started", "begins", "began") and re.search(r"\b(?:playback|playing|video|movie|film|"
                                                                            r"stream|programme|program|episode|show)$",
                                                                            subject, re.I):
        return subject, "Playing", negated
    if said in _PAUSED_WORDS:
        return subject, "Paused", negated
    return None


def playback_check(c: Clause, st: State) -> bool:
    """"make sure the video is actually running again", "check playback is paused", "the catch-up programme
    starts playing in the player", "the film should be playing": the player's own state element shows Playing
    (or Paused); a title said is also what the player shows."""
    if c.act is not Act.CHECK:
        return False
    said = _playback_said(c.rest)
    if said is None:
        return False
    found = _playback_state(st)
    if found is None:
        return False
    subject, word, negated = said
    node = st.node_info(st.node) if st.node else None
    title = next((e for e in node.elements if "title" in words(e.name) and e.selector), None) if node else None
    named = not re.fullmatch(_GENERIC_MEDIA, subject, re.I)
    if named:   # "the Ocean Giants programme": its title, without the word for what it is
        subject = re.sub(r"^(?:the|this|that)\s+|\s+(?:programme|program|movie|film|show|episode|video|clip|recording)$",
                         "", subject, flags=re.I).strip() or subject
    if named and title is None:
        return False
    if negated:
        word = "Playing" if word == "Paused" else "Paused"
    if named and title is not None:   # "check Silent Harbor is paused": it is what the player shows, and its state
        st.check(checks.element(st.ctx, selector=title.selector, text=subject, description=f"Check {subject} is shown"))
    st.check(checks.element(st.ctx, selector=found[1].selector, text=word,
                            description=f"Check playback shows {word}"))
    return True


def play_key(st: State) -> bool:
    if Key.PLAY_PAUSE.value in st.key_choices():
        st.add(V.PRESS_KEY, {"key": Key.PLAY_PAUSE.value}, "Play (PLAY_PAUSE)")
        return True
    live = grounding.live_elements("play", st.live, roles=CLICKABLE_ROLES, minimum=0.8)
    if live:
        st.click_live(live[0], "Play")
        return True
    raise Unplannable("the device has no way to play")


def play_follow_up(c: Clause, st: State, label: str, t: Target | None) -> None:
    """"play X" where X opens a detail page: press its play control, then check X is playing."""
    if c.act is not Act.PLAY or t is None or not t.element.opens:
        return
    play_from(st, t.element.opens, label)


def play_after_click(st: State, label: str, declared: list[Target]) -> None:
    """"play X" whose tile or link was clicked on the live screen: what the tree says X opens (its detail page's
    Play, then X checked as playing), else, on the screen the click leads to, :func:`playing_intent`. A click
    that only opened X's page must not pass as X playing."""
    known = next((t for t in declared if t.element.opens), None)
    if known is not None and st.node_info(known.element.opens) is not None:
        before = len(st.steps)
        play_from(st, known.element.opens, label)
        if len(st.steps) > before:
            return
    if st.open_world or st.live is not None:
        st.expect_check(None)
        raise Defer(label, replace_with=[playing_clause(label)])


_PLAYING = re.compile(r'^make "(?P<x>[^"]+)" play$')
_PLAYS = re.compile(r'^check that "(?P<x>[^"]+)" plays$')
# words a control that plays the item may say besides its verb ("Watch now", "▶ Play movie"); any other word ("Play
# trailer", "Rent HD £3.99", "Resume") names another action
_PLAY_WORDS = {"play", "watch", "now", "movie", "film", "episode", "show", "video", "it", "the", "this"}


def playing_clause(label: str) -> str:
    """The closed loop's own clause after "play X" clicked X: see :func:`playing_intent`."""
    return f'make "{label}" play'


def _play_control(st: State, label: str) -> Target | None:
    assert st.live is not None
    own = set(words(label))
    found = [t for w in ("play", "watch") for t in grounding.live_elements(w, st.live, roles=CLICKABLE_ROLES,
                                                                           minimum=0.8)]
    return next((t for t in found if t.live is not None and not set(words(t.label)) - _PLAY_WORDS - own), None)


def playing_intent(c: Clause, st: State) -> bool:
    """On the screen clicking X led to: its Play control when it has one (X's detail page), then, on the screen
    that follows, X must be shown playing. Playing is seen, not assumed: the title shown with a Pause (or Stop)
    control beside it. A detail page with only a title, a trailer or a price never passes as X playing."""
    press = _PLAYING.match(c.text.strip())
    seen = _PLAYS.match(c.text.strip())
    if press is None and seen is None:
        return False
    label = (press or seen).group("x")
    if st.live is None:
        if st.moved:
            raise Defer(label)
        raise Unplannable(f"nothing on the screen shows whether {label!r} plays")
    play = _play_control(st, label) if press is not None else None
    if play is not None:
        st.click_live(play, f"Play {label}")
        st.expect_check(None)
        raise Defer(label, replace_with=[f'check that "{label}" plays'])
    pause = [t for w in _PAUSE_CONTROL for t in grounding.live_elements(w, st.live, roles=CLICKABLE_ROLES,
                                                                         minimum=0.8)]
    if not pause:
        raise Unplannable(f"nothing on the screen shows {label!r} playing: no Play control to press, and no "
                          "Pause or Stop control of a player")
    try:
        st.check(checks.text_shown(st.ctx, label))
        st.check(checks.element(st.ctx, text=pause[0].label, role=pause[0].live.role if pause[0].live else "",
                                description=f"Check {label} is playing ({pause[0].label!r} shown)"))
    except CannotCheck:
        raise Unplannable(f"the device has no check that {label!r} plays") from None
    return True


def play_from(st: State, node_id: str, label: str) -> None:
    landing = st.node_info(node_id)
    # only a control that leads on (a detail page's Play opens the player); a player's play/pause would pause
    play = next((e for e in landing.elements if "play" in words(e.name) and e.opens), None) if landing else None
    if play is None:
        return
    st.click_declared(play, None, f"Play {label}".strip())
    final = st.node_info(st.node)
    title = next((e for e in final.elements if "title" in words(e.name)), None) if final else None
    st.expect_check(None)
    if not label:   # "play the second movie": no title to read, so the player must say it plays
        shown = _playback_state(st)
        if shown is not None:
            st.expect_check(checks.element(st.ctx, selector=shown[1].selector, text="Playing",
                                           description="Check playback shows Playing"))
        return
    if title is not None and title.selector:
        try:
            st.expect_check(checks.element(st.ctx, selector=title.selector, text=label,
                                           description=f"Check {label} is playing"))
        except CannotCheck:
            pass
