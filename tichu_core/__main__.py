"""``python -m tichu_core`` is the ``tichu`` command."""

import sys

from tichu_core.frontends.cli.commands import main

sys.exit(main())
