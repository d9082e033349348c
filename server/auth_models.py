"""Tables of the lab's credentials: per-host tokens (and, beside them, users and their API tokens).

Only a SHA-256 digest of each token is stored. Tokens are 32 random bytes from
:mod:`secrets`, so a plain digest is enough to make a stolen database useless
for logging in (passwords, which people choose, are hashed elsewhere with
Werkzeug's salted, slow hash). Rows are never deleted: revoking sets
``revoked_at``, so the record of who held what stays.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, utcnow

TOKEN_BYTES = 32


def new_token(prefix: str) -> str:
    """A fresh token; *prefix* says what it is for (``dph_`` host, ``dpu_`` user) so a leaked one is recognisable."""
    return prefix + secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class HostTokenRow(Base):
    """A token that lets one host, and only that host, connect and register."""

    __tablename__ = "host_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    host_id: Mapped[str] = mapped_column(String(64), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    hint: Mapped[str] = mapped_column(String(16), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class UserRow(Base):
    """A person (or a CI job) with a role. ``password_hash`` is Werkzeug's salted scrypt; None: tokens only."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class ApiTokenRow(Base):
    """A user's API token (``kind`` ``api``), or a one-time login link (``login``, spent on first use)."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(8), default="api")
    label: Mapped[str] = mapped_column(String(100), default="")
    digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    hint: Mapped[str] = mapped_column(String(16), default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class DeviceAssignmentRow(Base):
    """An admin's word that *device_id* belongs to *host_id*: no other host may register it, connected or not."""

    __tablename__ = "device_assignments"
    device_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_id: Mapped[str] = mapped_column(String(64), index=True)
    assigned_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
