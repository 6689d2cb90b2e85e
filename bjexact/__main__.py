import os
import sys

# One BLAS thread, set before numpy is first imported: the engine's arrays are small, and
# starting (and contending for) a thread pool on a shared machine costs more than it gives.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

try:
    from .cli import console_main
except KeyboardInterrupt:  # Ctrl-C while the modules load
    sys.stderr.write("bjexact: interrupted\n")
    sys.exit(130)

console_main()
