"""The bot authors' command line, ``python -m arena`` (or the ``isle-arena`` script).

Local tools run bot files exactly as the workers do (``play``, ``arena``) and prove replays
(``verify``); the submit commands talk to any Isle Arena server over its REST API using only the
standard library. This package sits above ``engine``, ``workers`` and ``replays``; none of them
imports it. It needs no Django settings or database: only ``play --watch`` borrows Django's
standalone template engine to render the viewer's own partial.
"""
