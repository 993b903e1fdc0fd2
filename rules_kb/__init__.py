"""rules-kb: trading-card-game comprehensive rules as a cross-referenced knowledge base."""

__version__ = "0.1.0"
