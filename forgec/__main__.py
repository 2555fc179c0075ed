"""``python -m forgec`` runs the command-line interface.

A Ctrl-C while the interface is still importing exits quietly with 130, like one while it runs.
"""

import sys

try:
    from forgec.cli import main
except KeyboardInterrupt:
    sys.stderr.write("forgec: interrupted\n")
    raise SystemExit(130) from None

if __name__ == "__main__":
    main()
