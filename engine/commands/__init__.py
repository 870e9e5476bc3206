"""Sub-commands of ``python -m engine`` (one module each: play, arena, bench, verify)."""
