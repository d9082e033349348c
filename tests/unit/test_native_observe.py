"""Native UI hierarchies read as a ScreenObservation: roles, names, state, rows."""
from __future__ import annotations

from pathlib import Path

import pytest

from backend_core.controllers.native_observe import observe_tree, role_of
from backend_core.controllers.registry import BuildContext, build_controllers
from backend_core.controllers.ui_dump import UiElement, parse_ui_xml
from backend_core.device import Device
from shared.errors import UnknownCommand
from tests.fakes import FIXTURES, FakeAdb

DUMP = """<hierarchy rotation="0">
 <node class="android.widget.FrameLayout" package="com.example.todo" bounds="[0,0][1080,1920]">
  <node class="android.widget.EditText" resource-id="com.example.todo:id/new_todo" text="milk"
        content-desc="New todo" focused="true" clickable="true" bounds="[0,0][1080,100]"/>
  <node class="androidx.recyclerview.widget.RecyclerView" resource-id="com.example.todo:id/list" bounds="[0,100][1080,900]">
   <node class="android.widget.LinearLayout" clickable="true" bounds="[0,100][1080,200]">
    <node class="android.widget.CheckBox" resource-id="com.example.todo:id/done" checked="true" clickable="true"
          bounds="[0,100][100,200]"/>
    <node class="android.widget.TextView" text="buy bread" bounds="[100,100][900,200]"/>
    <node class="android.widget.ImageButton" content-desc="Delete" resource-id="com.example.todo:id/deleteButton"
          clickable="true" bounds="[900,100][1080,200]"/>
   </node>
   <node class="android.widget.LinearLayout" clickable="true" bounds="[0,200][1080,300]">
    <node class="android.widget.CheckBox" resource-id="com.example.todo:id/done" checked="false" clickable="true"
          bounds="[0,200][100,300]"/>
    <node class="android.widget.TextView" text="walk the dog" bounds="[100,200][900,300]"/>
   </node>
  </node>
  <node class="android.widget.Spinner" resource-id="com.example.todo:id/lang" text="English" clickable="true"
        bounds="[0,900][1080,1000]"/>
  <node class="android.widget.Switch" text="Dark mode" checked="true" enabled="false" bounds="[0,1000][1080,1100]"/>
 </node>
</hierarchy>"""


def test_widgets_map_to_roles_with_names_state_and_rows() -> None:
    obs = observe_tree(parse_ui_xml(DUMP), "android")
    assert obs.platform == "android" and obs.url == "app://com.example.todo"
    by = {(e.role, e.label): e for e in obs.elements}
    field = by[("textbox", "New todo")]
    assert field.value == "milk" and field.focused and field.hint == "new todo"
    assert field.selector == "com.example.todo:id/new_todo"
    done = [e for e in obs.elements if e.role == "checkbox"]
    assert [(d.checked, d.container) for d in done] == [(True, "buy bread"), (False, "walk the dog")]
    delete = by[("button", "Delete")]
    assert delete.container == "buy bread" and delete.hint == "delete button" and delete.clickable
    assert delete.box == (900, 100, 180, 100)
    assert by[("text", "buy bread")].text == "buy bread"
    assert by[("combobox", "English")].clickable
    dark = by[("switch", "Dark mode")]
    assert dark.checked is True and dark.disabled
    assert not any(e.role == "" for e in obs.elements)


def test_role_of_unknown_classes() -> None:
    assert role_of(UiElement("com.example.FancyView", clickable=True)) == "button"
    assert role_of(UiElement("com.example.FancyView", text="Hello")) == "text"
    assert role_of(UiElement("android.widget.FrameLayout")) == ""
    assert role_of(UiElement("XCUIElementTypeStaticText", text="Hi")) == "text"
    assert role_of(UiElement("XCUIElementTypeSwitch")) == "switch"
    assert role_of(UiElement("android.widget.TextView", text="Wi-Fi", clickable=True)) == "button"


def test_appium_page_source_of_the_fake_driver() -> None:
    obs = observe_tree(parse_ui_xml((FIXTURES / "appium" / "settings-app.xml").read_text()), "appium")
    names = [e.name for e in obs.elements if e.role == "button"]
    assert names == ["Camera", "Settings", "Wi-Fi", "Bluetooth", "Display"]  # Airplane mode is visible="false"
    search = next(e for e in obs.elements if e.role == "textbox")
    assert search.name == "Search apps" and search.box == (60, 160, 960, 120)


def test_adb_device_observes_its_screen_through_the_shim(fake_adb: FakeAdb, tmp_path: Path) -> None:
    made = build_controllers([{"type": "adb", "params": {"serial": "phone-1", "key_delay": 0}}],
                             BuildContext("phone-1", tmp_path))
    device = Device("phone-1", "Phone", "pixel", "android", made)
    obs = device.observe()
    assert obs.platform == "android" and obs.url == "app://com.android.launcher3"
    assert {"Camera", "Chrome", "Play Store", "Settings"} <= {e.name for e in obs.of_role("button")}
    search = next(e for e in obs.elements if e.role == "textbox")
    assert search.name == "Search apps" and search.hint == "search box"
    device.controllers[0].execute("click_element", {"text": "Settings"})
    assert "Wi-Fi" in device.observe().visible_texts()


def test_a_device_with_no_screen_reader_says_so() -> None:
    device = Device("stb-1", "STB", "stb", "stb", [])
    with pytest.raises(UnknownCommand, match="cannot read its screen"):
        device.observe()
