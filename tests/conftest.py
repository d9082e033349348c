from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from tests.stack import Stack


@pytest.fixture(scope="session")
def demo_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One server + one demo host (StreamTV in Chromium) for the whole session."""
    stack = Stack.start(tmp_path_factory.mktemp("demo-stack"))
    try:
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def fresh_stack(tmp_path: Path) -> Iterator[Stack]:
    """A server + demo host of this test's own, for tests that break things."""
    stack = Stack.start(tmp_path)
    try:
        yield stack
    finally:
        stack.stop()
