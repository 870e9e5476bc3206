"""Host details out of what users read: failure reasons, bot faults and bot logs never show
this machine's paths or process ids (they tell an attacker where the sandbox lives and what
runs). The full text still goes to the server log where it arises."""

from __future__ import annotations

import re

# A sandbox folder of workers/sandbox/bot_process.py: <root>/<label>-<pid>-<12 hex>/ ; what follows
# is the
# bot's own view of its files (bot/main.py), which is kept.
_SANDBOX_DIR = re.compile(r"(?:/[^/\s'\"]+)*/[\w.]+-\d+-[0-9a-f]{12}/")
# Any other absolute path with at least two parts: only its last part is kept.
_PART = r"[^/\s'\"`:,;()\[\]{}<>]"
_ABSOLUTE_PATH = re.compile(rf"(?<![\w.~:/\\-])/(?:{_PART}+/)+({_PART}*)")
_PID = re.compile(r"\b(pid|process)([ =:#]*)\d+\b", re.IGNORECASE)


def redact_host_details(text: str) -> str:
    """`text` with sandbox folders removed, other absolute paths cut to their last part and
    process ids hidden."""
    if not text:
        return text
    text = _SANDBOX_DIR.sub("", text)
    text = _ABSOLUTE_PATH.sub(lambda m: f".../{m.group(1)}", text)
    return _PID.sub(lambda m: f"{m.group(1)}{m.group(2)}?", text)
