"""One lock between writing files that will be executed and forking this process.

A child forked from a thread holds a copy of every file descriptor of the process until it
execs (Python opens files close-on-exec, but the copy exists between fork and exec). If, in
that window, another thread exec's a bot binary that the first thread had open for writing,
the exec fails with ETXTBSY ("Text file busy"): with a match's bots unpacked and started side
by side, a binary bot could fail to start because of another seat. So unpacking a bundle and
starting a process (fork to exec) never overlap: both hold ``FILES_AND_FORKS``.
"""

from __future__ import annotations

import threading

FILES_AND_FORKS = threading.Lock()
