"""The 404 page: working under any prefix, and the one place old permalinks are forwarded.

mkdocs writes ``404.html`` with links from the server's root (``/assets/...``), since a host
serves it for a missing path at any depth. Under a project-site prefix
(``https://USER.github.io/rules-kb/``) those links miss, so the page loses its styles. Here its
root links become relative, and a script at the top of its head finds the site's root in the
address (the part before the first top folder the site has, ``/rules-kb/``) and sets
``<base href>`` to it. The same script forwards the first scheme's pinned forms
(``links.OLD_FORMS``) to the page that holds the same text, keeping the ``#rule`` fragment:
one small file instead of a redirect page per old section page, on every host.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rules_kb import links

PAGE = "404.html"


def js_forms() -> list[list[str]]:
    """``links.OLD_FORMS`` in JavaScript's syntax: ``\\1`` in a replacement is ``$1`` there."""
    return [[pattern, re.sub(r"\\(\d)", r"$\1", replacement)] for pattern, replacement in links.OLD_FORMS]


def root_script(tops: list[str]) -> str:
    """The script that sets ``<base>`` to the site's root and forwards an old permalink."""
    data = json.dumps({"tops": tops, "forms": js_forms()}, separators=(",", ":"))
    return ("<script>(function(){var d=" + data.replace("</", "<\\/") + ";"
            "var p=location.pathname.split('/'),at=-1;"
            "for(var i=1;i<p.length-1;i++){if(d.tops.indexOf(decodeURIComponent(p[i]))>=0){at=i;break;}}"
            "if(at<0)at=p.length>3?2:1;"
            "var root=p.slice(0,at).join('/')+'/';"
            "document.write('<base href=\"'+root.replace(/[\"<>&]/g,encodeURIComponent)+'\">');"
            "var rel='/'+p.slice(at).join('/');"
            "for(var j=0;j<d.forms.length;j++){var re=new RegExp(d.forms[j][0]);"
            "if(re.test(rel)){var to=rel.replace(re,d.forms[j][1]);"
            "location.replace(root+to.slice(1)+(to.indexOf('?')<0?location.search:'')+location.hash);return;}}"
            "})();</script>")


def fix_not_found_page(site_dir: Path) -> None:
    """Make ``404.html`` prefix-independent and forwarding; the site's top folders are read from disk."""
    page = site_dir / PAGE
    if not page.is_file():
        return
    tops = sorted(entry.name for entry in site_dir.iterdir() if entry.is_dir() and not entry.name.startswith("."))
    text = page.read_text(encoding="utf-8")
    text = re.sub(r'(href|src|action)="/\.?', r'\1="', text)  # "/assets/x" → "assets/x", "/." → ""
    text = text.replace('__md_scope=new URL("/",location)', "__md_scope=new URL(document.baseURI)")
    text = text.replace('"base": "/"', '"base": "."')
    head = text.index("<head>") + len("<head>")
    page.write_text(text[:head] + root_script(tops) + text[head:], encoding="utf-8")
