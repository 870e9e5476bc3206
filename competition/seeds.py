"""Seeds fixed by what they are for: a league's base seed, a table's seed, a paired game's.

``seed_from("league", 7, "Spring")`` is the same number in every process and on every run, so
re-creating a schedule, re-playing a paired plan or re-seeding a bracket gives the same games.
(The engine's own ``engine.rng.derive_seed`` splits one game's seed into its random streams.)
"""

from __future__ import annotations

import hashlib

SEED_MASK = 2**63 - 1  # seeds are stored in signed 64-bit columns; the engine takes any of them


def seed_from(*parts: object) -> int:
    """A seed in [0, 2**63) named by ``parts`` (joined by "/" and hashed with SHA-256)."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK
