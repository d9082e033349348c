# devicepilot server: REST API, dashboard, Socket.IO for hosts and dashboards, AI Central.
# Build from the repository root:  docker build -f docker/server.Dockerfile -t devicepilot-server .
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DEVICEPILOT_DATA_DIR=/data DEVICEPILOT_PORT=5090
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
RUN pip install ".[scale]" && useradd --system --home /data devicepilot && mkdir -p /data \
    && chown devicepilot /data
USER devicepilot
VOLUME /data
EXPOSE 5090
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,sys; \
    sys.exit(urllib.request.urlopen('http://127.0.0.1:5090/api/health').status != 200)"
# gunicorn (server/production.py); set DEVICEPILOT_TRUSTED_HOSTS to the names clients use
CMD ["devicepilot", "server", "--bind", "0.0.0.0", "--port", "5090"]
