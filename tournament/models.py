"""Tournament models (bots, bot versions, leagues, matches, seats); written in a later issue."""
