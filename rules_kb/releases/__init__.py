"""Changing the corpus: ``add`` checks a release and adds it byte for byte (the manifest entry is
written by ``ingest.corpus``); ``updates`` reads the publishers' pages (``publishers``) for
releases newer than the corpus and fetches them through ``add``."""
