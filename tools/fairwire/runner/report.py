"""The campaign's report: summary.json, report.md and report.html (with a
coverage-over-time plot drawn as inline SVG), and the summary table printed
at the end of `fuzz run`."""
from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

COLORS = {"libfuzzer": "#1f77b4", "afl": "#d62728"}


def _figure(value: Any) -> str:
    """A table figure: thousands separators, '-' when not known."""
    return "-" if value is None else f"{value:,.0f}"


def table_rows(summary: dict[str, Any]) -> list[list[str]]:
    """One row per target and engine: the summary table's cells."""
    rows = []
    for s in summary["sessions"]:
        crashes = str(s["crashes"])
        if len(s["crash_paths"]) == 1:
            crashes += f" ({s['crash_paths'][0]})"
        elif s["crash_paths"]:
            crashes += f" ({s['findings_dir']}/)"
        corpus = "-" if s["corpus"] is None else str(s["corpus"])
        rows.append([s["target"], s["engine"], _figure(s["execs"]),
                     _figure(s["execs_per_sec"]), _figure(s["coverage"]),
                     _figure(s.get("features")), f"{s['seeds']} -> {corpus}",
                     str(s["new_files"]), crashes])
    return rows


HEADER = ["target", "engine", "runs", "execs/s", "coverage (edges)", "features",
          "corpus (seeds -> end)", "new files", "crashes (saved in)"]
NUMERIC = range(2, 8)  # the right-aligned columns (HTML)


def text_table(summary: dict[str, Any]) -> str:
    """The summary table as aligned plain text."""
    rows = [HEADER] + table_rows(summary)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER) - 1)]
    lines = []
    for n, r in enumerate(rows):
        cells = [c.ljust(w) for c, w in zip(r, widths)] + [r[-1]]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 18)
    return "\n".join(lines)


def markdown_table(summary: dict[str, Any]) -> str:
    """The summary table in Markdown."""
    out = ["| " + " | ".join(HEADER) + " |",
           "|" + "|".join("---" for _ in HEADER) + "|"]
    for r in table_rows(summary):
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    return "\n".join(out)


def nice_axis(lo: float, hi: float, ticks: int = 5) -> tuple[float, float, float]:
    """(start, end, step) of an axis covering [lo, hi] with round steps."""
    span = max(hi - lo, 1.0)
    raw = span / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(lo / step) * step
    end = max(math.ceil(hi / step) * step, start + step)
    return start, end, step


def coverage_svg(title: str, series: dict[str, list[tuple[float, float]]],
                 width: int = 560, height: int = 260,
                 ylabel: str = "edges covered", steps: bool = True) -> str:
    """A line plot of a figure over time (edges covered unless `ylabel`
    says otherwise), one line per engine, as SVG: a step line (the figure
    holds until the next sample) unless `steps` is False."""
    left, right, top, bottom = 60, 110, 28, 40
    pw, ph = width - left - right, height - top - bottom
    xs = [x for pts in series.values() for x, _ in pts] or [1.0]
    ys = [y for pts in series.values() for _, y in pts] or [1.0]
    _, xmax, xstep = nice_axis(0, max(xs))
    # The y axis starts near the lowest coverage, so that growth shows.
    lo = min(ys) if min(ys) > 0.5 * max(ys) else 0
    ymin, ymax, ystep = nice_axis(lo, max(ys))
    sx = lambda x: left + pw * x / xmax  # noqa: E731
    sy = lambda y: top + ph - ph * (y - ymin) / (ymax - ymin)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" '
             f'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<text x="{left}" y="16" font-size="13" font-weight="bold">'
             f'{html.escape(title)}</text>']
    y = ymin
    while y <= ymax + ystep / 2:
        parts.append(f'<line x1="{left}" y1="{sy(y):.1f}" x2="{left + pw}" '
                     f'y2="{sy(y):.1f}" stroke="#e5e5e5"/>')
        parts.append(f'<text x="{left - 6}" y="{sy(y) + 4:.1f}" '
                     f'text-anchor="end">{y:g}</text>')
        y += ystep
    x = 0.0
    while x <= xmax + xstep / 2:
        parts.append(f'<text x="{sx(x):.1f}" y="{top + ph + 16}" '
                     f'text-anchor="middle">{x:g}</text>')
        x += xstep
    parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" '
                 f'fill="none" stroke="#444"/>')
    parts.append(f'<text x="{left + pw / 2}" y="{height - 6}" '
                 f'text-anchor="middle">seconds</text>')
    parts.append(f'<text x="14" y="{top + ph / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {top + ph / 2})">{html.escape(ylabel)}</text>')
    for n, (engine, pts) in enumerate(series.items()):
        color = COLORS.get(engine, "#2ca02c")
        if pts:
            # A step line: the figure holds until the next sample.
            path, prev = [], None
            for x, y in pts:
                if prev is not None and steps:
                    path.append(f"L{sx(x):.1f},{sy(prev):.1f}")
                path.append(("M" if prev is None else "L") + f"{sx(x):.1f},{sy(y):.1f}")
                prev = y
            parts.append(f'<path d="{" ".join(path)}" fill="none" '
                         f'stroke="{color}" stroke-width="2"/>')
        ly = top + 14 + 18 * n
        parts.append(f'<line x1="{left + pw + 10}" y1="{ly - 4}" '
                     f'x2="{left + pw + 30}" y2="{ly - 4}" stroke="{color}" '
                     f'stroke-width="2"/>')
        parts.append(f'<text x="{left + pw + 34}" y="{ly}">'
                     f'{html.escape(engine)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


PLOTS = (  # (file prefix, summary series, title, y axis label, step line)
    ("coverage", "coverage_over_time", "edges covered over time", "edges covered", True),
    ("features", "features_over_time", "libFuzzer features over time", "features",
     True),
    ("execs", "execs_per_sec_over_time", "execs/s over time", "execs/s", False),
)


def target_plots(summary: dict[str, Any], target: str) -> dict[str, str]:
    """The target's plots as SVG, by file name (a plot with no data is left
    out)."""
    plots = {}
    for prefix, key, title, ylabel, steps in PLOTS:
        series = {s["engine"]: [tuple(p) for p in s.get(key, [])]
                  for s in summary["sessions"] if s["target"] == target}
        series = {engine: pts for engine, pts in series.items() if pts}
        if not series and prefix != "coverage":
            continue
        plots[f"{prefix}-{target}.svg"] = coverage_svg(
            f"{target}: {title}", series, ylabel=ylabel, steps=steps)
    return plots


def write_reports(folder: Path, summary: dict[str, Any]) -> None:
    """Writes summary.json, report.md and report.html into the campaign
    folder (the plots as SVG files beside them)."""
    (folder / "summary.json").write_text(json.dumps(summary, indent=1))
    plots = {}
    for target in summary["targets"]:
        for name, svg in target_plots(summary, target).items():
            (folder / name).write_text(svg)
            plots[name] = svg
    (folder / "report.md").write_text(_markdown(summary, list(plots)))
    (folder / "report.html").write_text(_html(summary, plots))


def _status_line(summary: dict[str, Any]) -> str:
    new = sum(1 for f in summary["findings"] if f["new"])
    state = "interrupted" if summary["interrupted"] else "finished"
    return (f"Campaign {summary['id']} {state} after {summary['elapsed']:.0f} s "
            f"({summary['jobs']} jobs, engines: {', '.join(summary['engines'])}): "
            f"{len(summary['findings'])} distinct failure(s), {new} new.")


# A wire-kit target's failure kind, "divergence <class>", and the lines of its
# comparison (<target>_replay --describe) that say what the input was and
# what each side did with it.
DIVERGENCE = "divergence "
INPUT_LINE = re.compile(r"^input: (\S+), (\d+) bytes: (.*)$")
SIDE_LINE = re.compile(r"^(?!input: |rules touched: |divergence )(\S.*?) "
                       r"(accepts|rejects)(:? ?.*)$")
DIVERGENCE_HEADER = ["target", "class", "minimal input", "decoder under test",
                     "libprotobuf"]


def divergence_rows(summary: dict[str, Any]) -> list[list[str]]:
    """One row per divergence class that a wire-kit target found: target,
    class, the minimal input (type, size, hex) and what the decoder under
    test and libprotobuf each did, read from the finding's comparison."""
    rows = []
    for f in summary["findings"]:
        if not f["kind"].startswith(DIVERGENCE):
            continue
        lines = f["description"].splitlines()
        found = [m for m in map(INPUT_LINE.match, lines) if m]
        sides = [m for m in map(SIDE_LINE.match, lines) if m]
        given = (f"{found[0].group(1).split('.')[-1]}, {found[0].group(2)} bytes: "
                 f"`{found[0].group(3)}`" if found else "-")
        said = ["-", "-"]
        for m in sides:
            text = m.group(2) + m.group(3).rstrip()
            if m.group(1).startswith("libprotobuf"):
                said[1] = text
            elif said[0] == "-":
                said[0] = text
        rows.append([f["target"], f["kind"][len(DIVERGENCE):], given] + said)
    return sorted(rows)


def _markdown(summary: dict[str, Any], plots: list[str]) -> str:
    out = [f"# fairwire fuzz campaign {summary['id']}", "", _status_line(summary), "",
           "## Targets", "", markdown_table(summary), ""]
    notes = [f"- {s['target']}/{s['engine']}: {s['note']}" for s in summary["sessions"]
             if s.get("note")]
    if notes:
        out += notes + [""]
    for name in plots:
        out += [f"![{name[:-4]}]({name})", ""]
    out += [PLOT_NOTE, ""]
    classes = divergence_rows(summary)
    if classes:
        out += ["## Divergence classes", "",
                "One row per class that a wire-kit target found; each finding "
                "below has its input annotated record by record.", "",
                "| " + " | ".join(DIVERGENCE_HEADER) + " |",
                "|" + "---|" * len(DIVERGENCE_HEADER)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |"
                for r in classes]
        out.append("")
    out += ["## Findings", ""]
    if not summary["findings"]:
        out.append("None.")
    for f in summary["findings"]:
        out += [f"### {f['target']}: {f['kind']} ({'new' if f['new'] else 'known'})",
                "", f"- signature: `{f['signature']}`",
                f"- found by {f['engine']}, {f['count']} input(s); first saved as "
                f"`{f['inputs'][0]}`",
                f"- minimised: {'yes' if f['minimised'] else 'no'}; shrunk at the "
                f"scenario level: {'yes' if f['shrunk'] else 'no'}; "
                f"{f['final_size']} bytes",
                f"- regression: `{f['regression']}` (fails now: "
                f"{'yes' if f['fails_on_regression'] else 'NO'})",
                f"- detail: {f['detail']}"]
        if f["note"]:
            out.append(f"- note: {f['note']}")
        out += ["", "Scenario:", "", "```", f["description"].rstrip(), "```", "",
                "Reproduce:", "", "```"] + f["repro"] + ["```", ""]
    return "\n".join(out) + "\n"


PLOT_NOTE = ("Edges as each engine counts them (libFuzzer's cov, AFL++'s edges_found): "
             "the two instrumentations differ, so compare growth, not levels. "
             "AFL++ rewrites its statistics about once a minute, hence its steps. "
             "Under libFuzzer's -fork (--jobs 2 and more) the parent reports no "
             "edge count (its cov starts from the seeds' features), so a -fork "
             "session's edges are measured after the run, by replaying the seeds "
             "(the point at 0 s) and the seeds with the campaign corpus (the last "
             "point); its features are the merged corpus's, as of the last job "
             "merged. Runs count every job, running ones included; execs/s over "
             "time is the sum of the running jobs' own rates, the table's execs/s "
             "the session's runs over its time.")

CSS = """body{font-family:sans-serif;margin:24px;max-width:1150px;color:#222}
table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ccc;
padding:4px 8px;text-align:left;font-size:13px}th{background:#f2f2f2}
td.num{text-align:right}pre{background:#f6f6f6;padding:8px;overflow:auto;
font-size:12px}.new{color:#b00;font-weight:bold}.plots{display:flex;
flex-wrap:wrap;gap:12px}.note{color:#555;font-size:13px}"""


def _html(summary: dict[str, Any], plots: dict[str, str]) -> str:
    e = html.escape
    rows = "".join(
        "<tr>" + "".join(f'<td class="num">{e(c)}</td>' if i in NUMERIC
                         else f"<td>{e(c)}</td>" for i, c in enumerate(r)) + "</tr>"
        for r in table_rows(summary))
    head = "".join(f"<th>{e(h)}</th>" for h in HEADER)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>fairwire "
             f"campaign {e(summary['id'])}</title><style>{CSS}</style></head><body>",
             f"<h1>fairwire fuzz campaign {e(summary['id'])}</h1>",
             f"<p>{e(_status_line(summary))}</p>",
             f"<h2>Targets</h2><table><tr>{head}</tr>{rows}</table>",
             "".join(f"<p class='note'>{e(s['target'])}/{e(s['engine'])}: "
                     f"{e(s['note'])}</p>" for s in summary["sessions"]
                     if s.get("note")),
             "<h2>Over time</h2><div class='plots'>",
             "".join(plots.values()), "</div>",
             f"<p class='note'>{e(PLOT_NOTE)}</p>"]
    classes = divergence_rows(summary)
    if classes:
        parts.append("<h2>Divergence classes</h2><table><tr>" +
                     "".join(f"<th>{e(h)}</th>" for h in DIVERGENCE_HEADER) +
                     "</tr>" + "".join("<tr>" + "".join(
                         f"<td>{e(c.replace('`', ''))}</td>" for c in r) + "</tr>"
                         for r in classes) + "</table>")
    parts.append("<h2>Findings</h2>")
    if not summary["findings"]:
        parts.append("<p>None.</p>")
    for f in summary["findings"]:
        cls = "new" if f["new"] else ""
        parts.append(
            f"<h3>{e(f['target'])}: {e(f['kind'])} <span class='{cls}'>"
            f"({'new' if f['new'] else 'known'})</span></h3><ul>"
            f"<li>signature: <code>{e(f['signature'])}</code></li>"
            f"<li>found by {e(f['engine'])}, {f['count']} input(s); first saved as "
            f"<code>{e(f['inputs'][0])}</code></li>"
            f"<li>minimised: {'yes' if f['minimised'] else 'no'}; shrunk: "
            f"{'yes' if f['shrunk'] else 'no'}; {f['final_size']} bytes</li>"
            f"<li>regression: <code>{e(f['regression'])}</code> (fails now: "
            f"{'yes' if f['fails_on_regression'] else 'NO'})</li>"
            f"<li>detail: {e(f['detail'])}</li></ul>"
            f"<p>Scenario:</p><pre>{e(f['description'])}</pre>"
            f"<p>Reproduce:</p><pre>{e(chr(10).join(f['repro']))}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
