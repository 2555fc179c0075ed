"""The agent side of pi-forge, as workflows over files on disk: agent profiles in both scopes and
the forge config (profiles-exec.md §1, §2).

* :mod:`forgec.agents.profiles` -- load the profiles and prompt stacks of the project and the user's
  global forge folder (project shadows global), the effective views, auto-activation, resolution
  against a model catalog, capture and the scope-guarded writes;
* :mod:`forgec.agents.config` -- the layered subagent settings of both config files, the effective
  policy per profile selector, the web editor's port, and the config updater's atomic writes.

The file formats themselves are codecs (:mod:`forgec.codecs.profile`, :mod:`forgec.codecs.forge_config`);
this room decides which files are read together and writes them back.
"""
