"""Questions the CLI and the site ask of the knowledge base: lookups, history, stories, diffs."""
