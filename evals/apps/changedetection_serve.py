"""Serve changedetection.io with its own command line, plus a way to put its datastore back while it runs.

Usage: ``python -I changedetection_serve.py -d DATASTORE -h 127.0.0.1 -p PORT`` with the Python of
changedetection.io's own virtual environment, ``DEVICEPILOT_SEED_DIR`` naming the seed datastore and
``DEVICEPILOT_TOKEN`` the token its two requests below must carry.

changedetection.io keeps its watches and groups in memory and writes them to its datastore
(``changedetection.json``, ``UUID/watch.json``, ``UUID/tag.json``, snapshots beside them): most changes at
once, a watch imported from a list only when it is first checked. Two requests carry the token in the
``X-Devicepilot-Token`` header and are answered before the app's own request hooks (login, CSRF):

- ``POST`` :data:`RESET_PATH` waits until no check is under way, puts the seed's files back in place of the
  datastore's (the Flask secret in ``secret.txt`` stays, so the browser's session outlives it) and has the
  store read them again with its own ``reload_state``, the loader it starts with;
- ``GET`` :data:`STATE_PATH` answers the store's watches, groups and settings as they are in memory, as the
  screens show them (what the judges read).

Nothing is changed in the installed package; the app's screens are untouched.
"""
from __future__ import annotations

import hmac
import json
import os
import shutil
import time

RESET_PATH = "/__devicepilot__/reset"
STATE_PATH = "/__devicepilot__/state"
KEEP = {"secret.txt"}          # the Flask secret key: the browser's session (and its language) survive a reset


def restore(datastore, seed: str, version: str) -> None:  # type: ignore[no-untyped-def]
    """Replace the datastore's files with the seed's, then reload the store from them."""
    from changedetectionio import worker_pool
    from changedetectionio.flask_app import update_q

    deadline = time.monotonic() + 5
    while (update_q.qsize() or worker_pool.get_running_uuids()) and time.monotonic() < deadline:
        time.sleep(0.05)       # a check under way writes its watch when it ends: let it end first
    live = datastore.datastore_path
    with datastore.lock:
        for name in os.listdir(live):
            if name in KEEP:
                continue
            path = os.path.join(live, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
        for name in os.listdir(seed):
            src, dst = os.path.join(seed, name), os.path.join(live, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)
        datastore.reload_state(datastore_path=live, include_default_watches=False, version_tag=version)


def plain(entity) -> dict:  # type: ignore[no-untyped-def]
    """A watch or group as stored: its keys, without the in-memory ones (``__…``), JSON-safe."""
    return json.loads(json.dumps({k: v for k, v in dict(entity).items() if not str(k).startswith("__")},
                                 default=str))


def state(datastore) -> dict:  # type: ignore[no-untyped-def]
    """The store's watches (with their snapshots' times), groups and settings, as they are in memory."""
    data = datastore.data
    tags = dict(data["settings"]["application"].get("tags") or {})
    watches = {uuid: {**plain(watch), "__history": sorted(int(float(t)) for t in watch.history)}
               for uuid, watch in list(data["watching"].items())}
    settings = {k: v for k, v in data["settings"].items() if k != "application"}
    settings["application"] = {k: v for k, v in data["settings"]["application"].items() if k != "tags"}
    return {"watches": watches, "tags": {uuid: plain(tag) for uuid, tag in tags.items()},
            "settings": json.loads(json.dumps(settings, default=str))}


def main() -> None:
    import changedetectionio
    from changedetectionio import flask_app
    from flask import jsonify, request

    seed = os.environ["DEVICEPILOT_SEED_DIR"]
    token = os.environ["DEVICEPILOT_TOKEN"]
    make_app = flask_app.changedetection_app

    def changedetection_app(config=None, datastore_o=None):  # type: ignore[no-untyped-def]
        app = make_app(config, datastore_o)

        def eval_hook():  # type: ignore[no-untyped-def]
            if request.path not in (RESET_PATH, STATE_PATH):
                return None
            if not hmac.compare_digest(request.headers.get("X-Devicepilot-Token", ""), token):
                return "forbidden", 403
            if request.path == STATE_PATH and request.method == "GET":
                return jsonify(state(datastore_o))
            if request.path == RESET_PATH and request.method == "POST":
                restore(datastore_o, seed, changedetectionio.__version__)
                return "", 204
            return "method not allowed", 405

        app.before_request_funcs.setdefault(None, []).insert(0, eval_hook)
        return app

    flask_app.changedetection_app = changedetection_app
    changedetectionio.main()


if __name__ == "__main__":
    main()
