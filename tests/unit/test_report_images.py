"""Reports carry each screenshot once: the stored report links the file, the export embeds it once."""
from __future__ import annotations

from pathlib import Path

from server.reports import render_html


def run_with_shot(tmp_path: Path) -> dict:
    shot = tmp_path / "runs" / "0123456789ab" / "step-1.png"
    shot.parent.mkdir(parents=True)
    shot.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 5000)
    return {"id": "0123456789ab", "status": "passed", "task": "go home", "device_id": "tv", "plan": {},
            "steps": [{"step": 1, "command": "goto", "params": {"node": "home"}, "status": "passed",
                       "duration_ms": 5, "screenshot": str(shot)}]}


def test_the_stored_report_links_its_screenshots(tmp_path: Path) -> None:
    page = render_html([run_with_shot(tmp_path)], embed=False)
    assert "base64" not in page and page.count('src="../runs/0123456789ab/step-1.png"') == 1
    assert len(page) < 10_000


def test_the_single_file_export_embeds_each_screenshot_once(tmp_path: Path) -> None:
    page = render_html([run_with_shot(tmp_path)], embed=True)
    assert page.count("data:image/png;base64,") == 1
