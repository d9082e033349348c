"""ActionExecutor: remote, power and other input commands."""
from __future__ import annotations

from backend_core.executors.base import CommandExecutor
from shared.commands import CommandKind


class ActionExecutor(CommandExecutor):
    kind = CommandKind.ACTION
