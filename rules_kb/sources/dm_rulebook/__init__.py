"""The whole official Duel Masters rulebook extracted from its PDF."""
