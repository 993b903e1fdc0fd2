"""The URL scheme (``docs/url-scheme.md``): every permalink the site, the JSON API and the note linker form.

Judges paste these into notes, so they never change. Every function returns a path from the
site's root (``/dm/rule/507.2a/``); pages turn it into a relative link, the note linker puts
a base URL in front. Rule numbers appear in their canonical form (``str(RuleNumber)``), which
is also the ``id`` of the rule on every page, so ``#507.2a`` is the anchor.

A version's texts live on one page per *chapter* (the hundreds digit of the section:
``/dm/ja/1.38/5/#507.2a``), so the whole Magic history fits a free static host; the pinned
forms of the first scheme (``/dm/ja/1.38/507/#507.2a``, ``…/diff/A..B/507/``) are sent to
the same text by ``OLD_FORMS`` (the 404 page and the ``_redirects`` file).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from urllib.parse import quote, urlsplit

from rules_kb.numbers import RuleNumber

_PLAIN = re.compile(r"[A-Za-z0-9_.~-]*")  # what ``quote(..., safe="-._~")`` leaves as it is


def _part(text: str) -> str:
    """One path segment. Labels and numbers are ASCII today; quote anything else, never ``/``."""
    text = str(text)
    return text if _PLAIN.fullmatch(text) else quote(text, safe="-._~")


def section_of(number: RuleNumber) -> str:
    """The page a rule lives on in a version: its three-digit section (``507`` for 507.2a)."""
    return f"{number.section:03d}"


def anchor(number: RuleNumber) -> str:
    """The ``id`` of a rule on any page."""
    return str(number)


def chapter_of(number: RuleNumber) -> str:
    """The page a rule lives on in a version: its chapter, the hundreds of its section (``5`` for 507.2a)."""
    return str(number.section // 100)


def chapter_page(game: str, lang: str, version: str, chapter: str) -> str:
    """One chapter of one version: ``/dm/ja/1.38/5/`` (sections 500-599)."""
    return f"/{game}/{lang}/{_part(version)}/{_part(chapter)}/"


def pinned_rule(game: str, lang: str, version: str, number: RuleNumber) -> str:
    """A rule as it stood in one version: ``/dm/ja/1.38/5/#507.2a``."""
    return f"{chapter_page(game, lang, version, chapter_of(number))}#{anchor(number)}"


def version_page(game: str, lang: str, version: str) -> str:
    """The contents of one version: ``/mtg/en/2024-11-08/``."""
    return f"/{game}/{lang}/{_part(version)}/"


def latest_page(game: str, lang: str) -> str:
    """The contents of a language's newest version, whichever it is: ``/mtg/en/latest/`` (the
    rulebook to read today; its links go to that version's pinned pages)."""
    return f"/{game}/{lang}/latest/"


def rule_page(game: str, number: RuleNumber) -> str:
    """Every version and language of a number: ``/dm/rule/507.2a/``."""
    return f"/{game}/rule/{anchor(number)}/"


def diff_page(game: str, lang: str, old: str, new: str, chapter: str | None = None) -> str:
    """Two adjacent versions compared: ``/dm/ja/diff/1.38..1.48/``, or one chapter of it below (``…/5/``)."""
    page = f"/{game}/{lang}/diff/{_part(old)}..{_part(new)}/"
    return f"{page}{_part(chapter)}/" if chapter is not None else page


def api_history(game: str, number: RuleNumber) -> str:
    """JSON of every version of every number of a section (``history --json`` per number):
    ``/api/dm/history/507.json`` holds 507.2a under the key ``"507.2a"``."""
    return f"/api/{game}/history/{number.section:03d}.json"


def api_audit(game: str, number: RuleNumber) -> str:
    """JSON of what became of every text of a section's numbers, for the link page's audit:
    ``/api/mtg/audit/309.json`` holds 309.2a's texts, each run of versions with its verdict."""
    return f"/api/{game}/audit/{number.section:03d}.json"


def api_versions(game: str) -> str:
    """JSON index of a game's versions: ``/api/dm/versions.json``."""
    return f"/api/{game}/versions.json"


def game_page(game: str) -> str:
    """A game's home and timeline: ``/dm/``."""
    return f"/{game}/"


def story_page(game: str, number: RuleNumber) -> str:
    """The story of a rule told for a reader (``explain``): ``/dm/story/507/``."""
    return f"/{game}/story/{anchor(number)}/"


def notice_page(game: str, document: str) -> str:
    """One change notice or commentary document as the corpus holds it: ``/dm/notice/seed-001/``."""
    return f"/{game}/notice/{_part(document)}/"


def drift_page(game: str) -> str:
    """Where the translations of a game say something other than their label claims."""
    return f"/{game}/drift/"


def compare_page(game: str) -> str:
    """The in-browser comparison of any two versions (reads ``api_version`` files)."""
    return f"/{game}/compare/"


def compare_pair(game: str, lang: str, old: str, new: str, rule: str | None = None) -> str:
    """The in-browser comparison with its choice in the query (a note can cite it):
    ``/mtg/compare/?lang=en&old=2009-05-01&new=2022-11-18`` (``&rule=509`` keeps one part)."""
    query = f"lang={_part(lang)}&old={_part(old)}&new={_part(new)}"
    return f"{compare_page(game)}?{query}" + (f"&rule={_part(rule)}" if rule else "")


def api_version(game: str, lang: str, version: str) -> str:
    """JSON of every rule text of one version (the record ``show --version --json`` prints, per number),
    for comparisons in the browser and for programs: ``/api/dm/ja/1.48.json``."""
    return f"/api/{game}/{lang}/{_part(version)}.json"


def api_compare(game: str, lang: str, chapter: str | None = None) -> str:
    """What the compare page reads (``render/compare_data.py``): the alignments of a game and language,
    ``/api/mtg/compare/en/index.json``, and the token diffs filed under a chapter, ``…/en/5.json``."""
    return f"/api/{game}/compare/{_part(lang)}/{'index' if chapter is None else _part(chapter)}.json"


def search_cites(number: RuleNumber) -> str:
    """The search page asked who cites a rule: ``/search/?q=cites:507.2a`` (the search page reads ``q``)."""
    return f"/search/?q=cites:{anchor(number)}"


def relative(from_page: str, to: str) -> str:
    """``to`` as a link relative to the page at ``from_page`` (both root paths, pages end in ``/``).

    Relative links let the built site be served under any prefix or opened from a folder.
    """
    base = _folders(from_page)
    dirs, leaf, hashmark, fragment = _target(to)
    common = 0
    while common < min(len(base), len(dirs)) and base[common] == dirs[common]:
        common += 1
    path = "../" * (len(base) - common) + "".join(f"{d}/" for d in dirs[common:]) + leaf
    return (path or "./") + (hashmark + fragment)


@lru_cache(maxsize=256)
def _folders(page: str) -> tuple[str, ...]:
    """A page's folders (``/dm/rule/507.2a/`` → dm, rule, 507.2a): every link of a page reads them."""
    return tuple(p for p in page.split("/")[:-1] if p)


@lru_cache(maxsize=1 << 16)
def _target(to: str) -> tuple[tuple[str, ...], str, str, str]:
    """A link target's folders, its last part and its fragment: pages link to the same targets again and again."""
    target, hashmark, fragment = to.partition("#")
    parts = target.split("/")
    return tuple(p for p in parts[:-1] if p), parts[-1], hashmark, fragment


# Where a built site says it lives when the build is not told (``rules-kb build --base-url``): the
# address ``rules-kb serve`` gives by default. The feeds and the sitemap need absolute addresses
# (a feed reader or a crawler reads them away from the site); every page links relatively.
DEFAULT_BASE_URL = "http://127.0.0.1:8000/"


def base_url(url: str) -> str | None:
    """``url`` as the root of a published site (http or https, a host, ending in ``/``, no query or
    fragment), or None when it cannot be one."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        return None
    return parts._replace(path=parts.path.rstrip("/") + "/").geturl()


def absolute(base: str, path: str) -> str:
    """A root path of the site (``/mtg/feed.xml``) under the site's published root (``base_url``)."""
    return base + path.lstrip("/")


def search_page() -> str:
    """The search page: ``/search/`` (its header form sends ``q``)."""
    return "/search/"


def cites_search(game: str, number: RuleNumber) -> str:
    """The search for every text citing a rule, for its rule page: ``/search/?q=cites%3A603.2e&game=dm``."""
    return f"{search_page()}?q={quote('cites:' + anchor(number), safe='')}&game={_part(game)}"


def whats_new_page(game: str, lang: str, version: str) -> str:
    """What a release changed in substance, against the version before it: ``/mtg/new/en/2024-11-08/``."""
    return f"/{game}/new/{lang}/{_part(version)}/"


def feed(game: str) -> str:
    """A game's Atom feed of releases, each entry linking its what's-new page: ``/mtg/feed.xml``."""
    return f"/{game}/feed.xml"


def glossary_page(game: str, lang: str, version: str) -> str:
    """Every glossary entry of one version: ``/mtg/en/2024-11-08/glossary/``."""
    return f"/{game}/{lang}/{_part(version)}/glossary/"


def api_glossary(game: str, lang: str, version: str) -> str:
    """JSON of an older version's glossary, which its page draws: ``/api/mtg/en/glossary/2009-05-01.json``."""
    return f"/api/{game}/{lang}/glossary/{_part(version)}.json"


def term_page(game: str, lang: str, term: str) -> str:
    """Every version of one glossary term: ``/mtg/term/en/deathtouch/`` (the name lower-cased, spaces as -)."""
    return f"/{game}/term/{lang}/{term_slug(term)}/"


def term_slug(term: str) -> str:
    """A term's name as one path part: NFKC, lower case, runs of anything but letters and digits as ``-``
    (Japanese stays Japanese: the folder on disk and the decoded URL are the same name)."""
    folded = unicodedata.normalize("NFKC", term).casefold()
    return re.sub(r"[^\w]+", "-", folded).strip("-_") or "term"


# The pinned forms of the first URL scheme (one page per section, one JSON file per rule and
# version), as (pattern, replacement) pairs over a path from the site's root. The 404 page
# (``site/overrides/404.html``) applies them in the browser, ``_redirects`` lists them for
# the hosts that read one; the fragment (``#507.2a``) is kept by the browser. Documented in
# ``docs/url-scheme.md``; ``tests/test_permalinks.py`` follows every form of a fixture.
OLD_FORMS: tuple[tuple[str, str], ...] = (
    (r"^/(dm|mtg)/(ja|en)/diff/([^/]+)/(\d)\d\d/$", r"/\1/\2/diff/\3/\4/"),
    # a diff page that is not built (not adjacent versions, or a chapter without changes)
    (r"^/(dm|mtg)/(ja|en)/diff/(.+?)\.\.([^/]+)/(\d/)?$", r"/\1/compare/?lang=\2&old=\3&new=\4"),
    (r"^/(dm|mtg)/(ja|en)/([^/]+)/(\d)\d\d/$", r"/\1/\2/\3/\4/"),
    (r"^/api/(dm|mtg)/(ja|en)/([^/]+)/(\d+\.?[^/]*)\.json$", r"/api/\1/\2/\3.json"),
    (r"^/api/(dm|mtg)/rule/(\d\d\d)(\.[^/]*)?\.json$", r"/api/\1/history/\2.json"),
)


# A number no version has: a URL template is a permalink formed for it, then cut where it stands.
PROBE = RuleNumber(999, 999, "z")


def url_template(path: str) -> str:
    """A permalink formed for ``PROBE`` as a template with ``{chapter}`` and ``{anchor}`` (the note
    linker's data, the compare page's): the pages fill it as ``fill`` does."""
    anchor, chapter = str(PROBE), f"/{chapter_of(PROBE)}/"
    if path.count(anchor) != 1 or path.replace(anchor, "").count(chapter) > 1:
        raise ValueError(f"cannot make a URL template of {path!r}")
    return path.replace(anchor, "{anchor}").replace(chapter, "/{chapter}/")


def fill(template: str, number: RuleNumber) -> str:
    """A permalink path from a ``url_template`` (the pages do the same in JavaScript)."""
    return template.replace("{chapter}", chapter_of(number)).replace("{anchor}", str(number))


# Tournament documents (games.DOCUMENTS numbered by section): a folder per document beside the
# game's rules, ``/mtg/ipg/``. A section's number and a version's date never look alike
# (``2.1`` / ``2024-09-23``), so both live directly under it.


def document_home(game: str, document: str) -> str:
    """A tournament document: its newest contents and every version: ``/mtg/ipg/``."""
    return f"/{game}/{_part(document)}/"


def section_page(game: str, document: str, number: str) -> str:
    """Every version of one section: ``/mtg/ipg/2.1/``, ``/dm/competition/10.3/``."""
    return f"/{game}/{_part(document)}/{_part(number)}/"


def document_version_page(game: str, document: str, version: str) -> str:
    """One version of a tournament document, whole, to read and print: ``/mtg/ipg/2024-09-23/``."""
    return f"/{game}/{_part(document)}/{_part(version)}/"


def pinned_section(game: str, document: str, version: str, number: str) -> str:
    """A section as one version states it: ``/mtg/ipg/2024-09-23/#2.1``."""
    return f"{document_version_page(game, document, version)}#{_part(number)}"


def api_document(game: str, document: str, version: str) -> str:
    """JSON of one version of a tournament document, every section: ``/api/mtg/ipg/2024-09-23.json``."""
    return f"/api/{game}/{_part(document)}/{_part(version)}.json"
