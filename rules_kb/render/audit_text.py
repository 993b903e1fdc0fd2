"""A note's audit for reading: counts first, then each citation with what became of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules_kb.ask.since import CHANGED_IN_SUBSTANCE, VERDICTS
from rules_kb.compare.diff import diff_tokens
from rules_kb.notes.audit import Finding
from rules_kb.render.diffmarkup import render_terminal
from rules_kb.render.terminal import LEGEND
from rules_kb.render.textformat import describe_changes

_COUNTED = {"unchanged": "unchanged", "editorial": "editorial only", "renumbered": "renumbered (same words)",
            "substantive": "changed in substance", "split": "split", "removed": "removed"}


def audit_record(name: str, findings: Sequence[Finding]) -> dict:
    return {"note": name, "counts": _counts(findings), "citations": [f.to_record() for f in findings]}


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    counted = Counter(f.verdict for f in findings)
    return {verdict: counted[verdict] for verdict in (*VERDICTS, "undated", "unresolved")}


def audit_text(name: str, findings: Sequence[Finding]) -> str:
    todays = sorted({f"{f.game} {f.lang} {f.today}" for f in findings if f.today})
    against = f" against today's rules ({', '.join(todays)})" if todays else ""
    lines = [f"{name}: {len(findings)} citation{'s' * (len(findings) != 1)}{against}"]
    counts = _counts(findings)
    told = [f"{n} {_COUNTED[v]}" for v, n in counts.items() if v in _COUNTED and n]
    left = [f"{n} {v}" for v, n in counts.items() if v not in _COUNTED and n]
    if findings:
        lines.append("  " + ", ".join(told) + (f"; not audited: {', '.join(left)}" if left else ""))
    else:
        lines.append("  no rule reference found")
    if any(f.verdict == "substantive" for f in findings):
        lines.append(f"  {LEGEND}")
    for finding in findings:
        lines.extend(_finding_lines(finding))
    return "\n".join(lines)


def _finding_lines(f: Finding) -> list[str]:
    when = f", as of {f.dated} ({_DATED_BY[f.dated_by]}" if f.dated else ""
    when += f"; {f.game} {f.lang} {f.version})" if f.version else ")" if f.dated else ""
    head = f"{f.line}:{f.column} {f.cited}" + (f" [{f.number}]" if f.number not in f.cited else "") + when
    return [head, *(f"  {line}" for line in verdict_lines(f))]


_DATED_BY = {"version": "its version", "tag": "its entry's tag", "as-of": "--as-of", "": ""}


def verdict_lines(f: Finding, word_diff: bool = True) -> list[str]:
    """What became of the cited text, in a few lines (the site's link page shows the same lines)."""
    if f.verdict in ("undated", "unresolved"):
        return [f"not audited: {f.problem}"]
    if f.verdict == "split":
        return [f"split on {f.changed_on[0]}: its sentences are in {', '.join(f.targets)} today"]
    if f.verdict == "removed":
        return [f"removed on {f.changed_on[0]}: no rule of that version continues its text"]
    if f.verdict == "unchanged":
        return [f"unchanged in {f.today}"]
    if f.verdict == "editorial":
        return [f"editorial changes only; still {f.now}", *_editorial(f)]
    if f.verdict == "renumbered":
        same = "same words" if f.text_class == "unchanged" else "same words but for editorial changes"
        return [f"renumbered to {f.now} ({same})", *_editorial(f)]
    now = f"; now {f.now}" if f.now != f.number else ""
    lines = [f"changed in substance on {', '.join(f.changed_on)}{now}", f"changed: {describe_changes(f.changes)}"]
    if word_diff:
        lines.append(render_terminal(diff_tokens(f.then_text, f.now_text, f.lang or "en"), False))
    return lines


def _editorial(f: Finding) -> list[str]:
    if f.text_class == "renumbered-reference":
        return [f"only the numbers of cited rules changed: {describe_changes(f.changes)}"]
    if not f.editorial:
        return []
    shown = [(old, new) for old, new, _ in f.editorial if old.strip() or new.strip()]
    spaces = sorted({reason for old, new, reason in f.editorial if not (old.strip() or new.strip())})
    parts = ([describe_changes(shown)] if shown else []) + [f"{reason} only" for reason in spaces]
    return [f"editorial: {'; '.join(parts)}"]


def changed_in_substance(findings: Sequence[Finding]) -> bool:
    """Whether a cited rule no longer says what it said (the command's exit status 1)."""
    return any(f.verdict in CHANGED_IN_SUBSTANCE for f in findings)
