"""Magic's Comprehensive Rules plain-text releases, every era and encoding."""
