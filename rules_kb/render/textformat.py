"""Plain-text and JSON-ready views of comparisons and stories, for the CLI and the site.

Formatting only: every fact comes from the answers it is handed (``compare.changes``, ``ask``);
nothing here asks a question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rules_kb.games import GAME_SHORT_NAMES
from rules_kb.model import RuleText, span_extent
from rules_kb.numbers import RuleNumber
from rules_kb.render.terminal import LEGEND
from rules_kb.visible import escaped_json

if TYPE_CHECKING:  # type names only: show/history must not import the comparison stages
    from rules_kb.ask.chains import Chain, Counterpart
    from rules_kb.ask.story import Story
    from rules_kb.compare.changes import Comparison, RowChange
    from rules_kb.ingest.pipeline import Ingested


def _label(number) -> str:
    return "-" if number is None else str(number)


def row_record(row: RowChange) -> dict:
    from rules_kb.render.diffmarkup import render_html  # not on show/history's path

    pair = row.pair
    record = {
        "kind": row.kind,
        "old": _label(pair.old_number),
        "new": _label(pair.new_number),
        "similarity": round(pair.similarity, 3),
        "forced": pair.forced,
        "targets": [str(n) for n in pair.targets],
        "compared_prefix": row.compared_prefix,
    }
    if row.diff is not None:
        record["text_class"] = row.text_class
        record["html"] = render_html(row.diff)
        record["editorial"] = [list(change) for change in row.diff.editorial_changes]
        record["substantive"] = [list(change) for change in row.diff.substantive_changes]
        record["examples"] = [{"class": d.classification, "html": render_html(d),
                               "editorial": [list(c) for c in d.editorial_changes]} for d in row.example_diffs]
    elif pair.old is not None:
        record["text"] = pair.old.text
    else:
        record["text"] = pair.new.text
    return record


CHANGED_SHOWN = 6  # changes listed on a substantive row's "changed:" line; the diff above has all
CHANGE_WIDTH = 60


def changed_words(row: RowChange) -> str:
    """A substantive row's changes in substance, one after another: ``'assigned' -> 'dealt'``,
    ``+'in APNAP order'``, ``-'or if multiple players'`` (editorial ones are listed apart)."""
    if row.diff is None or row.text_class != "substantive":
        return ""
    return describe_changes([c for d in (row.diff, *row.example_diffs) for c in d.substantive_changes])


def editorial_note(change: tuple[str, str, str]) -> str:
    """One editorial change as ``diff`` lists it under a row (the compare page shows the same line)."""
    old, new, reason = change
    return f"editorial ({reason}): {old!r} -> {new!r}"


def describe_changes(changes: Sequence[tuple[str, str]]) -> str:
    """Changes in substance as ``changed_words`` lists them (``audit`` lists a cited rule's too)."""
    parts = []
    for old, new in changes[:CHANGED_SHOWN]:
        old, new = _clip(old), _clip(new)
        parts.append(f"{old!r} -> {new!r}" if old and new else f"+{new!r}" if new else f"-{old!r}")
    more = len(changes) - CHANGED_SHOWN
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CHANGE_WIDTH else text[: CHANGE_WIDTH - 1] + "…"


def comparison_record(comparison: Comparison) -> dict:
    a = comparison.alignment
    return {
        "game": a.game, "lang": a.lang, "old": a.old_version, "new": a.new_version,
        "old_complete": a.old_complete, "new_complete": a.new_complete,
        "counts": comparison.counts(),
        "unknown_old": [str(n) for n in a.unknown_old], "unknown_new": [str(n) for n in a.unknown_new],
        "notes": list(a.notes),
        "rows": [row_record(row) for row in comparison.rows],
    }


UNKNOWN_SHOWN = 12  # numbers listed on an "unknown" line unless --all asks for every one


def comparison_text(comparison: Comparison, show_unchanged: bool = False, substantive_only: bool = False,
                    legend: bool = True, partial: Mapping[str, str] | None = None) -> str:
    """A comparison for reading: counts, what is unknown and why, then one entry per changed row.

    ``substantive_only`` keeps the rows that change what the rules say (see ``RowChange.substantive``);
    ``partial`` says what each partial version is (``ask.diffs.partial_versions``).
    """
    a = comparison.alignment
    counts = ", ".join(f"{n} {k}" for k, n in comparison.counts().items() if n or k != "renumbered-reference")
    lines = [f"{a.game} {a.lang} {a.old_version} -> {a.new_version}: {counts}"]
    for label, what in (partial or {}).items():
        lines.append(f"  {label} is a partial version ({what}): only the rules both versions hold are compared")
    for mine, other, unknown in ((a.old_version, a.new_version, a.unknown_old),
                                 (a.new_version, a.old_version, a.unknown_new)):
        if unknown:
            listed = unknown if show_unchanged or partial is None else unknown[:UNKNOWN_SHOWN]
            more = f" and {len(unknown) - len(listed)} more (--all lists them)" if len(listed) < len(unknown) else ""
            lines.append(f"  {len(unknown)} rules only in {mine}, unknown in {other} (partial): not added or removed, "
                         f"not compared: {', '.join(map(str, listed))}{more}")
    lines.extend(f"  note: {note}" for note in a.notes)
    shown = [row for row in comparison.rows
             if (show_unchanged or row.kind != "unchanged") and (row.substantive or not substantive_only)]
    if substantive_only:
        lines.append(f"  showing the {len(shown)} substantive rows (substantive, split, added, removed, "
                     f"moved with substantive edits)")
    if legend and any(row.diff is not None and row.kind != "unchanged" for row in shown):
        lines.append(f"  {LEGEND}")
    lines.extend(_row_text(row) for row in shown)
    return "\n".join(lines)


def _row_text(row: RowChange) -> str:
    from rules_kb.render.diffmarkup import render_terminal  # not on show/history's path

    pair = row.pair
    head = f"  {_label(pair.old_number)}"
    if pair.kind == "moved":
        head += f" -> {pair.new_number} (moved, similarity {pair.similarity:.2f}; text {row.text_class})"
    elif pair.kind == "split":
        head = f"  {pair.old_number} (split: its sentences are now in {', '.join(map(str, pair.targets))})"
    elif pair.kind in ("added", "removed"):
        head = f"  {_label(pair.new_number if pair.kind == 'added' else pair.old_number)} ({pair.kind})"
    else:
        head += f" ({row.kind})"
    if pair.forced:
        head += " [forced match, corpus/forced-matches.toml]"
    if row.compared_prefix:
        head += " [one side is cut off in its source: compared on the common part]"
    lines = [head]
    if row.diff is not None:
        lines.append(f"    {render_terminal(row.diff, False)}")
        if changed := changed_words(row):
            lines.append(f"    changed: {changed}")
        lines.extend(f"    {editorial_note(change)}" for change in row.diff.editorial_changes)
        label = example_label(pair.new.lang)
        for diff in row.example_diffs:
            if diff.classification != "unchanged":
                lines.append(f"    example ({diff.classification}): {label}{render_terminal(diff, False)}")
        lines.extend(f"    example removed: [-{label}{text}-]" for text in row.examples_removed)
        lines.extend(f"    example added: {{+{label}{text}+}}" for text in row.examples_added)
    else:
        text = (pair.new or pair.old)
        lines.append(f"    {text.title or ''}{' ' if text.title and text.text else ''}{text.text}")
    return "\n".join(lines)


def story_record(story: Story) -> dict:
    return {
        "game": story.game, "rule": str(story.number),
        "chains": {lang: [comparison_record(c) for c in chain] for lang, chain in story.chains.items()},
        "drift": [d.to_record() for d in story.drift],
        "lags": story.lags,
        "correspondences": [{
            "change": c.change, "old": {"lang": c.old[0], "version": c.old[1], "number": str(c.old[2])},
            "new": {"lang": c.new[0], "version": c.new[1], "number": str(c.new[2])},
            "meaning": c.meaning, "evidence": c.evidence} for c in story.correspondences],
        "notices": [n.to_record() for n in story.notices],
        "commentary": [p.to_record() for p in story.commentary],
        "gaps": story.gaps,
    }


def story_text(story: Story) -> str:
    out = [f"== {story.game} {story.number}: what changed and what it means", LEGEND]
    for lang, chain in story.chains.items():
        if chain:
            out.append(f"\n-- {lang}: version by version")
            out.extend(comparison_text(c, legend=False) for c in chain)
    if story.notices:
        out.append("\n-- change notices")
        out.extend(f"  {n.date} {n.document}: {', '.join(n.rules)}" for n in story.notices)
    if story.lags or story.drift:
        out.append("\n-- translations")
        out.extend(f"  {lag}" for lag in story.lags)
        out.extend(f"  drift in {d.version} {d.number}: {'; '.join(d.drift)}" for d in story.drift)
    if story.correspondences:
        out.append("\n-- old -> new (across the rewrite)")
        for c in story.correspondences:
            out.append(f"  {c.old[0]} {c.old[1]} {c.old[2]} -> {c.new[0]} {c.new[1]} {c.new[2]}: {c.meaning}")
    if story.commentary:
        out.append("\n-- commentary")
        out.extend(f"  {'  ' * max(p.level - 1, 0)}- {p.text} [{p.document}]" for p in story.commentary)
    if story.gaps:
        out.append("\n-- not in the corpus")
        out.extend(f"  {gap}" for gap in story.gaps)
    return "\n".join(out)


EXAMPLE_LABELS = {"ja": "例：", "en": "Example: "}


def example_label(lang: str) -> str:
    """The label printed before an example; the model holds example texts without one."""
    return EXAMPLE_LABELS.get(lang, "Example: ")


def indented(text: str, indent: str = "  ") -> str:
    """Every line of a multi-paragraph text indented, so a second paragraph does not start at column 0."""
    return "\n".join(indent + line if line else line for line in text.split("\n"))


def format_text(text: RuleText, copies: Sequence[RuleText] = ()) -> str:
    """A rule text for reading; ``copies`` are other documents holding the very same text of that version."""
    head = f"{text.game} {text.lang} {text.version}" + (f" ({text.date})" if text.date else "")
    where = ", ".join(f"{t.document}:{t.spans[0][0]}" for t in (text, *copies))
    lines = [f"{text.number}  [{head}; {where}]"]
    if text.title:
        lines.append(indented(text.title))
    if text.text:
        lines.append(indented(text.text))
    lines.extend(indented(example_label(text.lang) + example.text) for example in text.examples)
    if text.truncated:
        lines.append("  (truncated in the source)")
    return "\n".join(lines)


def same_text_once(texts: Sequence[RuleText]) -> list[tuple[int, list[RuleText]]]:
    """Indexes of the texts to show, each with the other texts that are copies of it.

    Two documents of one version often hold the same text (the seed and the Fandom page of
    English 1.38, the latter cut off in its excerpt); a history shows the whole text once and
    names every source. A cut-off copy is a copy when its text starts the whole one.
    """
    shown: list[int] = []
    copies: list[list[RuleText]] = []
    # Only texts of one version, number and title can be copies (``_copies``): each text is held
    # against those alone, not against every text shown before it (a history of a hundred releases).
    slots: dict[tuple, list[int]] = {}
    for index, text in enumerate(texts):
        key = (text.game, text.lang, text.version, text.number, text.title)
        for slot in slots.get(key, ()):
            held = texts[shown[slot]]
            if _copies(held, text):
                if held.truncated and not text.truncated:  # show the whole text, name the excerpt
                    shown[slot] = index
                    copies[slot].append(held)
                else:
                    copies[slot].append(text)
                break
        else:
            slots.setdefault(key, []).append(len(shown))
            shown.append(index)
            copies.append([])
    return list(zip(shown, copies, strict=True))


def unchanged_runs(texts: Sequence[RuleText], shown: list[tuple[int, list[RuleText]]],
                   new_era: Sequence[bool]) -> list[list[tuple[int, list[RuleText]]]]:
    """``same_text_once``'s entries grouped into runs of consecutive versions that say the same thing.

    A run stays within one game, language and era of the number and needs the same title,
    text and examples (as the site's rule pages group them), so a history of forty releases
    prints each wording once.
    """
    runs: list[list[tuple[int, list[RuleText]]]] = []
    for entry in shown:
        text = texts[entry[0]]
        if runs and not new_era[entry[0]] and _same_words(texts[runs[-1][-1][0]], text):
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return runs


def unchanged_line(texts: Sequence[RuleText], run: list[tuple[int, list[RuleText]]]) -> str:
    """The line under a run's text naming the later versions that repeat it, and where the last one is."""
    later = [texts[index] for index, _ in run[1:]]
    last = later[-1]
    span = later[0].version if len(later) == 1 else f"{later[0].version} to {last.version}"
    return (f"  = unchanged in {len(later)} later version{'s' if len(later) > 1 else ''}, {span} "
            f"(last: {last.document}:{last.spans[0][0]})")


def _same_words(a: RuleText, b: RuleText) -> bool:
    return ((a.game, a.lang, a.number, a.title, a.text, a.truncated) == (b.game, b.lang, b.number, b.title, b.text,
                                                                        b.truncated)
            and [e.text for e in a.examples] == [e.text for e in b.examples] and a.version != b.version)


def _copies(a: RuleText, b: RuleText) -> bool:
    if (a.game, a.lang, a.version, a.number, a.title) != (b.game, b.lang, b.version, b.number, b.title):
        return False
    if not a.truncated and not b.truncated:
        return a.text == b.text and [e.text for e in a.examples] == [e.text for e in b.examples]
    cut, whole = (a, b) if a.truncated else (b, a)
    return bool(cut.text) and whole.text.startswith(cut.text.rstrip().rsplit(" ", 1)[0])


def summarise(item: Ingested) -> str:
    parsed = item.parsed
    residue = sum(len(r.text) for r in parsed.residue)
    examples = sum(len(r.examples) for r in parsed.rules)
    held = (f"{len(parsed.sections)} sections, {sum(len(s.parts) for s in parsed.sections)} parts"
            if parsed.sections else f"{len(parsed.rules)} rules, {examples} examples, {len(parsed.terms)} terms")
    return (
        f"{parsed.meta.id}: {held}, "
        f"{len(parsed.anomalies)} anomalies, {residue} residue chars, "
        f"{item.accounting.percent:.2f}% accounted"
    )


def model_lines(results: Iterable[Ingested]) -> Iterable[str]:
    """The model as JSON Lines, in manifest then document order: deterministic by design."""
    for item in results:
        parsed = item.parsed
        for rule in parsed.rules:
            yield _dump({"record": "rule", **rule.to_record()})
        for section in parsed.sections:
            yield _dump({"record": "section", **section.to_record()})
        for term in parsed.terms:
            yield _dump({"record": "term", "game": term.game, "lang": term.lang, "version": term.version,
                         "term": term.term, "definition": term.definition, "document": parsed.meta.id,
                         "span": span_extent(term.spans)})
        for anomaly in parsed.anomalies:
            yield _dump({"record": "anomaly", "document": anomaly.document, "position": anomaly.position,
                         "code": anomaly.code, "message": anomaly.message, "decision": anomaly.decision})


def _dump(record: dict) -> str:
    return escaped_json(record, sort_keys=False)  # the model's data, unchanged; no raw U+202E on a terminal


def history_text(texts: Sequence[RuleText], eras: list[bool], documents: dict[str, list], moves: dict[str, list],
                 gone: list[str]) -> str:
    """``history``'s view: each run of identical consecutive versions once, then where texts moved,
    the notices and commentary linked, and the line saying the number has left the rules."""
    out = []
    for run in unchanged_runs(texts, same_text_once(texts), eras):
        index, copies = run[0]
        text = texts[index]
        if eras[index]:
            out.append(f"-- {text.number} is another rule from {text.version} on: the rule that held the number "
                       f"before moved or was removed (see 'moved to' below)")
        out.append(format_text(text, copies))
        if len(run) > 1:
            out.append(unchanged_line(texts, run))
    for game, rows in moves.items():
        for row in rows:
            out.append(f"{game} {row.lang}: {row.direction} {row.other} in {row.to_version} "
                       f"(from {row.from_version}; similarity {row.similarity:.2f})")
    for game, docs in documents.items():
        for doc in docs:
            marks = f" {', '.join(doc.marks)}" if doc.marks else ""
            out.append(f"{game}: {doc.kind.replace('_', ' ')} {doc.document}{marks}")
    out.extend(f"! {line}" for line in gone)  # the newest text above is not today's rule
    return "\n".join(out)


def citations_text(number: RuleNumber, found: Sequence, version: str | None) -> str:
    """``refs``' view: one line per citing text or glossary entry, with how the reference resolved."""
    out = [] if found else [f"{number}: cited by nothing in the corpus" + (f" {version}" if version else "")]
    for c in found:
        flag = "" if c.resolution == "same-version" else f"  [{c.resolution}: {', '.join(c.resolved_in) or 'nowhere'}]"
        source = f"({c.document})" if c.document else "(glossary)"
        out.append(f"{c.game} {c.lang} {c.version or 'every version'}: {c.source_kind} {c.number} {source} "
                   f"cites \"{c.raw}\"{flag}")
    return "\n".join(out)


def analogues_text(number: RuleNumber, found: Sequence[Counterpart]) -> str:
    """``analogue``'s view: each counterpart, which texts of each game it holds for, and the evidence."""
    out = [] if found else [f"{number}: no analogue recorded in corpus/analogues.toml"]
    for row in found:
        now = row.chain.eras[-1].number if row.chain and row.analogue_game == "mtg" else ""
        later = f", now {now}" if now and now != row.analogue and not row.chain.gone else ""
        out.append(f"{row.game} {row.number} ~ {row.analogue_game} {row.analogue}{later}")
        if row.dm_scope:
            out.append(f"  Duel Masters texts: {row.dm_scope}")
        out.append(f"  {chain_text(row.chain)}" if row.chain else f"  Magic {', '.join(row.mtg_versions)}")
        out.append(f"  evidence (read in Magic {span_text(row.mtg_versions)}): {row.evidence}")
    return "\n".join(out)


def chain_text(chain: Chain) -> str:
    """A rule's lineage on one line: ``Magic en: 509.4f 2009-07-08 to 2016-07-15 → 509.5f 2016-09-30 to
    2024-09-20 → 509.3f since 2024-11-08``."""
    parts = []
    for index, era in enumerate(chain.eras):
        if index == len(chain.eras) - 1 and not chain.gone:
            parts.append(f"{era.number} since {era.first}")
        else:
            parts.append(f"{era.number} {span_text((era.first, era.last))}")
    ended = f" (not in the rules since {chain.gone})" if chain.gone else ""
    return f"{GAME_SHORT_NAMES[chain.game]} {chain.lang}: " + " → ".join(parts) + ended


def span_text(labels: Sequence[str]) -> str:
    """``A`` or ``A to B``: the first and last of a run of version labels."""
    return labels[0] if len(labels) == 1 or labels[0] == labels[-1] else f"{labels[0]} to {labels[-1]}"


def versions_text(rows: Sequence) -> str:
    """``versions``' view: one heading per game and language, then one aligned line per version."""
    out: list[str] = []
    groups: dict[tuple[str, str, str], list] = {}
    for row in rows:
        groups.setdefault((row.game, row.document, row.lang), []).append(row)
    for (game, document, lang), group in groups.items():
        if out:
            out.append("")
        name = f"{game} {lang}" if document == "cr" else f"{game} {document} {lang}"
        out.append(f"{name}: {len(group)} versions, {sum(r.complete for r in group)} complete")
        width = max(len(r.label) for r in group)
        unit = "rules" if document == "cr" else "sections"
        for row in group:
            kind = "complete" if row.complete else "partial (" + ", ".join(row.kinds) + ")"
            out.append(f"  {row.label:<{width}}  {row.date or '----------'}  {row.rules:>5} {unit}  {kind}  "
                       f"[{', '.join(row.documents)}]")
    return "\n".join(out or ["no versions"])
