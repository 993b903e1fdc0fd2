"""Where the project's files are: the one place that knows a checkout from an installed package.

In a checkout (the package's parent holds ``pyproject.toml``), the corpus, ``build/`` and the
site's hand-written sources (``site/``, ``mkdocs.yml``) are the checkout's. Installed with
``pip install .``, the package carries the site's sources as package data (``rules_kb/_site/``,
copied there by ``setup.py`` when the wheel is built) and works in the current folder: the
corpus is ``./corpus`` unless ``--corpus`` says otherwise, caches and the built site go under
``./build``.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SHIPPED = "_site"  # the package-data folder holding mkdocs.yml and site/ in an installed package


def _checkout() -> Path | None:
    parent = PACKAGE.parent
    return parent if (parent / "pyproject.toml").is_file() and (parent / "mkdocs.yml").is_file() else None


CHECKOUT = _checkout()
# Where the defaults live: the checkout, else the folder the command runs in.
HOME = CHECKOUT if CHECKOUT is not None else Path.cwd()
DEFAULT_CORPUS = HOME / "corpus"
BUILD = HOME / "build"
# The folder holding mkdocs.yml beside site/ (mkdocs.yml names site/overrides relative to itself).
SITE_ROOT = CHECKOUT if CHECKOUT is not None else PACKAGE / SHIPPED
SITE_SOURCES = SITE_ROOT / "site"
MKDOCS_CONFIG = SITE_ROOT / "mkdocs.yml"
