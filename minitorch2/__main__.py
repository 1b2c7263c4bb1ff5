"""`python -m minitorch2`: the command line lives in minitorch2/cli/ (start at its __init__.py)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
