"""Importers that turn other tools' prompt formats into pi-forge prompt stacks."""
