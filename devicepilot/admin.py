"""Administration commands that act on the server's database directly (run them on the server's machine).

``devicepilot host-token create|revoke|list``: per-host tokens.
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from server import auth_models  # noqa: F401  (the credential tables)
from server.db import Database
from server.host_tokens import HostTokens
from shared.config import Settings


def _db() -> Database:
    settings = Settings.from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return Database(settings.resolved_database_url())


def cmd_host_token(args: argparse.Namespace) -> int:
    tokens = HostTokens(_db())
    if args.host_token_command == "create":
        info, token = tokens.create(args.host_id)
        print(f"host token {info.id} for host {info.host_id} (shown once, keep it secret):\n{token}")
        print(f"start the host with DEVICEPILOT_HOST_TOKEN={token[:4]}… (the whole token above)")
        return 0
    if args.host_token_command == "revoke":
        info = tokens.revoke(args.token_id)
        print(f"host token {info.id} of host {info.host_id} revoked; a connected host using it is dropped "
              "at its next heartbeat")
        return 0
    rows = [t.to_dict() for t in tokens.list()]
    if args.json:
        print(json.dumps(rows, indent=2))
    for r in [] if args.json else rows:
        state = f"revoked {r['revoked_at']}" if r["revoked_at"] else "active"
        print(f"{r['id']:4}  {r['host_id']:24} …{r['hint']}  created {r['created_at']}  {state}")
    return 0


def add_parsers(sub: Any) -> None:
    ht = sub.add_parser("host-token", help="per-host tokens: create, revoke, list (on the server's machine)")
    hsub = ht.add_subparsers(dest="host_token_command", required=True)
    c = hsub.add_parser("create", help="a new token bound to one host id; printed once")
    c.add_argument("host_id")
    r = hsub.add_parser("revoke", help="revoke a host token by its number")
    r.add_argument("token_id", type=int)
    ls = hsub.add_parser("list", help="list host tokens (never the tokens themselves)")
    ls.add_argument("--json", action="store_true")
    ht.set_defaults(func=cmd_host_token, log_default=30)
