"""``forgec ui``: the local web editor (the ``[ui]`` extra: starlette and uvicorn).

A server on ``127.0.0.1`` with a session token (:mod:`forgec.web.guard`) serves plain HTML, CSS and
JavaScript shipped in ``static/`` (no build step, no network) and a small JSON API over the same
library workflows the command line calls: the stack storage and its guarded writes
(:mod:`forgec.web.storage`), live findings, compile, provider body, fingerprint and diff
(:mod:`forgec.web.live`), the project's listings (:mod:`forgec.web.project`), the routes
(:mod:`forgec.web.app`) and the socket and port (:mod:`forgec.web.server`).

Nothing here is imported unless ``forgec ui`` runs.
"""
