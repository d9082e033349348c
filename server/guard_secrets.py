"""Secrets never leak: the LLM key, host tokens and user tokens are scrubbed from all that is stored or returned.

One :class:`Scrubber` knows the secrets of this server (the configured LLM key,
the shared host token) and the shapes of the lab's own tokens (``dph_…``,
``dpu_…``, whose plain values the server never keeps). It is applied at the
boundaries, so no planner, report writer or cache has to remember it:

- the database: before every flush, text and JSON columns of runs, steps, the
  plan cache, navigation trees and audit entries (:func:`scrub_database`);
- files written through :class:`server.storage.FileStore` (reports, test cases);
- every HTTP response with a text or JSON body (:func:`scrub_responses`);
- log records (:class:`ScrubbingFilter` on the root logger's handlers).
"""
from __future__ import annotations

import logging
import re
from typing import Any, Iterable

from flask import Flask, Response, request
from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

MASK = "[secret removed]"
TOKEN_SHAPES = re.compile(r"\bdp[hu]_[A-Za-z0-9_-]{20,}")
MIN_SECRET_CHARS = 8
NOT_SCRUBBED = frozenset({"auth.create_login_link", "auth.login", "auth.me"})  # they hand out credentials on purpose


class Scrubber:
    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        for s in secrets:
            self.add(s)

    def add(self, secret: str) -> None:
        """Scrub *secret* from now on (values shorter than 8 characters are not secrets worth the name)."""
        if secret and len(secret) >= MIN_SECRET_CHARS and secret not in self._secrets:
            self._secrets.add(secret)
            alternatives = sorted(self._secrets, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(s) for s in alternatives))

    def text(self, value: str) -> str:
        if self._pattern is not None:
            value = self._pattern.sub(MASK, value)
        return TOKEN_SHAPES.sub(MASK, value)

    def value(self, value: Any) -> Any:
        """*value* with every string inside it scrubbed (dicts and lists are rebuilt only when something changed)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            out = {k: self.value(v) for k, v in value.items()}
            return out if any(out[k] is not value[k] for k in value) else value
        if isinstance(value, list):
            items = [self.value(v) for v in value]
            return items if any(a is not b for a, b in zip(items, value)) else value
        return value

    def data(self, raw: bytes) -> bytes:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw
        cleaned = self.text(text)
        return raw if cleaned == text else cleaned.encode("utf-8")


def scrub_database(sessions: Any, scrubber: Scrubber, models: tuple[type, ...]) -> None:
    """Scrub new and changed rows of *models* before every flush of the sessions made by *sessions*."""

    @event.listens_for(sessions, "before_flush")
    def _scrub(session: Session, *_: Any) -> None:
        for obj in (*session.new, *session.dirty):
            if not isinstance(obj, models):
                continue
            for attr in inspect(obj).mapper.column_attrs:
                current = getattr(obj, attr.key)
                if isinstance(current, (str, dict, list)):
                    cleaned = scrubber.value(current)
                    if cleaned is not current and cleaned != current:
                        setattr(obj, attr.key, cleaned)


def scrub_responses(app: Flask, scrubber: Scrubber) -> None:
    @app.after_request
    def _scrub(response: Response) -> Response:
        if request.endpoint in NOT_SCRUBBED or response.direct_passthrough or response.is_streamed:
            return response
        mime = response.mimetype or ""
        if mime.startswith("text/") or mime.endswith(("json", "xml", "yaml")):
            raw = response.get_data()
            cleaned = scrubber.data(raw)
            if cleaned is not raw:
                response.set_data(cleaned)
        return response


class ScrubbingFilter(logging.Filter):
    def __init__(self, scrubber: Scrubber) -> None:
        super().__init__()
        self.scrubber = scrubber

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self.scrubber.text(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def scrub_logs(scrubber: Scrubber) -> None:
    """Scrub every record that reaches the root logger's handlers (add handlers before calling this)."""
    root = logging.getLogger()
    for handler in root.handlers:
        if not any(isinstance(f, ScrubbingFilter) for f in handler.filters):
            handler.addFilter(ScrubbingFilter(scrubber))
