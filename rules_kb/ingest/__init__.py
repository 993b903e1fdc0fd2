"""Ingest: corpus manifest and curated files, bytes to text, format detection, parsing, accounting."""
