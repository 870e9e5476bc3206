"""The Duel data files (written by scripts/import_game_data.py)."""
