"""Where the render stage finds ``rules_kb.visible`` (kept so that its importers need not change)."""

from rules_kb.visible import make_visible, people_json, visible_data, visible_page

__all__ = ["make_visible", "people_json", "visible_data", "visible_page"]
