"""``proceedings`` run as ``python -m generator`` runs it, with each timed stage's CPU written to a JSON file.

    PYTHONPATH=TREE python bench/stage_cpu.py OUT.json build --content CONTENT --out SITE -v

Used by ``bench/floors.py``; nothing in ``generator/`` changes: the stages are the ones ``-v`` prints
(``Pipeline.timed``), wrapped here before the command runs. Around each one, a snapshot of the CPU time
(user + system) of the build's whole process tree, read by the kernel's own accounting:

- this process (``getrusage(RUSAGE_SELF)``, every thread);
- its children it has waited for (``RUSAGE_CHILDREN``: forked workers done, with what they waited for);
- every descendant still alive (``/proc/PID/stat``: its own ticks and its waited-for children's), found
  through ``/proc/PID/task/*/children``; a finished child not yet waited for still shows its ticks there.

So a stage's ``tree_cpu`` is what every process of the build spent while the stage ran, the jobs that run
beside it included (the search index's child beside relate and render), and ``self_cpu`` what the build's
own process spent. ``/proc`` counts in clock ticks (10 ms). Stages nest where the build times one inside
another ("map papers" inside "render templates"): ``depth`` says so. Also written: when the process
started its Python code, when the first stage began (the interpreter's start, the imports and the command
line come before it), its own CPU then, and the modules it held at the end (for the imports' floor).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

STARTED = time.time()  # epoch: comparable with the parent's clock (its Popen), unlike perf_counter
HERE = str(Path(__file__).resolve().parent)
if sys.path and os.path.abspath(sys.path[0] or ".") == HERE:
    del sys.path[0]  # as `python -m generator`: bench/'s scripts are not modules of the build
TICK = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(c) for c in handle.read().split())
    except OSError:  # gone meanwhile
        pass
    return found


def process_cpu(pid: int) -> float | None:
    """CPU seconds of a live (or finished, not yet waited for) process, with its waited-for children's."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after the command's name, which may hold spaces
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return (utime + stime + cutime + cstime) / TICK


def snapshot() -> dict[str, Any]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    live: dict[str, float] = {}
    stack = children(os.getpid())
    while stack:
        pid = stack.pop()
        cpu = process_cpu(pid)
        if cpu is not None:
            live[str(pid)] = cpu
            stack.extend(children(pid))  # its own children: their ticks are theirs until it waits for them
    self_cpu = own.ru_utime + own.ru_stime
    tree = self_cpu + waited.ru_utime + waited.ru_stime + sum(live.values())
    return {"at": time.time(), "self": self_cpu, "tree": tree, "live": live}


def main() -> int:
    out, argv = Path(sys.argv[1]), sys.argv[2:]
    from generator.commands import cli
    command = cli.main
    from generator.pipeline import stages

    records: list[dict[str, Any]] = []
    first: list[dict[str, Any]] = []
    open_stages: list[str] = []
    timed = stages.Pipeline.timed

    def measured(self: Any, name: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        before = snapshot()
        if not first:
            first.append(before)
        open_stages.append(name)
        try:
            return timed(self, name, func, *args, **kwargs)
        finally:
            open_stages.pop()
            after = snapshot()
            records.append({"name": name, "depth": len(open_stages), "start": before["at"] - STARTED,
                            "wall": after["at"] - before["at"], "self_cpu": after["self"] - before["self"],
                            "tree_cpu": after["tree"] - before["tree"], "tree_at_start": before["tree"],
                            "tree_at_end": after["tree"], "live_before": before["live"],
                            "live_after": after["live"]})

    stages.Pipeline.timed = measured  # type: ignore[method-assign]
    pid = os.getpid()
    code = 1
    try:
        code = command(argv)
    finally:
        if os.getpid() == pid:  # not in a forked worker leaving through here
            end = snapshot()
            out.write_text(json.dumps({
                "python_started": STARTED, "first_stage": first[0]["at"] if first else None,
                "cpu_before_first_stage": first[0]["self"] if first else None,
                "tree_at_first_stage": first[0]["tree"] if first else None,
                "ended": end["at"], "self_cpu": end["self"], "tree_cpu": end["tree"],
                "stages": records, "modules": list(sys.modules),
            }), encoding="utf-8")
    leave = getattr(cli, "leave", None)  # ended as ``python -m generator`` ends (a tree from before it: as here)
    if leave is not None:
        leave(code)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
