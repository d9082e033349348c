# devicepilot host: drives the devices plugged into this machine (adb, Playwright/Chromium,
# Tesseract OCR, ffmpeg for HDMI capture) and dials out to the server.
# Build from the repository root:  docker build -f docker/host.Dockerfile -t devicepilot-host .
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 DEVICEPILOT_CHROMIUM=/usr/bin/chromium
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium tesseract-ocr ffmpeg adb fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY devicepilot ./devicepilot
COPY server ./server
COPY shared ./shared
COPY host ./host
COPY backend_core ./backend_core
COPY explore ./explore
COPY evals ./evals
COPY frontend ./frontend
COPY examples ./examples
RUN pip install . && useradd --system --create-home devicepilot
USER devicepilot
# mount your host YAML (and its trees) at /config; USB devices need --device or privileged mode for adb
CMD ["devicepilot", "host", "--server", "http://server:5090", "--config", "/config/host.yaml"]
