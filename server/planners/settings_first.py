"""A setting the screen shown does not have: the app's own settings page first, then the setting there.

"set the default time between checks to 6 hours", "turn on dark mode", "change the date format to ISO" on an
app's home page name a setting no field of this screen is called. Before the app's lists are looked through for a
record of that name, the place where apps keep their settings is opened: the one link or button called Settings,
Preferences, Options or Configuration (by itself, or with the app's or the user's word: "Site settings", "My
preferences"). On that page, nothing more is tried here: the clause is refused as it was, or looked for as a record.
"""
from __future__ import annotations

import re

from server.planners.grounding import Target, TargetKind
from server.planners.language import Act, Clause, words
from server.planners.state import State
from shared.screen import ROLE_BUTTON, ROLE_LINK, ROLE_MENUITEM, ROLE_TAB, UIElement

_SETTING_ACTS = frozenset({Act.SET, Act.EDIT, Act.TURN_ON, Act.TURN_OFF, Act.TICK, Act.UNTICK})
_PLACE_WORDS = frozenset({"settings", "setting", "preferences", "preference", "options", "configuration", "config",
                          "configure", "setup"})
_NOT_SHOWN = re.compile(r"\bno (?:setting or field|field|checkbox|switch)s? (?:called|named|for)\b", re.I)
MAX_WORDS = 3
# a setting of one record: "for Bo Chen", "of ticket 12", "on the Runbook page"
_OF_A_RECORD = re.compile(r"\b(?:for|of|on)\s+(?:the\s+)?(?:(?-i:[A-Z0-9\"'“])|[a-z]+\s+\d)")


def _settings_place(el: UIElement) -> bool:
    said = words(el.name or el.text)
    return el.role in (ROLE_LINK, ROLE_BUTTON, ROLE_MENUITEM, ROLE_TAB) and not el.disabled \
        and 1 <= len(said) <= MAX_WORDS and said[-1] in _PLACE_WORDS


def _on_settings(st: State) -> bool:
    """The screen shown is a settings page: its address, title or a heading says so, or its own link is selected."""
    assert st.live is not None
    said = " ".join([st.live.url.lower(), st.live.title.lower(), *(h.label.lower() for h in st.live.headings())])
    return bool(set(re.split(r"[^a-z]+", said)) & _PLACE_WORDS) or any(
        _settings_place(e) and e.selected for e in st.live.elements)


def settings_first(clause: Clause, st: State, why: str) -> list[str] | None:
    """The settings page opened, and *clause* to plan there; None where no such page is linked or it is shown."""
    if st.live is None or st.moved or not st.open_world or clause.act not in _SETTING_ACTS \
            or not _NOT_SHOWN.search(why) or _on_settings(st) or _OF_A_RECORD.search(clause.text):
        return None   # ("turn off notifications for Bo Chen": Bo Chen's, on his record, not the app's settings)
    places = [e for e in st.live.elements if _settings_place(e)]
    shown = [e for e in places if not e.hidden] or places
    if len({(e.name or e.text).lower() for e in shown}) != 1:
        return None   # none, or several kinds ("Account settings", "Site settings"): which is not for us to guess
    place = shown[0]
    st.click_live(Target(TargetKind.LIVE_ELEMENT, 0.9, place.label, live=place), f"Open {place.label!r}")
    return [clause.text]
