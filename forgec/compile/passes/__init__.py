"""The passes of one compile that are not item rendering (compile-core.md §5, §8, §9).

* :mod:`~forgec.compile.passes.history` — the chat-history pipeline (filters, limits, tool drop and
  tool-pair repair, thinking strip);
* :mod:`~forgec.compile.passes.policy` — the tool and skill allow/deny policy;
* :mod:`~forgec.compile.passes.regex` — the regex rules over blocks, history and finalized messages.

Each pass is a function of its inputs; the assembler (:mod:`forgec.compile.assemble`) calls them.
"""
