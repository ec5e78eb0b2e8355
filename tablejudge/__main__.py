"""``python -m tablejudge``: the same command as ``tablejudge`` (for an environment whose scripts are not on PATH)."""

import sys

from tablejudge.cli import main

sys.exit(main())
