"""Dies before it can answer start."""

raise SystemExit("crash_at_start: cannot even begin")
