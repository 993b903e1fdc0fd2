"""Comparison of versions: similarity, alignment, token diffs, lineage, comparison rows."""
