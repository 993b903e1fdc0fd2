"""Assembling the knowledge base from the corpus, and every cache that makes it fast.

``knowledge`` runs the stages (parse, catalog, align, graph) with a JSON cache per document and
per pair of releases; ``stored`` opens the SQLite store (rebuilt when missing, stale or damaged)
that lookups read; ``caches`` says where every cache lives (``RULES_KB_CACHE``) and when one is
stale (input keys, corpus file stats), and writes cache files all or nothing.
"""
