"""``python -m engine`` entry point."""

import sys

from .cli import main

sys.exit(main())
