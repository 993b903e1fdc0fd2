"""The knowledge store: one SQLite file that lookups read without loading everything (docs/store.md)."""
