"""Linking judge notes: rule references in Markdown, HTML or plain text become permalinks."""
