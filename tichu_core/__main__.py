"""``python -m tichu_core`` is the ``tichu`` command."""

import sys

from tichu_core.frontends.cli import main

sys.exit(main())
