"""Python regular expressions spelt for JavaScript: the page scripts run the very patterns the
Python code runs (the note linker's reference grammar, the search's query grammar), translated
mechanically here rather than copied by hand. Only the syntax the project uses is translated;
anything else is refused, never guessed.
"""

from __future__ import annotations

import re


def export_pattern(source: str, flags: int, *, unicode: bool = False, whole: bool = False,
                   every: bool = False) -> list[str]:
    """``[source, flags]`` of a Python pattern in JavaScript: ``unicode`` reads it as Python reads
    ``str`` patterns (``\\d`` any decimal digit, ``[^\\W_]`` any letter or number: flag ``u``);
    ``whole`` anchors it as ``fullmatch`` does; ``every`` adds ``g`` for ``matchAll``."""
    js_flags = "".join(letter for flag, letter in ((re.M, "m"), (re.I, "i")) if flags & flag)
    if flags & (re.S | re.X):
        raise ValueError(f"flags not translated: {flags!r}")
    translated = translate_pattern(source, multiline=bool(flags & re.M), unicode=unicode)
    if whole:
        translated = f"^(?:{translated})$"
    return [translated, ("g" if every else "") + js_flags + ("u" if unicode else "")]


_UNSUPPORTED = re.compile(r"\\[AZ]|\(\?>|\(\?[aiLmsux-]*[smxL][aiLmsux-]*[:)]|\(\?#")


def translate_pattern(source: str, *, multiline: bool, unicode: bool = False) -> str:
    """Python regular-expression syntax to JavaScript's, for the subset the grammar uses.

    ``(?P<n>``/``(?P=n)`` become ``(?<n>``/``\\k<n>``; a scoped ``(?ai:…)`` or ``(?i:…)`` has
    its ASCII letters spelt in both cases (``[Rr]``), which every browser reads; ``$`` without
    the multiline flag means "at the end or before a final newline" in Python and is spelt so.
    Anything else Python-only is refused rather than guessed. With ``unicode`` (a pattern for a
    ``u``-flagged JavaScript expression), the classes whose meaning differs are spelt as Python
    means them: ``\\d`` as ``\\p{Nd}``, ``[^\\W_]`` as ``[\\p{L}\\p{N}]``; ``\\w``, ``\\W``
    and ``\\b`` (ASCII-only in JavaScript) are refused.
    """
    if _UNSUPPORTED.search(source.replace("(?ai:", "(?:").replace("(?i:", "(?:")):
        raise ValueError(f"pattern uses syntax with no translation: {source!r}")
    out: list[str] = []
    position = 0
    caseless_depth: list[int] = []  # group depths at which a caseless group opened
    depth = 0
    in_class = False
    while position < len(source):
        char = source[position]
        if unicode and source.startswith("[^\\W_]", position):
            out.append("[\\p{L}\\p{N}]")
            position += len("[^\\W_]")
            continue
        if char == "\\":
            escape = source[position : position + 2]
            if unicode and escape in ("\\w", "\\W", "\\b", "\\B"):
                raise ValueError(f"{escape} means ASCII only in JavaScript: {source!r}")
            out.append("\\p{Nd}" if unicode and escape == "\\d" else escape)
            position += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
            elif caseless_depth and char.isascii() and char.isalpha():
                raise ValueError(f"letters in a class under a caseless group: {source!r}")
            out.append(char)
            position += 1
            continue
        if char == "[":
            in_class = True
            out.append(char)
            if source.startswith("^", position + 1):
                out.append("^")
                position += 1
            if source.startswith("]", position + 1):
                out.append("\\]")
                position += 1
            position += 1
            continue
        for python, javascript, caseless in (("(?P<", "(?<", False), ("(?ai:", "(?:", True), ("(?i:", "(?:", True)):
            if source.startswith(python, position):
                out.append(javascript)
                depth += 1
                if caseless:
                    caseless_depth.append(depth)
                position += len(python)
                break
        else:
            if source.startswith("(?P=", position):
                close = source.index(")", position)
                out.append(f"\\k<{source[position + 4 : close]}>")
                position = close + 1
                continue
            if char == "(":
                depth += 1
            elif char == ")":
                if caseless_depth and caseless_depth[-1] == depth:
                    caseless_depth.pop()
                depth -= 1
            elif char == "$" and not multiline:
                out.append("(?=\\n?(?![\\s\\S]))")
                position += 1
                continue
            elif caseless_depth and char.isascii() and char.isalpha():
                char = f"[{char.upper()}{char.lower()}]"
            out.append(char)
            position += 1
    return "".join(out)
