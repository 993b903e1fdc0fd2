"""The one build step pyproject.toml cannot declare: the wheel carries the site's hand-written
sources (site/ and mkdocs.yml, which stay at the checkout's root for mkdocs and the browser tests)
as package data under rules_kb/_site/, so an installed rules-kb builds a site outside the
checkout (rules_kb/places.py finds them). An editable install reads the checkout instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# Written into site/assets by old builds; a build writes them into its own docs folder.
GENERATED = ("link-grammar.js", "link-data.js")


class BuildWithSiteSources(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "rules_kb" / "_site"
        shutil.copytree(HERE / "site", target / "site", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(*GENERATED, "__pycache__"))
        shutil.copy2(HERE / "mkdocs.yml", target / "mkdocs.yml")


setup(cmdclass={"build_py": BuildWithSiteSources})
