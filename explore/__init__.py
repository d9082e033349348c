"""The explorer: drive a device from its current screen and draft its navigation tree.

``devicepilot explore`` uses :class:`explore.explorer.Explorer` over a
:class:`explore.link.DeviceLink` (the server's REST API); a strategy chosen
by the device's capabilities (:mod:`explore.strategies`) proposes the actions
to try on each screen and the ways back.
"""
