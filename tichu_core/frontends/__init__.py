"""The front ends: everything that drives the engine for people, bots and programs.

Rooms, lowest first (tests/test_layout.py holds that each imports only rooms below it):
``text`` (the game as text), ``bots`` (the bot protocol and bots), ``sim`` (bots playing
many matches: simulate, compare), ``rl`` (the PettingZoo environment), ``web`` (the
web table), ``bench`` (``tichu bench``), ``cli`` (the ``tichu`` command and terminal play).
Front ends use the public API, ``tichu_core``; the exceptions are listed, with their
reasons, in tests/test_layout.py.
"""
