"""Writes the History maps' label layouts (``render.history_board.LAYOUT_DIR``), so no picture request pays
for them: run after a change to the maps or to the layout code (tests/test_render_labels.py says when).

    PYTHONPATH=. python -m render.history_labels
"""

from __future__ import annotations

from render.history_board import BOARDS, LAYOUT_DIR, layout_json


def main() -> int:
    """Compute and write every board's layouts; print each file written."""
    LAYOUT_DIR.mkdir(exist_ok=True)
    for board in BOARDS:
        path = LAYOUT_DIR / f"{board}.json"
        path.write_text(layout_json(board), encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
