"""Magic rulings pages: dated paragraphs per rule."""
