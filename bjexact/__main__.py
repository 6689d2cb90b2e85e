import sys

try:
    from .cli import console_main
except KeyboardInterrupt:  # Ctrl-C while the modules load
    sys.stderr.write("bjexact: interrupted\n")
    sys.exit(130)

console_main()
