"""The site for people: home, accounts, author dashboard and bot pages, organiser forms, leagues,
ladders, matches. Views are thin: they read through `tournament.selectors` /
`tournament.selectors.site` and change things through one `tournament.services` call each. The
replay viewer stays in `replays/`; the match page embeds its template."""
