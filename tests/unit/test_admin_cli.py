"""The admin commands: users, their tokens and host tokens, on the server's database; tokens printed once."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server import auth_models  # noqa: F401
from server.auth_users import Role, Users
from server.db import Database

ROOT = Path(__file__).resolve().parents[2]


def cli(data: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "devicepilot", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, input=stdin, env={"PATH": "/usr/bin:/bin", "DEVICEPILOT_DATA_DIR": str(data)})


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_user_add_list_revoke_and_tokens(data: Path) -> None:
    added = cli(data, "user", "add", "tess", "--role", "tester", "--password-stdin", stdin="long enough pw\n")
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]
    assert token.startswith("dpu_")
    users = Users(Database(f"sqlite:///{data / 'devicepilot.db'}"))
    assert users.by_token(token).role is Role.TESTER
    assert users.by_password("tess", "long enough pw").name == "tess"

    listed = cli(data, "user", "list", "--json")
    assert '"tess"' in listed.stdout and token not in listed.stdout
    second = cli(data, "token", "create", "tess", "--label", "CI").stdout.strip().splitlines()[-1]
    assert users.by_token(second).name == "tess"
    tokens = cli(data, "token", "list")
    assert "CI" in tokens.stdout and second not in tokens.stdout
    assert cli(data, "token", "revoke", "2").returncode == 2          # no --yes, no terminal: refused
    assert users.by_token(second) is not None
    assert cli(data, "token", "revoke", "2", "--yes").returncode == 0
    assert users.by_token(second) is None

    assert cli(data, "user", "revoke", "tess").returncode == 2
    assert cli(data, "user", "revoke", "tess", "--yes").returncode == 0
    assert users.by_token(token) is None
    assert cli(data, "user", "add", "bad name!").returncode != 0
