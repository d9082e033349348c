"""Controllers: one small interface per capability, composed per device.

Importing this package registers every built-in controller in the registry.
"""
from backend_core.controllers.base import Controller, RemoteController, ScreenController, VerificationController
from backend_core.controllers.registry import BuildContext, build_controllers, register_controller, registered_names

from backend_core.controllers import web as _web  # noqa: F401  (registers "playwright")
from backend_core.verifications import element as _element, image as _image, text as _text  # noqa: F401
from backend_core.controllers import android as _android, android_tv as _android_tv, appium as _appium  # noqa: F401
from backend_core.controllers import capture as _capture, ir as _ir, power as _power  # noqa: F401  (hdmi, ir, power)
from backend_core.verifications import video as _video  # noqa: F401  (registers "video")
from backend_core.controllers import noop as _noop  # noqa: F401  (registers "noop": load tests, benchmarks)

__all__ = [
    "BuildContext", "Controller", "RemoteController", "ScreenController", "VerificationController",
    "build_controllers", "register_controller", "registered_names",
]
