"""Where the publishers list their rules (a module of its own so that registering the CLI's
``updates`` command, which names them in ``--help``, imports nothing that fetches or adds)."""

from rules_kb.games import CR, document_kind

WIZARDS_RULES_URL = document_kind("mtg", CR).publisher_pages[0]
DM_RULES_URL = document_kind("dm", CR).publisher_pages[0]
