"""Serve buku's web UI with ``bukuserver``'s own command line, despite a file its release leaves out.

Usage: ``python -I buku_serve.py run --host 127.0.0.1 --port PORT`` with the Python of buku's own
virtual environment (isolated: this directory, which holds a ``buku.py`` of its own, is not on the path).

buku 5.1's ``create_app`` hands Flasgger the template ``bukuserver/apidocs/template.yml`` of its
Swagger API docs, but neither its wheel nor its sdist ships the ``apidocs`` folder, so every start
fails with FileNotFoundError. Without that template Flasgger serves the API docs from the views'
own docstrings; the bookmark screens never use it. Nothing is changed in the installed package.
"""
from __future__ import annotations

import os
import sys


def main() -> None:
    import flasgger
    from bukuserver import server

    class Swagger(flasgger.Swagger):  # type: ignore[misc]
        """Flasgger's Swagger, which skips a template file that is not there."""

        def __init__(self, *args, template_file: str | None = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
            if template_file and not os.path.exists(template_file):
                template_file = None
            super().__init__(*args, template_file=template_file, **kwargs)

    server.Swagger = Swagger
    sys.argv[0] = "bukuserver"
    server.cli()


if __name__ == "__main__":
    main()
