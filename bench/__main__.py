import sys

from bench.run import main

sys.exit(main(sys.argv[1:]))
