"""dmwiki pages in PukiWiki markup (commentary on rules)."""
