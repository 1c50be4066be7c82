"""Let 'python -m ruledsl' run the command line, as the 'ruledsl' script does."""

import sys

from ruledsl.cli.app import main

sys.exit(main())
