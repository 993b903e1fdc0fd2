"""Assembling the knowledge base from the corpus, and every cache that makes it fast.

``knowledge`` runs the stages (parse, catalog, align, graph) with a JSON cache per document and
per pair of releases; ``stored`` opens the SQLite store (rebuilt when missing, stale or damaged)
that lookups read; ``keys`` says when a cache is stale (the input key); ``cache_root`` says where
caches live (``RULES_KB_CACHE``) and writes a cache file all or nothing.
"""
