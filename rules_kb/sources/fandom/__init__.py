"""The Duel Masters Fandom wiki (English fan translation): page text and Lua module data."""
