"""The devicepilot server: REST API, Socket.IO for hosts and dashboards, AI Central, runs, reports."""
