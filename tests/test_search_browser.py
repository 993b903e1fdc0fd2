"""The search page in headless Chromium: same tokens and results as the CLI, quality, the UI."""

from __future__ import annotations

import json
import re

import pytest
import search_support as support
from search_support import load_queries, metrics, result_ids

from rules_kb.search.query import INDEX_DIR, search
from rules_kb.search.segment import segment

# The session's index and standalone page (built once), shared with test_search.py.
search_root = support.search_root
search_index = support.search_index
search_site = support.search_site

# Extra strings for the tokenizer comparison: widths, mixed scripts, punctuation, astral characters.
TOKEN_CASES = [
    "ＧＲ召喚したクリーチャー", "S-MAX進化クリーチャー", "non-active player's creature", "player’s “turn”",
    "507.2a と ５０７．２ａ", "𠮷野家のカード", "ｶﾀｶﾅのプレーヤー", "  ", "",
    "Ｗ・ブレイカー", "turn-based", "ｗ･ブレイカー",
]


@pytest.fixture(scope="module")
def site_url(search_site, serve_dir) -> str:
    return serve_dir(search_site)


def open_search(page, site_url: str, query: str = "") -> None:
    page.goto(site_url + "search/" + (f"?q={query}" if query else ""))
    page.wait_for_function("window.rulesKbSearch !== undefined")


def test_browser_and_cli_cut_queries_into_the_same_tokens(page, site_url, search_index):
    open_search(page, site_url)
    texts = [q.q for q in load_queries()] + TOKEN_CASES
    browser = page.evaluate("async (texts) => { const out = []; for (const t of texts) "
                            "out.push(await window.rulesKbSearch.tokens(t)); return out; }", texts)
    python = [[{"surface": t.surface, "term": t.term, "start": t.start, "end": t.end, "word": t.word}
               for t in segment(text, search_index.vocabulary)] for text in texts]
    assert browser == python



def test_browser_and_cli_cut_every_japanese_text_of_the_index_alike(page, site_url, search_root):
    """Snippets segment whole rule texts, where words longer than any query's are met: every
    Japanese text the index's group shards hold, cut by the page and by segment.py."""
    texts = sorted({text for shard in sorted((search_root / INDEX_DIR / "g").glob("*.json"))
                    for text in json.loads(shard.read_text(encoding="utf-8"))["texts"].values()
                    if re.search("[\u3040-\u30ff\u4e00-\u9fff]", text)})
    assert len(texts) > 900  # the subset's Duel Masters rulebooks, every wording (996)
    open_search(page, site_url)
    vocabulary = json.loads((search_root / INDEX_DIR / "vocab.json").read_text(encoding="utf-8"))
    browser = page.evaluate("async (texts) => { const out = []; for (const t of texts) "
                            "out.push((await window.rulesKbSearch.tokens(t)).map(k => [k.start, k.end, k.term])); "
                            "return out; }", texts)
    python = [[[t.start, t.end, t.term] for t in segment(text, vocabulary)] for text in texts]
    assert browser == python

def test_browser_and_cli_give_the_same_results_and_quality(page, site_url, search_index):
    queries = load_queries()
    open_search(page, site_url)
    browser = page.evaluate("async (qs) => { const out = {}; for (const q of qs) "
                            "out[q] = await window.rulesKbSearch.search(q, {limit: 10}); return out; }",
                            [q.q for q in queries])
    python = {q.q: [h.to_record() for h in search(search_index, q.q, limit=10)] for q in queries}
    assert json.loads(json.dumps(browser)) == json.loads(json.dumps(python))
    recall, mrr, misses = metrics(queries, {q: result_ids(hits) for q, hits in browser.items()})
    print(f"\nbrowser search: {len(queries)} queries, recall@10 {recall:.3f}, MRR {mrr:.3f}")
    print("\n".join(misses))
    assert recall >= 0.98 and mrr >= 0.85


JUDGE_SETS = [support.ROOT / "benchmarks" / "queries" / name for name in ("judge.toml", "tournament.toml")]


def test_browser_and_cli_read_judge_questions_alike(page, site_url, search_index):
    """The judge and tournament sets (questions, particles, names with and without ・) give the same
    tokens and the same lists in the page as in the CLI; the page reads a name typed without its dot."""
    queries = [q.q for path in JUDGE_SETS for q in load_queries(path)]
    queries += ["Wブレイカー", "Ｗ・ブレイカー", "S・トリガーを宣言する"]
    open_search(page, site_url)
    browser = page.evaluate("async (qs) => { const out = {}; for (const q of qs) out[q] = "
                            "[await window.rulesKbSearch.tokens(q), await window.rulesKbSearch.search(q, {limit: 10})];"
                            " return out; }", queries)
    for query in queries:
        tokens = [{"surface": t.surface, "term": t.term, "start": t.start, "end": t.end, "word": t.word}
                  for t in segment(query, search_index.vocabulary)]
        hits = [h.to_record() for h in search(search_index, query, limit=10)]
        assert json.loads(json.dumps(browser[query])) == [tokens, hits], query
    assert result_ids(browser["S・トリガーを宣言する"][1])[0] == "dm/ja/509.5a"
    assert result_ids(browser["ターン・プレイヤーとは誰のこと"][1])[0] == "dm/ja/102.1"


def test_filters_agree_with_the_cli(page, site_url, search_index):
    open_search(page, site_url)
    for query, options in [("creature", {"game": "dm", "lang": "en"}), ("ブロック", {"lang": "ja"}),
                           ("507", {"game": "mtg"})]:
        browser = page.evaluate("([q, o]) => window.rulesKbSearch.search(q, o)", [query, options])
        python = [h.to_record() for h in search(search_index, query, **options)]
        assert json.loads(json.dumps(browser)) == python
        assert browser
        assert all(h["game"] == options.get("game", h["game"]) and h["lang"] == options.get("lang", h["lang"])
                   for h in browser)


def test_typing_shows_highlighted_results_and_enter_opens_one(page, site_url):
    open_search(page, site_url)
    box = page.locator("#rk-query")
    box.fill("")
    box.type("ブロックした時")
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0")
    first = page.locator("#rk-results .rk-hit").first
    assert first.locator(".rk-number").inner_text() == "507.3a"
    assert first.locator(".rk-badge").inner_text() == "Duel Masters · 日本語"
    assert first.locator(".rk-version").inner_text() == "1.48"
    marked = first.locator(".rk-snippet mark").all_inner_texts()
    assert "ブロック" in marked
    assert "also in" in first.locator(".rk-more").inner_text()
    # The address follows the query, so a search can be shared.
    assert "q=%E3%83%96" in page.url
    # Keyboard: the first result is selected; ArrowDown moves to the second, Enter opens it.
    second_href = page.locator("#rk-results .rk-hit").nth(1).locator(".rk-link").get_attribute("href")
    box.press("ArrowDown")
    assert page.locator("#rk-results .rk-hit").nth(1).get_attribute("aria-current") == "true"
    with page.expect_navigation():
        box.press("Enter")
    assert page.url == second_href
    assert re.search(r"/dm/ja/1\.48/5/#50\d\.\d+[a-z]?$", page.url)


def test_query_from_the_address_and_game_filter(page, site_url):
    open_search(page, site_url, "%EF%BC%95%EF%BC%90%EF%BC%97%EF%BC%8E%EF%BC%92%EF%BD%81")  # ５０７．２ａ
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0")
    numbers = page.locator("#rk-results .rk-number").all_inner_texts()
    assert numbers[:2] == ["507.2a", "507.2a"]
    page.locator("#rk-query").fill("declare blockers step")
    page.wait_for_function("document.querySelector('#rk-results .rk-number')?.textContent === '509'")
    page.select_option("#rk-game", "dm")
    page.wait_for_function("[...document.querySelectorAll('#rk-results .rk-badge')].every("
                           "b => b.textContent.startsWith('Duel Masters'))")
    assert "game=dm" in page.url


def test_cites_link_and_rule_links_come_from_the_index(page, site_url):
    open_search(page, site_url, "cites:603.2e")
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length === 2")
    hrefs = page.locator("#rk-results .rk-link").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert sorted(h.removeprefix(site_url) for h in hrefs) == ["dm/ja/1.48/5/#506.3b", "dm/ja/1.48/5/#507.3d"]
    rule = page.locator("#rk-results .rk-rule").first.get_attribute("href")
    assert rule.removeprefix(site_url) in ("dm/rule/506.3b/", "dm/rule/507.3d/")


# Queries the search reads or corrects: run-together numbers, typos, stop words, nothing found.
HELP_CASES = ["5072a", "5091a", "mulligna", "deathtuch", "split secnod", "the", "zzyzx", "the zzyzx",
              "ブロッククリーチャ", "declare the blockers", "420.5e", "309"]


def test_browser_and_cli_read_queries_alike_and_say_the_same_notes(page, site_url, search_index):
    from rules_kb.search.query import answer

    open_search(page, site_url)
    browser = page.evaluate("async (qs) => { const out = {}; for (const q of qs) "
                            "out[q] = await window.rulesKbSearch.answer(q, {limit: 10}); return out; }", HELP_CASES)
    for query in HELP_CASES:
        python = answer(search_index, query, limit=10)
        assert browser[query]["notes"] == python.notes, query
        assert json.loads(json.dumps(browser[query]["hits"])) == [h.to_record() for h in python.hits], query
    assert browser["5072a"]["notes"] == ["did you mean 507.2a? showing it"]
    magic = page.evaluate("async () => await window.rulesKbSearch.answer('5072a', {game: 'mtg', limit: 10})")
    assert magic["notes"] == answer(search_index, "5072a", game="mtg", limit=10).notes
    assert not any("did you mean" in n for n in magic["notes"])
    assert [h["number"] for h in browser["5072a"]["hits"]] == ["507.2a", "507.2a"]
    assert browser["mulligna"]["notes"] == ["no text has 'mulligna'; showing 'mulligan'"]
    # "the" is never highlighted: in no snippet of "declare the blockers".
    assert all(text.lower() != "the" for hit in browser["declare the blockers"]["hits"]
               for text, marked in hit["snippet"] if marked)


def test_a_renumbered_rule_is_one_result_saying_what_it_was(page, site_url):
    # Magic's Declare Blockers Step was 309 until the 2009-07-08 renumbering, 509 since.
    open_search(page, site_url, "declare%20blockers%20step&game=mtg")
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length > 0")
    first = page.locator("#rk-results .rk-hit").first
    assert first.locator(".rk-number").inner_text() == "509"
    assert first.locator(".rk-was").inner_text() == "was 309 until 2009-07-08"
    assert page.locator("#rk-results .rk-number").all_inner_texts().count("509") == 1
    assert "309" not in page.locator("#rk-results .rk-number").all_inner_texts()


def test_more_results_on_request_and_the_releases_in_a_few_words(page, site_url, search_index):
    """Ten results first; "more results" adds the next ten (the CLI's --limit 20 gives the same);
    the "also in" line names the range and the count of the other releases."""
    open_search(page, site_url, "block&game=mtg")
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length === 10")
    more = page.locator(".rk-more-results")
    assert more.is_visible()
    more.click()
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length === 20")
    shown = page.locator("#rk-results .rk-number").all_inner_texts()
    assert shown == [h.number for h in search(search_index, "block", game="mtg", limit=20)]
    assert page.locator("#rk-results .rk-hit").nth(10).get_attribute("aria-current") == "true"
    first = search(search_index, "block", game="mtg", limit=1)[0]
    labels = [label for label, _ in first.also]
    line = page.locator("#rk-results .rk-more").first.inner_text()
    assert line.startswith(f"also in {labels[-1]} – {labels[0]}, {len(labels)} releases")
    page.locator("#rk-query").fill("trample")  # a new query starts again at ten
    page.wait_for_function("document.querySelectorAll('#rk-results .rk-hit').length === 10")
    assert page.locator("#rk-results .rk-number").all_inner_texts() == [
        h.number for h in search(search_index, "trample", game="mtg", limit=10)]


def test_a_site_opened_from_files_says_how_to_serve_it(browser, search_site):
    context = browser.new_context()  # not the page fixture: it refuses every request but 127.0.0.1's
    try:
        page = context.new_page()
        page.goto((search_site / "search" / "index.html").as_uri() + "?q=block")
        page.wait_for_function("document.getElementById('rk-status').textContent.length > 0")
        status = page.locator("#rk-status").inner_text()
    finally:
        context.close()
    assert status.startswith("Search needs the site served over HTTP: run `rules-kb serve --dir FOLDER`")
    assert "\n" not in status
