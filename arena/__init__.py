"""The bot authors' command line, ``python -m arena`` (or the ``isle-arena`` script).

Local tools run bot files exactly as the workers do (``play``, ``arena``) and prove replays
(``verify``); the submit commands talk to any Isle Arena server over its REST API using only the
standard library. This package sits above ``engine``, ``competition``, ``replayfile`` and
``workers``; none of them imports it. It needs no Django project, settings or database: only
``play --watch`` loads Django's standalone template engine to render the site's own viewer
partial.
"""
