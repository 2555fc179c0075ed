"""The delegation contract and the optional execution stage (profiles-exec.md §4, §6.5-§6.6).

A compiled prompt reaches a provider only through an immutable, fingerprinted plan that a person (or
an explicitly trusted config) approved.  This room holds the portable contract -- host resolution of
a profile into a snapshot (:mod:`forgec.execute.host`) and, in :mod:`forgec.execute.contract`, request
validation, preflight, tool negotiation, context budgeting, host compilation, plan creation and
sealing, and response validation -- and the transport to the provider SDKs, imported only when a
plan runs.
"""
