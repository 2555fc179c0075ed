"""Readers of pi-forge's input documents: the prompt-stack loader and the context file.

They sit below the compiler so that ``forgec validate`` can load and check stacks without importing
any compile stage; each module is imported on its own (this package re-exports nothing).
"""
