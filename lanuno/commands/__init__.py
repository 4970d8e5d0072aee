"""What ``lanuno host | join | play | sim`` wire together, one module per command.

This is the only layer that sees both :mod:`lanuno.net` (sockets, mDNS, journal files)
and :mod:`lanuno.ui` (the terminal apps): net and ui do not import each other, so the
commands pass a network session to a screen that only knows the ``ui.contracts``
protocols. ``cli.py`` above parses arguments and calls ``run(args)`` of one module here.

    common   rules from ``--preset``/``--option``, bot pace, journal path (light: cli uses it)
    terminal the hand app or the plain client a player plays in
    screen   the shared screen: the full-screen table app, or a plain log (headless)
    host     a served, journaled, announced table (``lanuno host``)
    join     find a table and play in the hand app or the plain client (``lanuno join``)
    play     the whole stack on loopback with bots (``lanuno play``)
    sim      bots-only games in this process, with statistics (``lanuno sim``)
"""
