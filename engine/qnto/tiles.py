"""The old name of :mod:`engine.qnto.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.qnto import options

sys.modules[__name__] = options
