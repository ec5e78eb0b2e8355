"""The old name of :mod:`engine.digit.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.digit import options

sys.modules[__name__] = options
