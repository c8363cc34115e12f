"""What every family shares and no family is named in: argument checks
(``_validate``, ``_args``), plans and executors (``_plan``, ``_rounds``),
checkpoints, progress bars, deadlines, the picture primitives and page
template (``_draw``, ``_page``), the terminal animation shell (``_screen``),
packing of squares, the family descriptor (``_family``) and deprecated names.
"""
