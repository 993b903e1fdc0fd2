"""Build the static search index: Sudachi at build time, plain files the browser and CLI read.

Layout under ``<docs_dir>/search-index/`` (``INDEX_DIR``):

* ``meta.json``: languages, per-group and per-document arrays the ranking needs (game and
  language, number, whether current), shard counts. Loaded first.
* ``vocab.json``: the Japanese vocabulary the query segmenter walks (``segment.py``).
* ``words.json``: English words and how many texts hold each, fetched only when a query word
  finds nothing (typo correction, the nearest terms offered for an empty result).
* ``forms.json``: each English word's other inflections the rules print (cast: casting;
  declare: declared, declaring), loaded with the vocabulary: a query word also finds its forms.
* ``synonyms.json``: each Japanese word's synonyms the texts hold, by Sudachi's dictionary
  (順番: 順序), loaded with the forms: a query word also finds them, at a lower weight.
* ``p/NNN.json``: postings, sharded by a hash of the term; each term maps to a flat list
  ``[doc delta, weight, ...]``. A query fetches only the shards of its terms.
* ``g/NNN.json``: per ``GROUPS_PER_SHARD`` groups, their URLs, versions and texts, fetched only
  for the results shown.

Weights are BM25 computed here and stored as integers, so that Python and JavaScript sum
them exactly and rank identically. Terms are Sudachi normalized forms (ブロックした and
ブロックされた share ブロック, 為る; プレイヤー and プレーヤー share プレーヤー) or folded English
words (no stemming, no wildcard), plus pairs of adjacent terms so that a compound or a
phrase (ブロック クリーチャー, declare blockers) ranks the texts that have it together first,
``=<all terms>`` for a short text or title (a heading called ``Deathtouch`` before the rules
that use the word), and ``cites:<number>`` for every rule a text cites.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from rules_kb.assemble.knowledge import Knowledge
from rules_kb.files import make_temporary_folder
from rules_kb.search.documents import Document, Group, collect
from rules_kb.search.headings import HeadingKey, chapter_titles, defining_heading, heading_table, numbers_above
from rules_kb.search.query import INDEX_DIR, shard_of
from rules_kb.search.segment import (
    JAPANESE_CHAR,
    JOINERS,
    STOP_WORDS,
    adjacent_pairs,
    browser_grammar,
    english_term,
    fold,
    whole_term,
)
from rules_kb.tokens import synonym_groups, token_forms, unload_dictionary
from rules_kb.visible import people_json

__all__ = ["INDEX_DIR", "build_index_files", "shard_of", "write_search_index"]

FORMAT = 7  # 3: meta.json carries the query grammar (segment.browser_grammar); 4: forms.json; 5: joiners;
# 6: synonyms.json; 7: a name term (=event) is in the shard of the word it names
GROUPS_PER_SHARD = 8
SHARD_TARGET_BYTES = 48_000  # postings shard size aimed at (raw JSON, estimated): few files, a few per query
K1, B = 1.2, 0.75
SCALE = 100  # BM25 weights are stored as round(SCALE * weight)
WEIGHT_BITS = 24  # a posting is one integer while the index is made: its document, shifted, and its weight
WEIGHT_MASK = (1 << WEIGHT_BITS) - 1
TITLE_BOOST = 3  # a heading's words count this many times
STOP_SHARE = 0.5  # a word in more than this share of a language's texts has no postings of its own
COST_BASE, COST_SCALE = 20, 10  # vocabulary costs: COST_BASE + COST_SCALE * ln(total / count)


def write_search_index(knowledge: Knowledge, docs_dir: Path) -> None:
    """Write the index files under ``docs_dir / INDEX_DIR``, replacing any older index whole."""
    target = docs_dir / INDEX_DIR
    docs_dir.mkdir(parents=True, exist_ok=True)
    staging = make_temporary_folder(docs_dir, f".{INDEX_DIR}-")
    try:
        for name, payload in build_index_files(knowledge).items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(payload)
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def build_index_files(knowledge: Knowledge) -> dict[str, bytes]:
    """Every index file, by path relative to the index folder, as bytes (byte-identical across runs)."""
    groups, documents, version_lists = collect(knowledge)
    chapters = chapter_titles(knowledge.catalog)
    doc_terms, title_terms, context_terms, surfaces, groups_of = _terms_of(groups, documents, chapters)
    postings = _postings(groups, documents, doc_terms, title_terms, context_terms)
    shard_count = _shard_count(postings)
    files: dict[str, bytes] = {}
    terms: list[list[str]] = [[] for _ in range(shard_count)]
    for term in sorted(postings):
        terms[shard_of(term, shard_count)].append(term)
    for number, shard in enumerate(terms):  # encoded one shard at a time: the lists of ints are 60 MB in all
        files[f"p/{number:03d}.json"] = _dump({term: _encode(postings[term]) for term in shard})
    for start in range(0, len(groups), GROUPS_PER_SHARD):
        files[f"g/{start // GROUPS_PER_SHARD:03d}.json"] = _dump(_group_shard(groups, documents, start))
    files["vocab.json"] = _dump(_vocabulary(surfaces))
    files["words.json"] = _dump(_words(postings))
    files["forms.json"] = _dump(word_forms(postings))
    files["synonyms.json"] = _dump(synonym_forms(postings, groups_of))
    files["meta.json"] = _dump(_meta(groups, documents, version_lists, shard_count))
    return files


def _terms_of(groups: list[Group], documents: list[Document], chapters: dict[HeadingKey, str],
              ) -> tuple[list[list[str]], list[list[list[str]]], list[list[list[str]]], Counter,
                         dict[str, tuple[int, ...]]]:
    """Each document's term sequence ("" where punctuation breaks it), its names' (title, glossary
    terms pointing at it), the headings above it (``chapters``: the chapters' titles), the
    Japanese surfaces seen, and each Japanese word's synonym groups (``synonym_forms``).

    The Japanese texts are cut first and their words' synonyms asked then: Sudachi's dictionary
    (~160 MB of mapped pages once a corpus's Japanese has touched them) leaves the process before
    the English texts' terms, most of what the index holds, are made."""
    surfaces: Counter = Counter()
    texts: list[list[str]] = [[] for _ in documents]
    titles: list[list[list[str]]] = [[] for _ in documents]
    contexts: list[list[list[str]]] = [[] for _ in documents]
    glossary = {group.versions[0][2]: group.terms for group in groups if group.terms}
    headings = heading_table(groups, documents, chapters)
    # A heading stands above every rule of its section and a title recurs in every version of its
    # rule: each is cut into terms once (read-only lists, shared).
    named: dict[tuple[str, str], list[str]] = {}

    def name_terms(name: str, lang: str) -> list[str]:
        found = named.get((name, lang))
        if found is None:
            found = named[(name, lang)] = _term_sequence(name, lang, Counter())
        return found

    def cut(doc_id: int) -> None:
        document = documents[doc_id]
        group = groups[document.group]
        lang = group.lang
        texts[doc_id] = _term_sequence(document.text, lang, surfaces)
        names = [document.title] if document.title else []
        if (heading := defining_heading(document, headings, group.game, lang)) is not None:
            names.append(heading)
        names += document.names  # what the text says it is called
        names += glossary.get(doc_id, [])  # a glossary entry names the rule it points to
        titles[doc_id] = [name_terms(name, lang) for name in names]
        label = document.versions[-1]
        above = [headings.get((group.game, lang, label, number)) for number in numbers_above(document.number)]
        contexts[doc_id] = [name_terms(title, lang) for title in above if title and title not in names]

    japanese = [doc_id for doc_id, document in enumerate(documents) if groups[document.group].lang == "ja"]
    for doc_id in japanese:
        cut(doc_id)
    groups_of: dict[str, tuple[int, ...]] = {}
    _add_synonym_groups(groups_of, (texts[d] for d in japanese), (titles[d] for d in japanese),
                        (contexts[d] for d in japanese))
    unload_dictionary()
    rest = [doc_id for doc_id, document in enumerate(documents) if groups[document.group].lang != "ja"]
    for doc_id in rest:
        cut(doc_id)
    # a Japanese word inside an English text (a card's name) loads the dictionary again, for its synonyms
    if _add_synonym_groups(groups_of, (texts[d] for d in rest), (titles[d] for d in rest), (contexts[d] for d in rest)):
        unload_dictionary()
    return texts, titles, contexts, surfaces, groups_of


def _term_sequence(text: str, lang: str, surfaces: Counter) -> list[str]:
    terms: list[str] = []
    for surface, normalized in token_forms(text, lang):
        mode, value = _surface_term(surface, lang)
        if mode == TERM:
            terms.append(value)
        elif mode == BREAK:
            terms.append("")
        elif mode == COUNTED:
            surfaces[(value, normalized)] += 1
            terms.append(normalized)
        elif mode == NORMALIZED:
            terms.append(normalized)
    return terms


NO_JAPANESE, SOME_JAPANESE, ALL_JAPANESE = 0, 1, 2
# How a token's surface enters a term sequence (``_surface_term``): its term; a break (punctuation);
# nothing (a joiner); the tokenizer's normalized form, its surface counted for the vocabulary (a
# Japanese word) or not (a mixed word in a Japanese text).
TERM, BREAK, SKIP, COUNTED, NORMALIZED = range(5)


@lru_cache(maxsize=200_000)
def _surface_term(surface: str, lang: str) -> tuple[int, str]:
    """(mode, value) of a token's surface: the same few thousand surfaces recur in every text, and
    the checks below go one character at a time. ``value`` is the term, or the folded surface that
    ``COUNTED`` counts."""
    folded, japanese = _fold_surface(surface)
    if not any(ch.isalnum() for ch in surface):  # ``Token.is_word``
        return (SKIP, "") if folded in JOINERS else (BREAK, "")
    if japanese == ALL_JAPANESE:
        return COUNTED, folded
    if lang == "ja" and japanese == SOME_JAPANESE:
        return NORMALIZED, ""
    return TERM, english_term(folded)


def _fold_surface(surface: str) -> tuple[str, int]:
    """A token's folded form and how much of it is Japanese (``_surface_term`` keeps the answers)."""
    folded = fold(surface)[0]
    japanese = [bool(JAPANESE_CHAR.match(char)) for char in folded]
    return folded, ALL_JAPANESE if all(japanese) else SOME_JAPANESE if any(japanese) else NO_JAPANESE


def _counts(terms: list[str]) -> Counter:
    counter: Counter = Counter(term for term in terms if term)
    counter.update(adjacent_pairs(terms))
    whole = whole_term([term for term in terms if term])
    if whole:
        counter[whole] += 1
    return counter


def _postings(groups: list[Group], documents: list[Document], doc_terms: list[list[str]],
              title_terms: list[list[list[str]]], context_terms: list[list[list[str]]]) -> dict[str, array]:
    """term → its (doc, integer BM25 weight) entries, by document, each packed in one integer: words,
    adjacent pairs and ``cites:``, statistics per language.

    A title's terms count ``TITLE_BOOST`` times more, so that a heading named like the query
    (``deathtouch``, 勝利条件) comes before the rules that merely use the word. The headings a
    rule sits under count once: 510.4 ("…first strike…") is in 510 Combat Damage Step, 810.4
    ("Each team has a shared life total") in 810 Two-Headed Giant Variant, as a judge reads them.
    """
    counts: list[Counter] = []
    for document, terms, title, context in zip(documents, doc_terms, title_terms, context_terms, strict=True):
        counter = _counts(terms)
        for _ in range(TITLE_BOOST - 1):
            for name in title:
                counter.update(_counts(name))
        for heading in context:
            counter.update(term for term in _counts(heading) if term[0] != "=")
        counter.update(f"cites:{number}" for number in document.cites)
        counts.append(counter)
    by_lang: dict[str, list[int]] = defaultdict(list)
    for doc_id, document in enumerate(documents):
        by_lang[groups[document.group].lang].append(doc_id)
    # Each entry one integer, the document above its weight, in an array of its term: 1.35 million
    # (doc, weight) tuples were 160 MB at the whole history, held to the end of the index.
    postings: dict[str, array] = defaultdict(lambda: array("q"))
    earlier: set[str] = set()  # terms of the languages done: one met again is sorted at the end
    mixed: set[str] = set()
    for lang in sorted(by_lang):
        earlier.update(postings)
        members = by_lang[lang]
        size = len(members)
        lengths = {d: sum(1 for t in doc_terms[d] if t) for d in members}
        average = _average_lengths(groups, documents, lengths)
        frequency: Counter = Counter(term for d in members for term in counts[d])
        idfs = {term: math.log(1 + (size - df + 0.5) / (df + 0.5)) for term, df in frequency.items()
                if not _stopped(term, df, size)}
        for doc_id in members:
            norm = K1 * (1 - B + B * lengths[doc_id] / average[_collection(groups, documents[doc_id])])
            for term, tf in counts[doc_id].items():
                idf = idfs.get(term)
                if idf is not None:
                    weight = max(1, round(SCALE * idf * tf * (K1 + 1) / (tf + norm)))  # < 100 × 13 × 2.2
                    postings[term].append(doc_id << WEIGHT_BITS | weight)
                    if term in earlier:
                        mixed.add(term)
            counts[doc_id].clear()  # read for the last time
    for term in mixed:  # each language's entries come in document order; two languages' interleave
        postings[term] = array("q", sorted(postings[term]))
    return postings


def _stopped(term: str, df: int, size: int) -> bool:
    """A single word in more than ``STOP_SHARE`` of a language's texts has no postings; pairs, names
    and citations always have."""
    return df > STOP_SHARE * size and " " not in term and term[0] != "=" and not term.startswith("cites:")


def _collection(groups: list[Group], document: Document) -> str:
    """``rule`` or ``section`` (a tournament document's: its number is a label such as ``IPG 2.3``)."""
    return "section" if isinstance(groups[document.group].number, str) else "rule"


def _average_lengths(groups: list[Group], documents: list[Document], lengths: dict[int, int]) -> dict[str, float]:
    """Average document length per collection. A section (an infraction with its definition, examples and
    philosophy) is ten times a rule: judged against rules alone it could seldom come first; judged against
    sections alone it holds every word of a rules question somewhere in its length and comes before the
    rule that answers it (デッキは何枚で組む: 運営ルール 7.1 before 100.2). So a section is judged against
    the geometric mean of the two averages. The rules' average is the one they had before sections were
    indexed, so their ranking among themselves does not move."""
    totals: dict[str, list[int]] = defaultdict(list)
    for doc_id, length in lengths.items():
        totals[_collection(groups, documents[doc_id])].append(length)
    averages = {kind: (sum(found) / len(found)) or 1.0 for kind, found in totals.items()}
    if "section" in averages and "rule" in averages:
        averages["section"] = math.sqrt(averages["section"] * averages["rule"])
    return averages


def _encode(entries: array) -> list[int]:
    """A term's entries as the shards hold them: each document as the gap from the one before, then its weight."""
    flat: list[int] = []
    previous = 0
    for entry in entries:
        doc_id, weight = entry >> WEIGHT_BITS, entry & WEIGHT_MASK
        flat.extend((doc_id - previous, weight))
        previous = doc_id
    return flat


def _shard_count(postings: dict[str, array]) -> int:
    estimate = sum(len(term) * 3 + 6 * len(entries) for term, entries in postings.items())
    count = 1
    while estimate / count > SHARD_TARGET_BYTES:
        count *= 2
    return count


def _vocabulary(surfaces: Counter) -> dict[str, list]:
    """surface → [normalized form ("" when the same), integer cost]; the commonest reading wins."""
    by_surface: dict[str, Counter] = defaultdict(Counter)
    for (surface, normalized), count in surfaces.items():
        by_surface[surface][normalized] += count
    forms: Counter = Counter()
    for (_, normalized), count in surfaces.items():
        forms[normalized] += count
    for normalized, count in sorted(forms.items()):  # a normalized form is typed too (プレーヤー)
        if normalized not in by_surface and all(JAPANESE_CHAR.match(char) for char in normalized):
            by_surface[normalized][normalized] = count
    for stem, readings in sorted(_stems(surfaces).items()):
        if stem not in by_surface:
            by_surface[stem] = readings
    total = sum(surfaces.values()) or 1
    vocabulary = {}
    for surface in sorted(by_surface):
        readings = by_surface[surface]
        normalized = min(readings, key=lambda form: (-readings[form], form))
        count = max(1, sum(readings.values()))
        cost = COST_BASE + round(COST_SCALE * math.log(total / count))
        vocabulary[surface] = ["" if normalized == surface else normalized, cost]
    return vocabulary


# The five-row kana of a godan verb's ending: (dictionary form, its other bases).
GODAN_ROWS = {"う": "わいえお", "く": "かきけこ", "ぐ": "がぎげご", "す": "さしせそ", "つ": "たちてと",
              "ぬ": "なにねの", "ぶ": "ばびべぼ", "む": "まみめも", "る": "らりれろ"}
KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005]")


def _stems(surfaces: Counter) -> dict[str, Counter]:
    """The bases of each godan verb the rules use (戻す → 戻さ 戻し 戻せ 戻そ), with the verb.

    A query inflects a verb in ways the rules may never print (戻された where they say
    戻します); with every base in the vocabulary the segmenter still finds 戻す.
    """
    stems: dict[str, Counter] = defaultdict(Counter)
    for (_, normalized), count in surfaces.items():
        row = GODAN_ROWS.get(normalized[-1:])
        if row is None or len(normalized) < 2 or not KANJI.match(normalized[-2]):
            continue
        for kana in row:
            stems[normalized[:-1] + kana][normalized] += count
    return stems


def _words(postings: dict[str, array]) -> dict[str, int]:
    """English word → how many texts hold it: what a mistyped or unknown word is corrected to.
    Loaded only when a query word finds nothing."""
    return {term: len(entries) for term, entries in sorted(postings.items())
            if term.isascii() and term.isalpha() and len(term) >= 3}


def word_forms(postings: dict[str, array]) -> dict[str, list[str]]:
    """English word → its other inflections in the texts, from the texts' own words: a word
    ending -ing or -ed joins the word it is made from when the rules print that word too
    (casting → cast, declared → declare, hitting → hit, copied → copy), and so does a noun made
    from a verb with -ion (regeneration → regenerate, reduction → reduce, resolution → resolve:
    a judge asks "can it regenerate" where 704.5f says "Regeneration can't replace this event");
    ``blocker`` stays apart (a noun of its own). The words are the texts' words, so nothing here
    is tuned to a query."""
    words = {term for term in postings if term.isascii() and term.isalpha()}
    families: dict[str, list[str]] = defaultdict(list)
    for word in sorted(words):
        base = next((stem for stem in _stems_of(word) if stem in words), None)
        if base is not None:
            families[base].append(word)
    forms: dict[str, list[str]] = {}
    for base, inflected in sorted(families.items()):
        family = [base, *inflected]
        for word in family:
            forms[word] = [other for other in family if other != word]
    return dict(sorted(forms.items()))


def synonym_forms(postings: dict[str, array], groups_of: dict[str, tuple[int, ...]]) -> dict[str, list[str]]:
    """Japanese word → the other words of the texts that Sudachi's dictionary puts in one of its
    synonym groups (順番: 順序; 使用: 使う): a question asks in its own words (どの順番で) what the
    rules say in theirs (順序). A query word finds them as it finds an inflection, at ``SYNONYM_WEIGHT``.
    The groups are the dictionary's (``groups_of``: ``_terms_of``), not chosen for any query."""
    members: dict[int, list[str]] = defaultdict(list)
    for term in sorted(postings):
        if _synonym_candidate(term):
            for group in groups_of[term]:
                members[group].append(term)
    forms: dict[str, set[str]] = defaultdict(set)
    for words in members.values():
        for word in words:
            forms[word].update(other for other in words if other != word)
    return {word: sorted(others) for word, others in sorted(forms.items()) if others}


def _synonym_candidate(term: str) -> bool:
    """A single Japanese word of two characters or more: what the synonym groups are asked for."""
    return " " not in term and len(term) > 1 and all(JAPANESE_CHAR.match(char) for char in term)


def _add_synonym_groups(groups_of: dict[str, tuple[int, ...]], texts: Iterable[list[str]],
                        titles: Iterable[list[list[str]]], contexts: Iterable[list[list[str]]]) -> bool:
    """Add each Japanese word of these texts, names and headings that ``groups_of`` lacks, with its
    synonym groups in Sudachi's dictionary; whether any was asked."""
    words = set().union(*texts, *(name for names in (*titles, *contexts) for name in names))  # each term once
    new = sorted(word for word in words - groups_of.keys() if _synonym_candidate(word))
    for word in new:
        groups_of[word] = synonym_groups(word)
    return bool(new)


def _stems_of(word: str) -> list[str]:
    """The words ``word`` may be an inflection of, likeliest first."""
    stems: list[str] = []
    for ending, minimum in (("ing", 6), ("ed", 5)):
        if word.endswith(ending) and len(word) >= minimum:
            root = word[:-len(ending)]
            stems += [root, root + "e"] if ending == "ing" else [root, word[:-1]]
            if ending == "ed" and root.endswith("i"):
                stems.append(root[:-1] + "y")
            if len(root) > 2 and root[-1] == root[-2] and root[-1] not in "aeiou":
                stems.append(root[:-1])
    if word.endswith(("che", "she", "xe", "sse", "ze")):  # english_term's "matches" is "matche"
        stems.append(word[:-1])
    if word.endswith("ion") and len(word) >= 7:  # the noun of a verb: regeneration, reduction, resolution
        root = word[:-3]
        if root.endswith("at"):
            stems += [root[:-2] + "ate", root[:-2] + "e", root[:-2]]  # activation, declaration, transformation
        elif root.endswith("uct"):
            stems.append(root[:-1] + "e")  # reduction: reduce
        elif root.endswith("ut") and not root.endswith("tut"):
            stems.append(root[:-2] + "ve")  # resolution: resolve
        elif root.endswith("it"):
            stems.append(root[:-2])  # addition: add
        stems += [root, root + "e"]  # protection: protect; completion: complete
    return [stem for stem in stems if len(stem) >= 3]


def _group_shard(groups: list[Group], documents: list[Document], start: int) -> dict:
    chunk = groups[start:start + GROUPS_PER_SHARD]
    texts = {}
    records = []
    for group in chunk:
        record: dict = {"rule": group.rule_url, "versions": [list(v) for v in group.versions]}
        if group.former:
            record["was"] = [list(pair) for pair in group.former]
            record["old"] = {str(doc_id): documents[doc_id].number for _, _, doc_id in group.versions
                             if documents[doc_id].number != str(group.number)}
        records.append(record)
        for _, _, doc_id in group.versions:
            texts[str(doc_id)] = documents[doc_id].text
    return {"groups": records, "texts": dict(sorted(texts.items(), key=lambda item: int(item[0])))}


def _meta(groups: list[Group], documents: list[Document], version_lists: dict, shard_count: int) -> dict:
    languages = sorted({(g.game, g.lang) for g in groups})
    code = {pair: index for index, pair in enumerate(languages)}
    return {
        "format": FORMAT,
        "grammar": browser_grammar(),
        "stopWords": sorted(STOP_WORDS),
        "shards": shard_count,
        "groupsPerShard": GROUPS_PER_SHARD,
        "languages": [list(pair) for pair in languages],
        "versions": {f"{game}/{lang}": labels for (game, lang), labels in sorted(version_lists.items())},
        "groupLanguage": [code[(g.game, g.lang)] for g in groups],
        "groupNumber": [str(g.number) for g in groups],
        "groupCurrent": [int(g.current) for g in groups],
        "formerNumbers": _former_numbers(groups),
        "docGroup": [d.group for d in documents],
        "docCurrent": [int(groups[d.group].versions[0][2] == doc_id) for doc_id, d in enumerate(documents)],
    }


def _former_numbers(groups: list[Group]) -> dict[str, list[int]]:
    """old number → the groups (lineages) that once held it, for a query typed with an old number."""
    former: dict[str, list[int]] = defaultdict(list)
    for gid, group in enumerate(groups):
        for number in dict.fromkeys(number for number, _ in group.former):
            former[number].append(gid)
    return dict(sorted(former.items()))


def _dump(payload: object) -> bytes:
    return people_json(payload, separators=(",", ":")).encode("utf-8")
