"""The old name of :mod:`engine.matchfive.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.matchfive import options

sys.modules[__name__] = options
