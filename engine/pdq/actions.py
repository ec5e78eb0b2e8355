"""The old name of :mod:`engine.pdq.moves`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.pdq import moves

sys.modules[__name__] = moves
