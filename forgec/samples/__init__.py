"""Built-in sample inputs (a realistic context for ``forgec preview`` without ``--context``)."""
