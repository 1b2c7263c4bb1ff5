"""Graphs as SVG, drawn by our own code: the pictures of `run --report`, with no Graphviz needed.

CLI layer, used by report_stages.py. A graph here is boxes (`Box`: a name, a few lines of label, colours)
and arrows (`Arrow`), in an order where every arrow points forward, as an FX graph's node order is. The
layout is the classic layered one, kept small:

    layers     each box one row below the lowest box it reads (longest path from the inputs)
    order      within a row, boxes sorted by the mean position of what they read (two sweeps), so arrows
               cross less
    place      rows centred, boxes as wide as their longest line; arrows as curves from the bottom of the
               producer to the top of the user

The one idea to hold: the output is plain SVG text, each box a `<g class="node" data-node="NAME">` holding
its name as `<text>`, so a browser (or a test reading the DOM) finds every node by name.
"""
import html
import itertools
from dataclasses import dataclass

CHAR_WIDTH = 6.6  # px per character of the 11px monospace font
LINE_HEIGHT = 14
PAD_X, PAD_Y = 8, 6
GAP_X, GAP_Y = 14, 34
MARGIN = 10
_pictures = itertools.count()  # marker ids must be unique in the page that holds every picture


@dataclass
class Box:
    name: str
    lines: list  # the label, first line the name
    fill: str = "#ffffff"
    stroke: str = "#444444"
    dashed: bool = False
    double: bool = False  # a second border: a saved value
    rounded: bool = False  # an input
    title: str = ""  # the hover text


@dataclass
class Arrow:
    source: str
    target: str
    color: str = "#777777"
    width: float = 1.0


def draw(boxes, arrows, label=""):
    """SVG text for the graph; `label` becomes its accessible name and a caption row at the top."""
    index = {box.name: box for box in boxes}
    arrows = [a for a in arrows if a.source in index and a.target in index and a.source != a.target]
    rows = _order(_layers(boxes, arrows), arrows)
    sizes = {b.name: (max(len(line) for line in b.lines) * CHAR_WIDTH + 2 * PAD_X,
                      len(b.lines) * LINE_HEIGHT + 2 * PAD_Y) for b in boxes}
    row_widths = [sum(sizes[n][0] for n in row) + GAP_X * (len(row) - 1) for row in rows]
    width = max(row_widths + [len(label) * CHAR_WIDTH]) + 2 * MARGIN
    top = MARGIN + (LINE_HEIGHT + 6 if label else 0)
    where = {}  # name -> (x, y, w, h)
    for row, row_width in zip(rows, row_widths):
        x = (width - row_width) / 2
        height = max(sizes[n][1] for n in row)
        for name in row:
            w, h = sizes[name]
            where[name] = (x, top, w, h)
            x += w + GAP_X
        top += height + GAP_Y
    height = top - GAP_Y + MARGIN
    picture = next(_pictures)
    markers = {color: f"arrow{picture}_{i}" for i, color in enumerate(dict.fromkeys(a.color for a in arrows))}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{_e(label)}">', "<defs>"]
    parts += [f'<marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
              f'orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="{color}"/></marker>'
              for color, marker in markers.items()]
    parts.append("</defs>")
    if label:
        parts.append(f'<text class="caption" x="{MARGIN}" y="{MARGIN + 11}" font-family="sans-serif" '
                     f'font-size="12" font-weight="bold">{_e(label)}</text>')
    parts += [_arrow(arrow, where, markers[arrow.color]) for arrow in arrows]
    parts += [_box(box, *where[box.name]) for box in boxes]
    parts.append("</svg>")
    return "\n".join(parts)


def _layers(boxes, arrows):
    """Each box's row: one below the lowest of the boxes it reads."""
    reads = {b.name: [] for b in boxes}
    for arrow in arrows:
        reads[arrow.target].append(arrow.source)
    layer = {}
    for box in boxes:  # boxes come in an order where producers precede users
        layer[box.name] = 1 + max((layer.get(s, 0) for s in reads[box.name]), default=-1)
    rows = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for box in boxes:
        rows[layer[box.name]].append(box.name)
    return rows


def _order(rows, arrows, sweeps=2):
    reads = {}
    for arrow in arrows:
        reads.setdefault(arrow.target, []).append(arrow.source)
    for _ in range(sweeps):
        position = {}
        for row in rows:
            before = {name: i / max(len(row), 1) for i, name in enumerate(row)}
            row.sort(key=lambda name: _mean([position[s] for s in reads.get(name, ()) if s in position],
                                            before[name]))
            position.update({name: i / max(len(row), 1) for i, name in enumerate(row)})
    return rows


def _mean(values, otherwise):
    return sum(values) / len(values) if values else otherwise


def _arrow(arrow, where, marker):
    x1, y1, w1, h1 = where[arrow.source]
    x2, y2, w2, _ = where[arrow.target]
    start, end = (x1 + w1 / 2, y1 + h1), (x2 + w2 / 2, y2)
    bend = max((end[1] - start[1]) / 2, 12)
    path = (f"M {start[0]:.1f} {start[1]:.1f} C {start[0]:.1f} {start[1] + bend:.1f} {end[0]:.1f} "
            f"{end[1] - bend:.1f} {end[0]:.1f} {end[1]:.1f}")
    return (f'<path class="edge" data-from="{_e(arrow.source)}" data-to="{_e(arrow.target)}" d="{path}" '
            f'fill="none" stroke="{arrow.color}" stroke-width="{arrow.width}" marker-end="url(#{marker})"/>')


def _box(box, x, y, w, h):
    dash = ' stroke-dasharray="4 3"' if box.dashed else ""
    radius = h / 2 if box.rounded else 3
    parts = [f'<g class="node" data-node="{_e(box.name)}">', f"<title>{_e(box.title or box.name)}</title>",
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius:.1f}" fill="{box.fill}" '
             f'stroke="{box.stroke}" stroke-width="{2.2 if box.double else 1}"{dash}/>']
    if box.double:
        parts.append(f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{w - 6:.1f}" height="{h - 6:.1f}" '
                     f'rx="{max(radius - 3, 1):.1f}" fill="none" stroke="{box.stroke}" stroke-width="1"/>')
    for i, line in enumerate(box.lines):
        weight = ' font-weight="bold"' if i == 0 else ""
        parts.append(f'<text x="{x + w / 2:.1f}" y="{y + PAD_Y + (i + 1) * LINE_HEIGHT - 3:.1f}" '
                     f'text-anchor="middle" font-family="monospace" font-size="11"{weight}>{_e(line)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _e(text):
    return html.escape(str(text))
