"""Serve a Trac environment with ``tracd``, hiding python-multipart's ``multipart`` shim from Trac.

Trac 1.6 parses forms with the ``multipart`` package when it can import one and
falls back to the standard library's ``cgi`` otherwise. Datasette's CSRF
dependency installs python-multipart, whose ``multipart`` module is a different
package under the same name, so every POST to Trac would fail. Blocking that
import before Trac loads makes Trac use its fallback.
"""
from __future__ import annotations

import sys

if __name__ == "__main__":
    sys.modules["multipart"] = None   # type: ignore[assignment]  # "import multipart" now raises ImportError
    from trac.web.standalone import main

    sys.argv[0] = "tracd"
    main()
