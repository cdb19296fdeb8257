"""``python -m tichu_core`` is the ``tichu`` command."""

import sys

from .cli import main

sys.exit(main())
