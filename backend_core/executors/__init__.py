"""The Action, Verification and Navigation executors of a device."""
from backend_core.executors.action import ActionExecutor
from backend_core.executors.navigation import NavigationExecutor
from backend_core.executors.verification import VerificationExecutor

__all__ = ["ActionExecutor", "NavigationExecutor", "VerificationExecutor"]
