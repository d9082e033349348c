"""Screen identity: two visits are one screen when their structure matches, not their volatile text.

A :class:`Signature` is the URL's path pattern (numbers and item slugs turned
into ``{}``), the structural locators of its headings and landmarks (selectors
with list positions removed, never their text: a clock, a counter or the
programme on now changes, the screen does not), and the set of control roles.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from shared.screen import CLICKABLE_ROLES, FIELD_ROLES, ROLE_HEADING, ScreenObservation, UIElement

_NTH = re.compile(r":nth-(?:of-type|child)\(\d+\)|\[\d+\]|\[(?:index|instance)=\d+\]")
_NUMBER = re.compile(r"^\d+$")
STRUCTURAL_ROLES = frozenset({ROLE_HEADING, "banner", "navigation", "main", "dialog", "region", "tablist"})


def url_pattern(url: str) -> str:
    """``http://h/app/#/movie/the-last-orbit`` → ``/app/#/movie/{}``: the route, not the item."""
    if not url:
        return ""
    parts = urlsplit(url)
    route = parts.path or "/"
    if parts.scheme not in ("http", "https", "file", ""):
        route = f"{parts.scheme}://{parts.netloc}{parts.path}"      # app://com.android.settings: the app
    frag = parts.fragment
    # "#/movie/x" (or "#!/…") is a single-page app's route; "#max_size" is a place on the same page
    segs = [s for s in frag.lstrip("!").split("/") if s] if frag.lstrip("!").startswith("/") else []
    if segs:
        # the route's first segment names the screen; anything after it names an item of it
        route += "#/" + "/".join([segs[0]] + ["{}" for _ in segs[1:]])
    path_segs = [("{}" if _NUMBER.match(s) else s) for s in route.split("/")]
    return "/".join(path_segs)


def pattern(selector: str) -> str:
    """A selector with list positions removed: the same for every item of one list."""
    return _NTH.sub("", selector)


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""


@dataclass(frozen=True)
class Signature:
    route: str
    landmarks: frozenset[str]
    roles: frozenset[str]

    def key(self) -> str:
        return f"{self.route}|{','.join(sorted(self.landmarks))}|{','.join(sorted(self.roles))}"


def _landmark(e: UIElement) -> str:
    return f"{e.role}:{pattern(e.selector) or e.level}"


def signature(obs: ScreenObservation) -> Signature:
    """A screen's identity. On the web, the URL route and the landmarks name it (lists that fill in,
    results that appear, do not make another screen); in an app, whose route is only its package,
    the set of control roles counts too."""
    visible = [e for e in obs.elements if not e.hidden]
    route = url_pattern(obs.url)
    return Signature(
        route=route or obs.title,
        landmarks=frozenset(_landmark(e) for e in visible if e.role in STRUCTURAL_ROLES),
        roles=frozenset() if route and obs.platform == "web" else frozenset(e.role for e in visible if e.role in CLICKABLE_ROLES | FIELD_ROLES),
    )


def list_group(e: UIElement) -> str:
    """Elements with the same group key are items of one list (movie tiles, guide rows, keys): one role and
    one locator once list positions are removed (Android list items share their resource id)."""
    return f"{e.role}:{pattern(e.selector)}" if e.selector else ""
