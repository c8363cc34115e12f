"""The one time bound the tests allow themselves.

A test checks that a call stops, never how fast: a bound that load can
break (another build on both cores, ``stress --cpu 4``) would turn a busy
machine's run red.  So every "it stopped" assertion uses this guard, far
above any latency a loaded machine shows, which still catches a call that
hangs or runs to its end.  How fast calls stop is measured by
``benches/cancel_bench.py`` and reported in ``docs/performance.md``.
"""

#: Seconds a call may take to stop (or to time out) before a test calls it hung.
HANG_GUARD = 20.0
