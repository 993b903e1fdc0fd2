"""Where the publishers list their rules (a module of its own so that registering the CLI's
``updates`` command, which names them in ``--help``, imports nothing that fetches or adds)."""

WIZARDS_RULES_URL = "https://magic.wizards.com/en/rules"
DM_RULES_URL = "https://dm.takaratomy.co.jp/rule/"
