"""Mutation schemata: one rewritten copy of a source file that holds all of
its mutants at once, each behind a run-time switch (fairwire_mutant.h).

An expression mutant becomes a conditional around the smallest expression
it changes,
    a < b          ->  (FAIRWIRE_MUTANT(7) ? a <= b : a < b)
    if (ready)     ->  if ((FAIRWIRE_MUTANT(9) ? !(ready) : !!(ready)))
and a statement removal a guard,
    f(x);          ->  if (!FAIRWIRE_MUTANT(12)) f(x);
Mutants nest: the operands in both branches carry their own switches, so
with no mutant live the file computes exactly what the original does. One
build serves every mutant; a test run picks one with FAIRWIRE_MUTANT=<id>.
(The technique is Untch, Offutt and Harrold's "mutant schemata", 1993.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .mutation_points import Point

RUNTIME_HEADER = "fairwire_mutant.h"


@dataclass
class _Node:
    start: int
    end: int
    points: list[Point] = field(default_factory=list)
    children: list["_Node"] = field(default_factory=list)


@dataclass
class Rewritten:
    """A file's schemata: its text, for each line of that text the ids of
    the mutants whose switch is on it (to map a compiler error back), and
    the points left out because their span crosses another's."""
    text: bytes
    line_points: dict[int, set[int]]
    left_out: list[Point] = field(default_factory=list)


def _tree(points: list[Point], left_out: list[Point]) -> list[_Node]:
    """Nodes by span, nested by containment (the spans of an AST's
    expressions and statements nest or are disjoint; a span that crosses
    another goes to left_out)."""
    by_span: dict[tuple[int, int], _Node] = {}
    for p in points:
        node = by_span.setdefault((p.start, p.end), _Node(p.start, p.end))
        node.points.append(p)
    roots: list[_Node] = []
    stack: list[_Node] = []
    for node in sorted(by_span.values(), key=lambda n: (n.start, -n.end)):
        while stack and not (node.start >= stack[-1].start
                             and node.end <= stack[-1].end):
            stack.pop()
        if stack and node.start < stack[-1].end and node.end > stack[-1].end:
            left_out.extend(node.points)  # crosses its neighbour
            continue
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


class _Renderer:
    def __init__(self, text: bytes):
        self.text = text
        self.out_lines: dict[int, set[int]] = {}

    def range(self, start: int, end: int, edits, children: list[_Node]) -> str:
        """[start, end) with `edits` applied at this level and each child
        rendered as its own schemata."""
        events = []
        for e in edits:
            events.append((e.start, 0 if e.start == e.end else 1, "edit", e))
        for c in children:
            events.append((c.start, 2, "child", c))
        events.sort(key=lambda x: (x[0], x[1]))
        parts: list[str] = []
        pos = start
        for at, _, what, item in events:
            if at < pos:
                continue  # inside an edit already applied
            parts.append(self.text[pos:at].decode("utf-8", "surrogateescape"))
            if what == "edit":
                parts.append(item.text)
                pos = item.end
            else:
                parts.append(self.node(item))
                pos = item.end
        parts.append(self.text[pos:end].decode("utf-8", "surrogateescape"))
        return "".join(parts)

    def node(self, node: _Node) -> str:
        base = self.range(node.start, node.end, [], node.children)
        expression = [p for p in node.points if not p.statement]
        removal = [p for p in node.points if p.statement]
        negated = any(p.operator == "negate" for p in expression)
        text = f"!!({base})" if negated else base
        for p in reversed(expression):
            variant = self.range(node.start, node.end, p.edits, node.children)
            text = f"(FAIRWIRE_MUTANT({p.id}) ? {variant} : {text})"
        for p in removal:
            text = f"if (!FAIRWIRE_MUTANT({p.id})) {text}"
        return text


def rewrite(text: bytes, points: list[Point], header: str) -> Rewritten:
    """`text` with every mutant of `points` (all in this file) behind its
    switch, and `header` (the runtime's absolute path) included first."""
    renderer = _Renderer(text)
    left_out: list[Point] = []
    roots = _tree(points, left_out)
    body = renderer.range(0, len(text), [], roots)
    prefix = f'#include "{header}"\n'
    out = prefix + body
    # Which mutants each output line carries: the switches' ids on it.
    line_points: dict[int, set[int]] = {}
    for number, line in enumerate(out.split("\n"), start=1):
        ids = _ids_on(line)
        if ids:
            line_points[number] = ids
    return Rewritten(out.encode("utf-8", "surrogateescape"), line_points,
                     left_out)


def _ids_on(line: str) -> set[int]:
    ids: set[int] = set()
    key = "FAIRWIRE_MUTANT("
    at = line.find(key)
    while at >= 0:
        end = line.find(")", at)
        try:
            ids.add(int(line[at + len(key):end]))
        except ValueError:
            pass
        at = line.find(key, at + 1)
    return ids
