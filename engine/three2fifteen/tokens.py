"""The old name of :mod:`engine.three2fifteen.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.three2fifteen import options

sys.modules[__name__] = options
