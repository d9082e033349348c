"""VerificationExecutor: element, text, image and video verifications."""
from __future__ import annotations

from backend_core.executors.base import CommandExecutor
from shared.commands import CommandKind


class VerificationExecutor(CommandExecutor):
    kind = CommandKind.VERIFICATION
