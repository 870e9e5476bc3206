"""Sub-commands of ``python -m engine``: only the engine-only ``bench``. The bot authors' tools
(play, arena, verify) are ``python -m arena``."""
