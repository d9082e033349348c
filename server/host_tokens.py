"""Per-host tokens: created and revoked by an admin, stored hashed, checked when a host connects.

The lab's single shared host token (``DEVICEPILOT_HOST_TOKEN`` or the data
dir's ``host-token``) keeps working for local mode and small labs; a host with
a token of its own is bound to its host id, and once a host id has a token of
its own, the shared token can no longer speak for it.
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from sqlalchemy import select

from server.auth_models import HostTokenRow, digest, new_token
from server.db import Database, utcnow
from shared.errors import NotFound, RequestError

log = logging.getLogger(__name__)

HOST_TOKEN_PREFIX = "dph_"


@dataclass(frozen=True)
class HostIdentity:
    """Who a host connection authenticated as: a host-bound token (``token_id``), or the shared token."""

    host_id: str | None          # None: the shared token, which may speak for any host without a token
    token_id: int | None = None

    @property
    def shared(self) -> bool:
        return self.token_id is None


@dataclass(frozen=True)
class HostTokenInfo:
    id: int
    host_id: str
    hint: str
    created_at: str
    revoked_at: str | None

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "host_id": self.host_id, "hint": self.hint, "created_at": self.created_at,
                "revoked_at": self.revoked_at}


class HostTokens:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, host_id: str) -> tuple[HostTokenInfo, str]:
        """A new token for *host_id*; the token itself is returned once and never stored."""
        if not host_id or len(host_id) > 64:
            raise RequestError("a host token needs the id of its host (1-64 characters)")
        token = new_token(HOST_TOKEN_PREFIX)
        with self.db.session() as s:
            row = HostTokenRow(host_id=host_id, digest=digest(token), hint=token[-4:])
            s.add(row)
            s.flush()
            info = self._info(row)
        log.info("host token %d created for host %s", info.id, host_id)
        return info, token

    def revoke(self, token_id: int) -> HostTokenInfo:
        with self.db.session() as s:
            row = s.get(HostTokenRow, token_id)
            if row is None:
                raise NotFound(f"no host token {token_id}")
            if row.revoked_at is None:
                row.revoked_at = utcnow()
            info = self._info(row)
        log.warning("host token %d of host %s revoked", token_id, info.host_id)
        return info

    def list(self) -> list[HostTokenInfo]:
        with self.db.session() as s:
            return [self._info(r) for r in s.scalars(select(HostTokenRow).order_by(HostTokenRow.id))]

    def identify(self, token: str, shared: str) -> HostIdentity | None:
        """The identity *token* proves, or None when it proves none."""
        if not token:
            return None
        if shared and secrets.compare_digest(token.encode("utf-8", "surrogatepass"),
                                             shared.encode("utf-8", "surrogatepass")):
            return HostIdentity(None)
        with self.db.session() as s:
            row = s.scalars(select(HostTokenRow).where(HostTokenRow.digest == digest(token))).first()
            if row is None or row.revoked_at is not None:
                return None
            return HostIdentity(row.host_id, row.id)

    def is_valid(self, token_id: int) -> bool:
        with self.db.session() as s:
            row = s.get(HostTokenRow, token_id)
            return row is not None and row.revoked_at is None

    def has_own_token(self, host_id: str) -> bool:
        """True when *host_id* holds a live token of its own (then the shared token cannot speak for it)."""
        with self.db.session() as s:
            return s.scalars(select(HostTokenRow.id).where(HostTokenRow.host_id == host_id,
                                                           HostTokenRow.revoked_at.is_(None))).first() is not None

    @staticmethod
    def _info(row: HostTokenRow) -> HostTokenInfo:
        return HostTokenInfo(row.id, row.host_id, row.hint, row.created_at.isoformat() + "Z",
                             row.revoked_at.isoformat() + "Z" if row.revoked_at else None)
