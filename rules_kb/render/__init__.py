"""Views: terminal text, JSON records, graph export, all-or-nothing file writes."""
