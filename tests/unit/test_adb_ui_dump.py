"""Parsing UI hierarchies (uiautomator dumps, Appium page sources) and finding elements in them."""
from __future__ import annotations

import pytest

from backend_core.controllers.adb import escape_input_text, parse_wm_size
from backend_core.controllers.ui_dump import Bounds, parse_ui_xml
from shared.errors import ControllerError, RequestError

UIAUTOMATOR = """UI hierchary dumped to: /dev/tty
<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
 <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings"
       content-desc="" focusable="false" focused="false" clickable="false" bounds="[0,0][1080,1920]">
  <node index="0" text="" resource-id="" class="android.widget.ImageButton" content-desc="Navigate up"
        clickable="true" bounds="[0,80][140,220]" />
  <node index="1" text="Wi-Fi" resource-id="android:id/title" class="android.widget.TextView"
        clickable="true" focusable="true" focused="true" bounds="[60,300][1020,440]" />
  <node index="2" text="Wi-Fi calling" resource-id="android:id/title" class="android.widget.TextView"
        clickable="true" bounds="[60,440][1020,580]" />
  <node index="3" text="Hidden" resource-id="android:id/title" class="android.widget.TextView"
        bounds="[60,580][60,580]" />
 </node>
</hierarchy>
"""

APPIUM_IOS_LIKE = """<AppiumAUT><app width="390" height="844">
  <title>Settings app</title>
  <XCUIElementTypeButton name="wifi" label="Wi-Fi" x="10" y="100" width="370" height="44" visible="true"/>
  <XCUIElementTypeButton name="bt" label="Bluetooth" x="10" y="144" width="370" height="44" visible="false"/>
</app></AppiumAUT>"""


def test_uiautomator_dump_parses_with_adb_notice_around_it() -> None:
    tree = parse_ui_xml(UIAUTOMATOR)
    wifi = tree.find(text="wi-fi")
    assert [e.text for e in wifi] == ["Wi-Fi", "Wi-Fi calling"]  # exact match first, then containing
    assert wifi[0].bounds == Bounds(60, 300, 1020, 440) and wifi[0].bounds.center == (540, 370)
    assert tree.focused() is not None and tree.focused().text == "Wi-Fi"
    assert tree.find(text="hidden") == []  # an element of zero area is not visible


def test_selectors_resource_id_desc_class_and_xpath() -> None:
    tree = parse_ui_xml(UIAUTOMATOR)
    assert len(tree.find(selector="android:id/title")) == 2
    assert len(tree.find(selector="title")) == 2  # the short id
    assert len(tree.find(element_id="title", text="calling")) == 1
    assert tree.find(selector="desc:navigate UP")[0].cls == "android.widget.ImageButton"
    assert [e.text for e in tree.find(selector="class:TextView")] == ["Wi-Fi", "Wi-Fi calling"]
    assert [e.text for e in tree.find(selector="//node[@text='Wi-Fi calling']")] == ["Wi-Fi calling"]
    with pytest.raises(RequestError):
        tree.find(selector="//node[contains(@text,'x')]")
    with pytest.raises(RequestError):
        tree.find()


def test_appium_style_source_with_xywh_and_visibility() -> None:
    tree = parse_ui_xml(APPIUM_IOS_LIKE)
    wifi = tree.find(text="Wi-Fi")[0]
    assert wifi.resource_id == "wifi" and wifi.bounds == Bounds(10, 100, 380, 144)
    assert tree.find(text="Bluetooth") == []  # visible="false"
    assert "Settings app" in [e.text for e in tree.elements]


def test_broken_dumps_are_controller_errors() -> None:
    with pytest.raises(ControllerError):
        parse_ui_xml("ERROR: could not get idle state.")
    with pytest.raises(ControllerError):
        parse_ui_xml("<hierarchy><node></hierarchy>")


def test_input_text_escaping_and_screen_size() -> None:
    assert escape_input_text("hello world") == "hello%sworld"
    assert escape_input_text("a&b; c") == "'a&b;%sc'"
    assert escape_input_text("it's $HOME") == "'it'\"'\"'s%s$HOME'"
    with pytest.raises(RequestError):
        escape_input_text("café")
    assert parse_wm_size("Physical size: 1080x2400\n") == (1080, 2400)
    assert parse_wm_size("Physical size: 1080x2400\nOverride size: 720x1600\n") == (720, 1600)
    with pytest.raises(ControllerError):
        parse_wm_size("error: no devices")


def test_a_password_fields_text_is_never_read_out() -> None:
    tree = parse_ui_xml("""<hierarchy rotation="0">
 <node index="0" text="hunter22-secret" resource-id="com.app:id/pw" class="android.widget.EditText" password="true"
       bounds="[0,0][100,50]" />
 <node index="1" text="alice" resource-id="com.app:id/user" class="android.widget.EditText" bounds="[0,60][100,110]" />
</hierarchy>""")
    texts = [e.text for e in tree.elements]
    assert "hunter22-secret" not in texts and "••••" in texts and "alice" in texts
