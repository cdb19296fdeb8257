"""Rule plugins bundled with tichu, installed as ``tichu_core.plugins``.

A variant names a plugin here by its module name (``plugins = ["standard",
"stray_dog"]``): ``tichu_core.plugins.<name>`` is imported only when a game of
that variant is built. The code parts of Threechu, Tientsin and Grand Seigneur
live here, and the worked house-rule example of docs/plugins.md.
"""
