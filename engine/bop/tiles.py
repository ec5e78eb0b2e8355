"""The old name of :mod:`engine.bop.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.bop import options

sys.modules[__name__] = options
