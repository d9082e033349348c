"""The Docker images and the compose file build from the repository alone: every file they copy exists."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def dockerfile_sources(path: Path) -> list[str]:
    sources = []
    for line in path.read_text().splitlines():
        m = re.match(r"\s*COPY\s+(?!--from)(.+)\s+\S+\s*$", line)
        if m:
            sources += m.group(1).split()
    return sources


def test_each_image_copies_only_what_the_repository_has_and_starts_devicepilot() -> None:
    for name in ("server.Dockerfile", "host.Dockerfile"):
        path = ROOT / "docker" / name
        text = path.read_text()
        assert text.startswith("#") and "FROM python:3.11" in text
        for source in dockerfile_sources(path):
            assert (ROOT / source).exists(), f"{name} copies {source}, which is not in the repository"
        assert re.search(r'CMD \["devicepilot", "(server|host)"', text)
        assert "USER devicepilot" in text                     # not root at run time
    host = (ROOT / "docker" / "host.Dockerfile").read_text()
    for package in ("chromium", "tesseract-ocr", "ffmpeg", "adb"):
        assert package in host


def test_the_compose_file_wires_server_host_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"server", "host", "postgres", "redis"}
    for name in ("server", "host"):
        build = services[name]["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).is_file()
    env = services["server"]["environment"]
    assert env["DEVICEPILOT_DATABASE_URL"].startswith("postgresql+psycopg://") and "@postgres:5432/" in env[
        "DEVICEPILOT_DATABASE_URL"]
    assert env["DEVICEPILOT_MESSAGE_QUEUE"].startswith("redis://redis:")
    assert "--server" in services["host"]["command"] and "http://server:5090" in services["host"]["command"]
    config = services["host"]["command"][services["host"]["command"].index("--config") + 1]
    assert (ROOT / config.removeprefix("/app/")).is_file()
    assert set(compose["volumes"]) >= {"pgdata", "serverdata"}
