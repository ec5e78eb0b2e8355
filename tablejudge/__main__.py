"""``python -m tablejudge``: the same command as ``tablejudge`` (for an environment whose scripts are not on PATH)."""

import sys

from tablejudge.cli import main

if __name__ == "__main__":  # (imported, as the tests' walk over every module does, it runs nothing)
    sys.exit(main())
