"""Questions the CLI and the site ask of the knowledge base, and adding a release."""
