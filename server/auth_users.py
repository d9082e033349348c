"""Users, roles and their tokens.

Roles are ordered: a viewer reads, a tester also runs, cancels, executes and
saves, an admin also edits trees, users and the plan cache. API tokens and
one-time login links are stored as SHA-256 digests only; passwords with
Werkzeug's salted hash. Nothing is deleted: revoking stamps ``revoked_at``.
"""
from __future__ import annotations

import datetime as dt
import enum
import logging
import re
from dataclasses import dataclass

from sqlalchemy import func, select
from werkzeug.security import check_password_hash, generate_password_hash

from server.auth_models import ApiTokenRow, UserRow, digest, new_token
from server.db import Database, utcnow
from shared.errors import NotFound, RequestError

log = logging.getLogger(__name__)

USER_TOKEN_PREFIX = "dpu_"
LOGIN_LINK_TTL = dt.timedelta(minutes=15)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")


class Role(enum.IntEnum):
    VIEWER = 1
    TESTER = 2
    ADMIN = 3

    @classmethod
    def parse(cls, value: object) -> "Role":
        try:
            return cls[str(value).upper()]
        except KeyError:
            raise RequestError(f"unknown role {value!r}: choose viewer, tester or admin") from None

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class User:
    """The authenticated caller, as Flask-Login sees it."""

    id: int
    name: str
    role: Role
    token_id: int | None = None     # the API token this request came with (None: a session)

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def get_id(self) -> str:
        return str(self.id)

    def may(self, role: Role) -> bool:
        return self.role >= role

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "role": self.role.label}


@dataclass(frozen=True)
class TokenInfo:
    id: int
    user: str
    kind: str
    label: str
    hint: str
    created_at: str
    revoked_at: str | None

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def _iso(t: dt.datetime | None) -> str | None:
    return t.isoformat() + "Z" if t else None


class Users:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- users ---------------------------------------------------------------------------
    def add(self, name: str, role: Role | str, password: str | None = None) -> User:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise RequestError("a user name is 1-64 letters, digits, '_', '.', '@' or '-', starting with a letter "
                               "or digit")
        role = role if isinstance(role, Role) else Role.parse(role)
        if password is not None and len(password) < 8:
            raise RequestError("a password needs at least 8 characters")
        with self.db.session() as s:
            if s.scalars(select(UserRow).where(UserRow.name == name)).first() is not None:
                raise RequestError(f"a user called {name!r} exists")
            row = UserRow(name=name, role=role.label,
                          password_hash=generate_password_hash(password) if password else None)
            s.add(row)
            s.flush()
            user = User(row.id, row.name, role)
        log.info("user %s added as %s", name, role.label)
        return user

    def count(self) -> int:
        with self.db.session() as s:
            return int(s.scalar(select(func.count(UserRow.id)).where(UserRow.revoked_at.is_(None))) or 0)

    def list(self) -> list[dict[str, object]]:
        with self.db.session() as s:
            return [{"id": r.id, "name": r.name, "role": r.role, "created_at": _iso(r.created_at),
                     "revoked_at": _iso(r.revoked_at), "password": r.password_hash is not None}
                    for r in s.scalars(select(UserRow).order_by(UserRow.id))]

    def revoke(self, name: str) -> None:
        """Revoke the user and every token of theirs."""
        with self.db.session() as s:
            row = s.scalars(select(UserRow).where(UserRow.name == name)).first()
            if row is None:
                raise NotFound(f"no user {name!r}")
            now = utcnow()
            row.revoked_at = row.revoked_at or now
            for tok in s.scalars(select(ApiTokenRow).where(ApiTokenRow.user_id == row.id)):
                tok.revoked_at = tok.revoked_at or now
        log.warning("user %s revoked", name)

    def get(self, user_id: int) -> User | None:
        with self.db.session() as s:
            row = s.get(UserRow, user_id)
            if row is None or row.revoked_at is not None:
                return None
            return User(row.id, row.name, Role.parse(row.role))

    def by_password(self, name: str, password: str) -> User | None:
        with self.db.session() as s:
            row = s.scalars(select(UserRow).where(UserRow.name == name)).first()
            if row is None or row.revoked_at is not None or not row.password_hash:
                return None
            if not check_password_hash(row.password_hash, password):
                return None
            return User(row.id, row.name, Role.parse(row.role))

    # -- tokens ----------------------------------------------------------------------------
    def create_token(self, name: str, label: str = "", kind: str = "api") -> tuple[TokenInfo, str]:
        """A new token for user *name*, returned once (only its digest is kept)."""
        token = new_token(USER_TOKEN_PREFIX)
        with self.db.session() as s:
            user = s.scalars(select(UserRow).where(UserRow.name == name)).first()
            if user is None or user.revoked_at is not None:
                raise NotFound(f"no active user {name!r}")
            row = ApiTokenRow(user_id=user.id, kind=kind, label=label[:100], digest=digest(token), hint=token[-4:],
                              expires_at=utcnow() + LOGIN_LINK_TTL if kind == "login" else None)
            s.add(row)
            s.flush()
            info = TokenInfo(row.id, user.name, kind, row.label, row.hint, _iso(row.created_at) or "", None)
        log.info("%s token %d created for user %s", kind, info.id, name)
        return info, token

    def revoke_token(self, token_id: int) -> None:
        with self.db.session() as s:
            row = s.get(ApiTokenRow, token_id)
            if row is None:
                raise NotFound(f"no token {token_id}")
            row.revoked_at = row.revoked_at or utcnow()
        log.info("token %d revoked", token_id)

    def tokens(self) -> list[TokenInfo]:
        with self.db.session() as s:
            names = dict(s.execute(select(UserRow.id, UserRow.name)).all())
            return [TokenInfo(r.id, names.get(r.user_id, "?"), r.kind, r.label, r.hint, _iso(r.created_at) or "",
                              _iso(r.revoked_at))
                    for r in s.scalars(select(ApiTokenRow).where(ApiTokenRow.kind == "api").order_by(ApiTokenRow.id))]

    def by_token(self, token: str, kind: str = "api") -> User | None:
        """The user a token proves; a login link is spent by this call."""
        if not token or not token.startswith(USER_TOKEN_PREFIX) or len(token) > 200:
            return None
        with self.db.session() as s:
            found = s.execute(select(ApiTokenRow, UserRow).join(UserRow, UserRow.id == ApiTokenRow.user_id)
                              .where(ApiTokenRow.digest == digest(token))).first()
            if found is None:
                return None
            row, user = found
            if row.kind != kind or row.revoked_at is not None:
                return None
            if row.expires_at is not None and row.expires_at < utcnow():
                return None
            if user.revoked_at is not None:
                return None
            if kind == "login":
                row.revoked_at = utcnow()
            return User(user.id, user.name, Role.parse(user.role), row.id if kind == "api" else None)

    def ensure_admin(self, name: str = "admin") -> str | None:
        """Create the first admin and a token for it when there is no user; return that token (else None)."""
        if self.count():
            return None
        if self.get_by_name(name) is None:
            self.add(name, Role.ADMIN)
        _, token = self.create_token(name, "created at set-up")
        return token

    def get_by_name(self, name: str) -> User | None:
        with self.db.session() as s:
            row = s.scalars(select(UserRow).where(UserRow.name == name)).first()
            return None if row is None else User(row.id, row.name, Role.parse(row.role))
