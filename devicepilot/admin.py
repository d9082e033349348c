"""Administration commands that act on the server's database directly (run them on the server's machine).

``devicepilot host-token create|revoke|list``: per-host tokens.
``devicepilot user add|list|revoke``: users and their roles (viewer, tester, admin).
``devicepilot token create|revoke|list``: users' API tokens (sent as ``Authorization: Bearer``).

Every token is printed once, when it is made; the database keeps only its digest.
"""
from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import Any

from server import auth_models  # noqa: F401  (the credential tables)
from server.db import Database
from server.auth_users import Users
from server.host_tokens import HostTokens
from shared.config import Settings


def _db() -> Database:
    settings = Settings.from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return Database(settings.resolved_database_url())


def _confirmed(args: argparse.Namespace, what: str) -> bool:
    """Revoking cannot be undone: ``--yes``, or a "y" typed at the prompt."""
    if getattr(args, "yes", False):
        return True
    if sys.stdin.isatty():
        return input(f"{what}? This cannot be undone. [y/N] ").strip().lower() in ("y", "yes")
    print(f"error: {what} needs confirmation: add --yes", file=sys.stderr)
    return False


def cmd_host_token(args: argparse.Namespace) -> int:
    tokens = HostTokens(_db())
    if args.host_token_command == "create":
        info, token = tokens.create(args.host_id)
        print(f"host token {info.id} for host {info.host_id} (shown once, keep it secret):\n{token}")
        print(f"start the host with DEVICEPILOT_HOST_TOKEN={token[:4]}… (the whole token above)")
        return 0
    if args.host_token_command == "revoke":
        if not _confirmed(args, f"revoke host token {args.token_id}"):
            return 2
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


def cmd_user(args: argparse.Namespace) -> int:
    users = Users(_db())
    if args.user_command == "add":
        password = None
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\n")
        elif args.password:
            password = getpass.getpass(f"password for {args.name}: ")
        user = users.add(args.name, args.role, password)
        _, token = users.create_token(user.name, "created with the user")
        print(f"user {user.name} added as {user.role.label}; API token (shown once, keep it secret):\n{token}")
        return 0
    if args.user_command == "revoke":
        if not _confirmed(args, f"revoke user {args.name} and every token of theirs"):
            return 2
        users.revoke(args.name)
        print(f"user {args.name} revoked, with every token of theirs")
        return 0
    rows = users.list()
    if args.json:
        print(json.dumps(rows, indent=2))
    for r in [] if args.json else rows:
        state = f"revoked {r['revoked_at']}" if r["revoked_at"] else "active"
        print(f"{r['id']:4}  {r['name']:24} {r['role']:7} {state}")
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    users = Users(_db())
    if args.token_command == "create":
        info, token = users.create_token(args.user, args.label or "")
        print(f"token {info.id} for user {info.user} (shown once, keep it secret):\n{token}")
        return 0
    if args.token_command == "revoke":
        if not _confirmed(args, f"revoke token {args.token_id}"):
            return 2
        users.revoke_token(args.token_id)
        print(f"token {args.token_id} revoked")
        return 0
    rows = [t.to_dict() for t in users.tokens()]
    if args.json:
        print(json.dumps(rows, indent=2))
    for r in [] if args.json else rows:
        state = f"revoked {r['revoked_at']}" if r["revoked_at"] else "active"
        print(f"{r['id']:4}  {r['user']:24} …{r['hint']}  {r['label']:24} {state}")
    return 0


def cmd_device(args: argparse.Namespace) -> int:
    """``devicepilot device assign|unassign|assignments``: which host may register which device."""
    from sqlalchemy import select

    from server.auth_models import DeviceAssignmentRow

    db = _db()
    if args.device_command == "assign":
        with db.session() as s:
            row = s.get(DeviceAssignmentRow, args.device_id) or DeviceAssignmentRow(device_id=args.device_id)
            row.host_id = args.host_id
            s.add(row)
        print(f"device {args.device_id} assigned to host {args.host_id}: no other host may register it")
        return 0
    if args.device_command == "unassign":
        with db.session() as s:
            row = s.get(DeviceAssignmentRow, args.device_id)
            if row is None:
                print(f"error: device {args.device_id} is not assigned", file=sys.stderr)
                return 2
            s.delete(row)
        print(f"device {args.device_id} unassigned: any host that does not find it held may register it")
        return 0
    with db.session() as s:
        for row in s.scalars(select(DeviceAssignmentRow).order_by(DeviceAssignmentRow.device_id)):
            print(f"{row.device_id:32} {row.host_id}")
    return 0


def add_parsers(sub: Any) -> None:
    ht = sub.add_parser("host-token", help="per-host tokens: create, revoke, list (on the server's machine)")
    hsub = ht.add_subparsers(dest="host_token_command", required=True)
    c = hsub.add_parser("create", help="a new token bound to one host id; printed once")
    c.add_argument("host_id")
    r = hsub.add_parser("revoke", help="revoke a host token by its number")
    r.add_argument("token_id", type=int)
    r.add_argument("--yes", action="store_true", help="confirm: revoking cannot be undone")
    ls = hsub.add_parser("list", help="list host tokens (never the tokens themselves)")
    ls.add_argument("--json", action="store_true")
    ht.set_defaults(func=cmd_host_token, log_default=30)

    u = sub.add_parser("user", help="users and roles: add, list, revoke (on the server's machine)")
    usub = u.add_subparsers(dest="user_command", required=True)
    ua = usub.add_parser("add", help="add a user; prints an API token for it once")
    ua.add_argument("name")
    ua.add_argument("--role", choices=["viewer", "tester", "admin"], default="tester")
    ua.add_argument("--password", action="store_true", help="also set a password for the dashboard (asked)")
    ua.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    ur = usub.add_parser("revoke", help="revoke a user and all their tokens")
    ur.add_argument("name")
    ur.add_argument("--yes", action="store_true", help="confirm: revoking cannot be undone")
    ul = usub.add_parser("list", help="list users")
    ul.add_argument("--json", action="store_true")
    u.set_defaults(func=cmd_user, log_default=30)

    t = sub.add_parser("token", help="users' API tokens: create, revoke, list (on the server's machine)")
    tsub = t.add_subparsers(dest="token_command", required=True)
    tc = tsub.add_parser("create", help="a new API token for a user; printed once")
    tc.add_argument("user")
    tc.add_argument("--label", help="what the token is for, e.g. 'CI'")
    tr = tsub.add_parser("revoke", help="revoke a token by its number")
    tr.add_argument("token_id", type=int)
    tr.add_argument("--yes", action="store_true", help="confirm: revoking cannot be undone")
    tl = tsub.add_parser("list", help="list tokens (never the tokens themselves)")
    tl.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_token, log_default=30)

    dv = sub.add_parser("device", help="assign devices to hosts: only that host may register them")
    dsub = dv.add_subparsers(dest="device_command", required=True)
    da = dsub.add_parser("assign", help="only HOST_ID may register DEVICE_ID from now on")
    da.add_argument("device_id")
    da.add_argument("host_id")
    du = dsub.add_parser("unassign", help="remove a device's assignment")
    du.add_argument("device_id")
    dsub.add_parser("assignments", help="list assignments")
    dv.set_defaults(func=cmd_device, log_default=30)
