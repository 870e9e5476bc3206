"""Sub-commands of ``python -m arena``, one module each; see ``arena.cli.COMMANDS``."""
