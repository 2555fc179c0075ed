"""``forgec lsp``: everything ``forgec validate`` knows, in the editor, as the user types.

A language server over stdio (pygls, the optional ``forgec[lsp]`` extra) for prompt stacks, agent
profiles, forge config files, model catalogs, contexts and ``[tool.forgec]``.  It is a front end
like the command line: the answers come from the library (:mod:`forgec.lint` on the editor's
unsaved text through :mod:`forgec.source.overlay`, :mod:`forgec.report` for the preview), and each
module here has one job:

* :mod:`forgec.lsp.files` -- which kind of file a document is (by its place in ``.pi/forge``);
* :mod:`forgec.lsp.positions` -- forgec's 1-based character columns <-> LSP's UTF-16 positions;
* :mod:`forgec.lsp.project` -- one :class:`~forgec.environment.Environment` per workspace folder,
  the open buffers, and linting them (the cross-file findings of every open file at once);
* :mod:`forgec.lsp.convert` -- findings -> LSP diagnostics (codes, links, folded notes);
* :mod:`forgec.lsp.cursor` -- what the text around the cursor is (a key, a value, a macro);
* :mod:`forgec.lsp.completion`, :mod:`forgec.lsp.hover`, :mod:`forgec.lsp.navigation`,
  :mod:`forgec.lsp.actions`, :mod:`forgec.lsp.preview` -- the features;
* :mod:`forgec.lsp.server` -- the pygls server that wires them to the protocol.

Only :mod:`forgec.lsp.server` imports pygls; :func:`missing_extra` tells a user without it what to
install, so ``forgec lsp`` never ends in an ``ImportError`` traceback.
"""

from __future__ import annotations

import importlib.util

__all__ = ["INSTALL_HINT", "missing_extra"]

#: what ``forgec lsp`` prints when pygls is not installed
INSTALL_HINT = (
    "the language server needs the optional 'lsp' extra (pygls, lsprotocol); install it with\n"
    "  pip install 'forgec[lsp]'\n"
    "(or `pipx inject forgec pygls lsprotocol` for a pipx install)"
)


def missing_extra() -> str | None:
    """``None`` when the server can start, else the name of the first missing module."""
    for module in ("pygls", "lsprotocol"):
        if importlib.util.find_spec(module) is None:
            return module
    return None
