"""The bot protocol: JSON lines on a bot's stdin and stdout (``wire``), its JSON Schema,
observation patches, a bot's marks and the kinds of fault a bot can commit. No Django."""
