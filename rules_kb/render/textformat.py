"""Plain-text and JSON-ready views of comparisons and stories, for the CLI and the site.

Formatting only: every fact comes from ``changes`` and ``story``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rules_kb.ask.knowledge import Knowledge
from rules_kb.ask.query import documents_about, era_starts, history, renumbering_of
from rules_kb.ask.story import Story
from rules_kb.compare.changes import Comparison, RowChange
from rules_kb.compare.diff import render_html, render_terminal
from rules_kb.ingest.pipeline import Ingested
from rules_kb.model import RuleText
from rules_kb.numbers import RuleNumber


def _label(number) -> str:
    return "-" if number is None else str(number)


def row_record(row: RowChange) -> dict:
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


def comparison_text(comparison: Comparison, color: bool, show_unchanged: bool = False) -> str:
    a = comparison.alignment
    counts = ", ".join(f"{n} {k}" for k, n in comparison.counts().items())
    lines = [f"{a.game} {a.lang} {a.old_version} -> {a.new_version}: {counts}"]
    if a.unknown_old:
        lines.append(f"  only in {a.old_version} ({a.new_version} is partial, so unknown there): "
                     f"{', '.join(map(str, a.unknown_old))}")
    if a.unknown_new:
        lines.append(f"  only in {a.new_version} ({a.old_version} is partial, so unknown there): "
                     f"{', '.join(map(str, a.unknown_new))}")
    lines.extend(f"  note: {note}" for note in a.notes)
    for row in comparison.rows:
        if row.kind == "unchanged" and not show_unchanged:
            continue
        lines.append(_row_text(row, color))
    return "\n".join(lines)


def _row_text(row: RowChange, color: bool) -> str:
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
        lines.append(f"    {render_terminal(row.diff, color)}")
        for old, new, reason in row.diff.editorial_changes:
            lines.append(f"    editorial ({reason}): {old!r} -> {new!r}")
        for diff in row.example_diffs:
            if diff.classification != "unchanged":
                lines.append(f"    example ({diff.classification}): {render_terminal(diff, color)}")
    else:
        text = (pair.new or pair.old)
        lines.append(f"    {text.title or ''}{' ' if text.title and text.text else ''}{text.text}")
    return "\n".join(lines)


def history_record(knowledge: Knowledge, number: RuleNumber, game: str | None = None,
                   lang: str | None = None) -> dict:
    """Every text of a number with its era flag, the documents about it and its renumbering trail:
    what ``history --json`` prints and what the site's ``/api/{game}/rule/{rule}.json`` holds."""
    texts = history(knowledge, number, game, lang)
    games = sorted({t.game for t in texts})
    records = [{**t.to_record(), "new_era": new_era}
               for t, new_era in zip(texts, era_starts(knowledge, texts), strict=True)]
    return {"texts": records,
            "documents": {g: documents_about(knowledge, number, g) for g in games},
            "renumbering": {g: renumbering_of(knowledge, number, g) for g in games}}


def story_record(story: Story) -> dict:
    return {
        "game": story.game, "rule": str(story.number),
        "chains": {lang: [comparison_record(c) for c in chain] for lang, chain in story.chains.items()},
        "drift": story.drift,
        "lags": story.lags,
        "correspondences": [{
            "change": c.change, "old": {"lang": c.old[0], "version": c.old[1], "number": str(c.old[2])},
            "new": {"lang": c.new[0], "version": c.new[1], "number": str(c.new[2])},
            "meaning": c.meaning, "evidence": c.evidence} for c in story.correspondences],
        "notices": story.notices,
        "commentary": story.commentary,
        "gaps": story.gaps,
    }


def story_text(story: Story, color: bool) -> str:
    out = [f"== {story.game} {story.number}: what changed and what it means"]
    for lang, chain in story.chains.items():
        if chain:
            out.append(f"\n-- {lang}: version by version")
            out.extend(comparison_text(c, color) for c in chain)
    if story.notices:
        out.append("\n-- change notices")
        out.extend(f"  {n['date']} {n['document']}: {', '.join(n['rules'])}" for n in story.notices)
    if story.lags or story.drift:
        out.append("\n-- translations")
        out.extend(f"  {lag}" for lag in story.lags)
        out.extend(f"  drift in {d['version']} {d['number']}: {'; '.join(d['drift'])}" for d in story.drift)
    if story.correspondences:
        out.append("\n-- old -> new (across the rewrite)")
        for c in story.correspondences:
            out.append(f"  {c.old[0]} {c.old[1]} {c.old[2]} -> {c.new[0]} {c.new[1]} {c.new[2]}: {c.meaning}")
    if story.commentary:
        out.append("\n-- commentary")
        out.extend(f"  {'  ' * max(p['level'] - 1, 0)}- {p['text']} [{p['document']}]" for p in story.commentary)
    if story.gaps:
        out.append("\n-- not in the corpus")
        out.extend(f"  {gap}" for gap in story.gaps)
    return "\n".join(out)


def format_text(text: RuleText) -> str:
    head = f"{text.game} {text.lang} {text.version}" + (f" ({text.date})" if text.date else "")
    lines = [f"{text.number}  [{head}; {text.document}:{text.spans[0][0]}]"]
    if text.title:
        lines.append(f"  {text.title}")
    if text.text:
        lines.append(f"  {text.text}")
    lines.extend(f"  Example: {example.text}" for example in text.examples)
    if text.truncated:
        lines.append("  (truncated in the source)")
    return "\n".join(lines)


def summarise(item: Ingested) -> str:
    parsed = item.parsed
    residue = sum(len(r.text) for r in parsed.residue)
    examples = sum(len(r.examples) for r in parsed.rules)
    return (
        f"{parsed.meta.id}: {len(parsed.rules)} rules, {examples} examples, {len(parsed.terms)} terms, "
        f"{len(parsed.anomalies)} anomalies, {residue} residue chars, "
        f"{item.accounting.percent:.2f}% accounted"
    )


def model_lines(results: Iterable[Ingested]) -> Iterable[str]:
    """The model as JSON Lines, in manifest then document order: deterministic by design."""
    for item in results:
        parsed = item.parsed
        for rule in parsed.rules:
            yield _dump({"record": "rule", **rule.to_record()})
        for term in parsed.terms:
            yield _dump({"record": "term", "game": term.game, "lang": term.lang, "version": term.version,
                         "term": term.term, "definition": term.definition, "document": parsed.meta.id,
                         "span": [term.spans[0][0], term.spans[-1][1]]})
        for anomaly in parsed.anomalies:
            yield _dump({"record": "anomaly", "document": anomaly.document, "position": anomaly.position,
                         "code": anomaly.code, "message": anomaly.message, "decision": anomaly.decision})


def _dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=False)
