"""The profiler's summary table, laid out as torch's `prof.key_averages().table(...)` prints it.

Runtime layer, coverage surface. Columns, right-aligned and two spaces apart, each line ending in those two spaces:

    Name | Self CPU % | Self CPU | CPU total % | CPU total | CPU time avg | [CPU Mem | Self CPU Mem] | # of Calls
    | [Input Shapes] | [Source Location]

The memory columns come with profile_memory; Input Shapes when an event has shapes (the averages have them only
when grouped by input shape); Source Location when an event has a stack (averages: grouped by stack). The name
column is as wide as the longest name plus 4, at most 55; other figures take 12. Percentages are shares of the sum of
every row's self time, which the footer prints: "Self CPU time total: ...". A CPU-only build has no device columns.
"""
from . import _events

FIGURE_WIDTH = 12
SPACING = 2


def build_table(events, sort_by=None, row_limit=100, header=None, max_src_column_width=75,
                max_name_column_width=55, max_shapes_column_width=80, profile_memory=False,
                top_level_events_only=False, time_unit=None):
    if len(events) == 0:
        return ""
    if sort_by is not None:
        attribute = sort_by.replace("cuda", "device").replace("xpu", "device").replace("privateuse1", "device")
        events = sorted(events, key=lambda event: getattr(event, attribute), reverse=True)
    has_shapes = any(event.input_shapes for event in events)
    stacks = [event.stack for event in events if event.stack]
    name_width = min(max(len(event.key) for event in events) + 4, max_name_column_width or 10 ** 9)
    shapes_width = min(max(len(str(event.input_shapes)) for event in events) + 4, max_shapes_column_width or 10 ** 9)
    src_width = min(max(len(frame) for stack in stacks for frame in stack) + 4,
                    max_src_column_width or 10 ** 9) if stacks else 0

    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers.append("# of Calls")
    columns = [(name_width, ">")] + [(FIGURE_WIDTH, ">")] * (len(headers) - 1)
    if has_shapes:
        headers.append("Input Shapes")
        columns.append((shapes_width, ">"))
    if stacks:
        headers.append("Source Location")
        columns.append((src_width, "<"))
    row_format = "".join("{: " + align + str(width) + "}" + " " * SPACING for width, align in columns)
    separator = "".join("-" * width + " " * SPACING for width, _ in columns)
    line_length = sum(width + SPACING for width, _ in columns) - SPACING

    self_total = sum(event.self_cpu_time_total for event in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*headers), separator]
    shown = 0
    for event in events:
        if shown == row_limit:
            break
        if top_level_events_only and event.cpu_parent is not None:
            continue
        shown += 1
        lines.append(row_format.format(*_row(event, self_total, name_width, shapes_width, profile_memory, has_shapes,
                                             src_width, time_unit, max_name_column_width)))
        if stacks:
            blanks = [""] * (len(headers) - 1)
            lines += [row_format.format(*blanks, _trim_path(frame, src_width)) for frame in event.stack[1:]]
            lines.append(row_format.format(*blanks, ""))
    lines += [separator, f"Self CPU time total: {_time(self_total, time_unit)}"]
    return "".join(line + "\n" for line in lines)


def _row(event, self_total, name_width, shapes_width, profile_memory, has_shapes, src_width, time_unit,
         max_name_column_width):
    name = event.key
    if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
        name = name[:max_name_column_width - 3] + "..."
    values = [
        name,
        _events.format_time_share(event.self_cpu_time_total, self_total),
        _time(event.self_cpu_time_total, time_unit),
        _events.format_time_share(event.cpu_time_total, self_total) if not event.is_async else 0,
        _time(event.cpu_time_total, time_unit),
        _time(event.cpu_time, time_unit),
    ]
    if profile_memory:
        values += [_events.format_memory(event.cpu_memory_usage), _events.format_memory(event.self_cpu_memory_usage)]
    values.append(event.count)
    if has_shapes:
        values.append(str(event.input_shapes)[:shapes_width])
    if src_width:
        values.append(_trim_path(event.stack[0], src_width) if event.stack else "")
    return values


def _time(time_us, unit):
    scale = {"s": 1e6, "ms": 1e3, "us": 1.0}.get(unit)
    return _events.format_time(time_us) if scale is None else f"{time_us / scale:.3f}{unit}"


def _trim_path(path, width):
    """A path too long for its column keeps its end, "..." in place of its first characters."""
    if len(path) > width:
        path = path[len(path) - width:]
        if len(path) > 3:
            path = "..." + path[3:]
    return path
