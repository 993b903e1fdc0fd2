"""Full-text search over every rule text: a static index built with Sudachi, read by the CLI and the site."""
