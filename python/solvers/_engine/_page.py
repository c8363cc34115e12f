"""The page that steps through a sequence of figures (a game, one move at a
time): HTML, style and script, naming no family.

The template is plain text with ``@NAME@`` slots (``str.format`` would trip
over the braces of CSS and JavaScript); :func:`fill` puts in the title, the
word for one step and for several (``STEP``, ``STEPS``: ``move`` and
``moves``, say), the number of steps (``COUNT``), the play delay and one
``<figure class="step">`` per figure.  The script shows one figure at a time
and keeps the step in the URL fragment.
"""

from __future__ import annotations

import re

#: The slots of the template, each filled by :func:`fill`.
SLOTS = frozenset({"TITLE", "STEP", "STEPS", "COUNT", "DELAY", "FIGURES"})


def fill(values: dict[str, str]) -> str:
    """The page with every ``@NAME@`` slot replaced by ``values[NAME]``, in one
    pass, so that no filled-in text is itself searched for slots.  ``STEP``
    and ``STEPS`` stand in the script's strings too: plain letters only.

    >>> page = fill({"TITLE": "@COUNT@", "STEP": "move", "STEPS": "moves", "COUNT": "3",
    ...              "DELAY": "700", "FIGURES": ""})
    >>> "<title>@COUNT@</title>" in page, "move 0 of 3" in page
    (True, True)
    """
    if set(values) != SLOTS:
        raise ValueError(f"the page fills the slots {sorted(SLOTS)}, got {sorted(values)}")
    for slot in ("STEP", "STEPS"):
        if not (values[slot].isascii() and values[slot].isalpha()):
            raise ValueError(f"{slot} must be a word of ASCII letters, got {values[slot]!r}")
    return re.sub(r"@([A-Z]+)@", lambda slot: values[slot.group(1)], TEMPLATE)


TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<script>document.documentElement.className = "js";</script>
<style>
body { margin: 16px; font-family: sans-serif; color: #333333; background: #ffffff; }
h1 { font-size: 16px; font-weight: normal; margin: 0 0 12px 0; }
.controls { display: none; margin-bottom: 12px; gap: 8px; align-items: center; }
.js .controls { display: flex; }
.js .step { display: none; }
.js .step.current { display: block; }
figure { margin: 0 0 16px 0; }
figure svg { display: block; }
figcaption { margin-top: 6px; }
</style>
</head>
<body>
<h1>@TITLE@</h1>
<div class="controls">
<button type="button" id="prev" title="previous @STEP@ (left arrow)">Prev</button>
<button type="button" id="play" title="play the @STEPS@ one after another">Play</button>
<button type="button" id="next" title="next @STEP@ (right arrow)">Next</button>
<span id="label" aria-live="polite">@STEP@ 0 of @COUNT@</span>
</div>
@FIGURES@
<script>
(function () {
  "use strict";
  var steps = document.querySelectorAll(".step");
  var last = steps.length - 1;
  var label = document.getElementById("label");
  var play = document.getElementById("play");
  var current = 0;
  var timer = null;

  function fromFragment() {
    var match = /^#(\\d+)$/.exec(window.location.hash);
    return match ? Math.min(parseInt(match[1], 10), last) : 0;
  }

  function stop() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
    }
    play.textContent = "Play";
  }

  function show(k, remember) {
    k = Math.max(0, Math.min(last, k));
    steps[current].classList.remove("current");
    steps[k].classList.add("current");
    current = k;
    label.textContent = "@STEP@ " + k + " of " + last;
    if (remember && window.location.hash !== "#" + k) {
      try {
        // the fragment follows the step, so a reload or a link shows it again
        window.history.replaceState(null, "", "#" + k);
      } catch (error) {
        // some viewers refuse history changes on local files: no harm done
      }
    }
    if (k === last) {
      stop();
    }
  }

  function step(by) {
    stop();
    show(current + by, true);
  }

  function toggle() {
    if (timer !== null) {
      stop();
      return;
    }
    if (current === last) {
      show(0, true);
    }
    play.textContent = "Pause";
    timer = window.setInterval(function () { show(current + 1, true); }, @DELAY@);
  }

  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  play.addEventListener("click", toggle);
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (event.key === "ArrowLeft") {
      step(-1);
    } else if (event.key === "ArrowRight") {
      step(1);
    } else if (event.key === "Home") {
      step(-last);
    } else if (event.key === "End") {
      step(last);
    } else {
      return;
    }
    event.preventDefault();
  });
  window.addEventListener("hashchange", function () { stop(); show(fromFragment(), false); });
  show(fromFragment(), false);
})();
</script>
</body>
</html>
"""
