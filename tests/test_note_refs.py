"""``find_note_references``: game tags, version suffixes and item spans around the one grammar."""

from __future__ import annotations

import pytest

from rules_kb.refs import find_note_references, find_references


def spans(text: str, game: str | None = None) -> list[tuple[str, str | None, str | None, list[str]]]:
    return [
        (ref.raw, ref.game, ref.version, [text[start:end] for start, end, _ in ref.items])
        for ref in find_note_references(text, game=game)
    ]


FULL_WIDTH_SUFFIX = "総合ルール507.2a（Ver.１．３８）"


@pytest.mark.parametrize(("text", "expected"), [
    ("DM 507.2a", [("DM 507.2a", "dm", None, ["DM 507.2a"])]),
    ("MTG CR 509.1a.", [("MTG CR 509.1a", "mtg", None, ["MTG CR 509.1a"])]),
    ("see MTG　309.2a", [("MTG　309.2a", "mtg", None, ["MTG　309.2a"])]),
    ("507.2a (1.38)", [("507.2a (1.38)", None, "1.38", ["507.2a (1.38)"])]),
    (FULL_WIDTH_SUFFIX, [(FULL_WIDTH_SUFFIX, "dm", "1.38", [FULL_WIDTH_SUFFIX])]),  # 総合ルール is Duel Masters' tag
    ("MTG 509.1a (2024-11-08)", [("MTG 509.1a (2024-11-08)", "mtg", "2024-11-08", ["MTG 509.1a (2024-11-08)"])]),
    ("rules 601.2b and 601.2f–h", [("rules 601.2b and 601.2f–h", None, None, ["rules 601.2b", "601.2f–h"])]),
    ("（参考:603.2e）", [("参考:603.2e", None, None, ["参考:603.2e"])]),
    ("ADM 507.2a", [("507.2a", None, None, ["507.2a"])]),  # a tag is a word of its own
    ("MTG\n509.1a", [("509.1a", None, None, ["509.1a"])]),  # and on the number's line
    ("507.2a (1.38 version)", [("507.2a", None, None, ["507.2a"])]),
    ("Ver. 1.38 and 5000 and 3体", []),
])
def test_tags_suffixes_and_items(text: str, expected: list) -> None:
    assert spans(text) == expected


def test_a_tag_sets_the_game_of_range_expansion() -> None:
    """Duel Masters has 703.4l; Magic never uses the letters l and o, so its ranges skip them."""
    [dm] = find_note_references("DM 703.4k–m")
    [mtg] = find_note_references("MTG 703.4k–m", game="dm")
    assert [str(n) for n in dm.numbers] == ["703.4k", "703.4l", "703.4m"]
    assert [str(n) for n in mtg.numbers] == ["703.4k", "703.4m"]
    assert dm.items[0][:2] == (0, 11)


def test_plain_references_are_unchanged() -> None:
    """Without tags or suffixes the note finder sees exactly what ``find_references`` sees."""
    text = "See rules 509.1a–c, 510.1 and 702.19b; 総合ルール 507.3c と（参考:603.2e）"
    plain = find_references(text)
    noted = find_note_references(text)
    assert [(r.start, r.end, r.numbers) for r in plain] == [(r.start, r.end, r.numbers) for r in noted]
    assert [item[:2] for item in plain[0].items] == [(4, 18), (20, 25), (30, 37)]
