"""FileStore confines every path built from a wire value to the data directory."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.storage import FileStore, InvalidId, StorageError, check_run_id
from shared.errors import RequestError

PNG = b"\x89PNG\r\n\x1a\n" + bytes(16)


@pytest.fixture
def store(tmp_path: Path) -> FileStore:
    root = tmp_path / "data"
    root.mkdir()
    (root / "host-token").write_text("secret")
    (root / "devicepilot.db").write_bytes(b"SQLite format 3\x00")
    return FileStore(root)


@pytest.mark.parametrize("run_id", ["../../x", "0123456789AB", "0123456789a", "0123456789abc", "", None, 12,
                                    "0123456789a/", "abc\x00def0000", "0123456789ab\n"])
def test_only_run_ids_pass(run_id: object) -> None:
    with pytest.raises(InvalidId, match="12 hexadecimal"):
        check_run_id(run_id)


def test_a_traversal_run_id_writes_nothing(store: FileStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidId):
        store.save_screenshot("../../x", 1, PNG)
    with pytest.raises(InvalidId):
        store.save_screenshot("0123456789ab", -1, PNG)
    assert not list(tmp_path.rglob("*.png"))
    assert store.save_screenshot("0123456789ab", 1, PNG).parent == store.runs / "0123456789ab"


def test_a_screenshot_is_stored_under_its_own_format_and_nothing_else_is_stored(store: FileStore) -> None:
    assert store.save_screenshot("0123456789ab", 2, b"\xff\xd8\xff\xe0jpeg").name == "step-002.jpg"
    assert store.save_screenshot("0123456789ab", 3, b"RIFF\0\0\0\0WEBPVP8 ").name == "step-003.webp"
    with pytest.raises(RequestError, match="not a PNG, JPEG or WebP"):
        store.save_screenshot("0123456789ab", 4, b"<script>alert(1)</script>")
    assert not list(store.runs.rglob("step-004*"))


def test_writes_outside_the_root_are_refused(store: FileStore, tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="outside the data directory"):
        store.write_bytes(tmp_path / "elsewhere.txt", b"x")
    os.symlink(tmp_path, store.runs / "abcdefabcdef")
    with pytest.raises(InvalidId, match="outside"):
        store.save_screenshot("abcdefabcdef", 1, PNG)


@pytest.mark.parametrize("relative", ["host-token", "devicepilot.db", "runs/../host-token", "/etc/passwd",
                                      "runs/\x00", "runs", "reports/../devicepilot.db", "runs/./../host-token",
                                      "testcases/a.yaml", "runs\\..\\host-token", ""])
def test_resolve_serves_artefacts_only(store: FileStore, relative: str) -> None:
    (store.root / "testcases").mkdir(exist_ok=True)
    (store.root / "testcases" / "a.yaml").write_text("x")
    assert store.resolve(relative) is None


def test_resolve_follows_no_symlink_out(store: FileStore) -> None:
    os.symlink(store.root / "host-token", store.reports / "token.html")
    assert store.resolve("reports/token.html") is None
    (store.reports / "r.html").write_text("<p>")
    assert store.resolve("reports/r.html") == (store.reports / "r.html").resolve()
