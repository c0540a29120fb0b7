"""A replaced site's folder removed without the build waiting for it.

Once the new site is swapped in (runtime/output.py), the folder it replaced only has to go. Unlinking its
thousands of files takes a fraction of a CPU-second but seconds of wall on a busy disk, and the build would
wait for all of it before it returns; so a large one is renamed ``.<name>.gone-…`` (a name no build swaps to)
and removed by ``rm -rf`` in a session of its own, which the build neither waits for nor reaps. A removal
that did not finish (the machine stopped) is found and started again by the next build into that folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

GONE = "gone-"  # ``.<name>.gone-<pid>-<ns>``: a replaced site being removed


def remove(folder: Path, gone: Path, aside: bool) -> None:
    """Remove ``folder``: here, or (``aside``) renamed to ``gone`` with a name of its own and removed by a
    process this one does not wait for; here when that cannot start (no ``/bin/sh``, not POSIX)."""
    if aside and os.name == "posix":
        target = folder if folder.name.startswith(gone.name) else \
            gone.with_name(f"{gone.name}{os.getpid()}-{time.monotonic_ns()}")
        try:
            folder.rename(target)
            subprocess.run(["/bin/sh", "-c", 'rm -rf -- "$1" &', "sh", target], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, check=True)
            return
        except (OSError, subprocess.SubprocessError):
            folder = target if target.exists() else folder
    shutil.rmtree(folder, ignore_errors=aside)  # aside: another removal may be taking it too
