"""The site stage: generated pages + hand-written sources → mkdocs build → a static folder."""
