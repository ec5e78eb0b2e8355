"""The old name of :mod:`engine.pdq.options`, kept so that imports elsewhere work (issue 25)."""

import sys

from engine.pdq import options

sys.modules[__name__] = options
