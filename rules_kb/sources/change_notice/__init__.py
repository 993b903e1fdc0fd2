"""Official Duel Masters change notices (変更点), in their three shapes."""
