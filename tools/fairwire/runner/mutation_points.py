"""Mutation points of C and C++ sources, found with clang's own parser
(libclang through Debian's python3-clang-14), never with regular expressions.

A point is one small, plausible bug at one place in the source:
  ror       a relational operator flipped at its boundary (< to <=, == to !=)
  lcr       && and || swapped
  negate    the condition of an if, while, for or ?: negated
  constant  an integer literal one more (decimal), or a mask shifted left by
            one bit (hexadecimal)
  remove    an expression statement, break or continue removed
  swap      two adjacent arguments of the same type swapped in a call

Each point says what to rewrite: its span (the smallest expression or
statement the mutant replaces), the edits inside that span which make the
mutant, and whether it is a statement removal. Points are found in every
translation unit of a compile_commands.json that reaches the files asked
for (headers through the units that include them); template code is seen
as written, once. Code that must stay a constant expression (constexpr and
consteval functions, constexpr variables, template arguments, case labels,
static_assert, if constexpr, sizeof, requires) holds no points.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .project import RunnerError

LIBCLANG_CANDIDATES = (
    "/usr/lib/llvm-14/lib/libclang.so.1",
    "/usr/lib/x86_64-linux-gnu/libclang-14.so.1",
    "/usr/lib/aarch64-linux-gnu/libclang-14.so.1",
)
RESOURCE_DIR = "/usr/lib/llvm-14/lib/clang/14.0.6"

OPERATORS = ("ror", "lcr", "negate", "constant", "remove", "swap")

_ROR = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
_LCR = {"&&": "||", "||": "&&"}




def load_cindex():
    """clang.cindex, from Debian's python3-clang-14 even when another Python
    is first on PATH, with libclang 14 loaded."""
    try:
        import clang.cindex as cindex  # noqa: F401
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import clang.cindex as cindex  # noqa: F811
        except ImportError as e:
            raise RunnerError("clang's Python bindings are missing: install "
                              "python3-clang-14 (ci/install-deps does)") from e
    if not cindex.Config.loaded:
        for lib in LIBCLANG_CANDIDATES:
            if os.path.exists(lib):
                cindex.Config.set_library_file(lib)
                break
        else:
            raise RunnerError("libclang 14 not found: install libclang1-14")
    return cindex


@dataclass(frozen=True)
class Edit:
    """Replace bytes [start, end) of the file by text (start == end: insert)."""
    start: int
    end: int
    text: str


@dataclass
class Point:
    """One mutant: where it is, what it changes, and a key that survives
    edits elsewhere in the file (for the list of equivalent mutants)."""
    path: str              # relative to the project root
    line: int
    column: int
    operator: str          # one of OPERATORS
    description: str       # "< -> <=", "negate if", "64 -> 65", ...
    start: int             # the span the mutant replaces: [start, end)
    end: int
    edits: tuple[Edit, ...]
    function: str          # the enclosing function's name
    source_line: str       # the line, stripped
    occurrence: int = 0    # among points with the same key stem
    id: int = -1           # index in the sorted list of every point

    @property
    def statement(self) -> bool:
        return self.operator == "remove"

    @property
    def key(self) -> str:
        """path | function | line text | description | occurrence: stable
        while the line itself and its function are unchanged. One line: a
        description that quotes source across lines (a swapped argument
        written over two) has each run of whitespace as one space."""
        return " | ".join((self.path, self.function, self.source_line,
                           " ".join(self.description.split()),
                           str(self.occurrence)))

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in (
            "id", "path", "line", "column", "operator", "description",
            "start", "end", "function", "source_line", "occurrence")}
        d["edits"] = [[e.start, e.end, e.text] for e in self.edits]
        d["key"] = self.key
        return d

    @staticmethod
    def from_json(d: dict) -> "Point":
        return Point(path=d["path"], line=d["line"], column=d["column"],
                     operator=d["operator"], description=d["description"],
                     start=d["start"], end=d["end"],
                     edits=tuple(Edit(*e) for e in d["edits"]),
                     function=d["function"], source_line=d["source_line"],
                     occurrence=d["occurrence"], id=d["id"])


def compile_arguments(entry: dict) -> list[str]:
    """A compile_commands.json entry's arguments for libclang: the compiler,
    the output and the source file dropped."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    out: list[str] = []
    skip = False
    source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a.startswith("-fdiagnostics-color"):
            continue
        if os.path.normpath(os.path.join(entry["directory"], a)) == source:
            continue
        out.append(a)
    # g++-only flags libclang does not know are harmless (it warns); the
    # resource dir gives it clang's own headers (intrinsics).
    return out + ["-resource-dir", RESOURCE_DIR, "-Wno-unknown-warning-option"]


class _Finder:
    """Walks one translation unit and collects the points in the wanted
    files."""

    def __init__(self, root: Path, wanted: set[str]):
        self.root = root
        self.wanted = wanted           # absolute paths
        self.points: list[Point] = []
        self.texts: dict[str, bytes] = {}

    # -- helpers ---------------------------------------------------------
    def text(self, path: str) -> bytes:
        if path not in self.texts:
            self.texts[path] = Path(path).read_bytes()
        return self.texts[path]

    def span(self, cursor) -> tuple[str, int, int] | None:
        ext = cursor.extent
        if ext.start.file is None or ext.end.file is None:
            return None
        if ext.start.file.name != ext.end.file.name:
            return None
        path = os.path.realpath(ext.start.file.name)
        if path not in self.wanted:
            return None
        return path, ext.start.offset, ext.end.offset

    def line_of(self, path: str, offset: int) -> tuple[int, int, str]:
        data = self.text(path)
        line = data.count(b"\n", 0, offset) + 1
        begin = data.rfind(b"\n", 0, offset) + 1
        end = data.find(b"\n", offset)
        end = len(data) if end < 0 else end
        return line, offset - begin + 1, data[begin:end].decode(
            "utf-8", "replace").strip()

    def add(self, path: str, start: int, end: int, operator: str,
            description: str, edits: list[Edit], function: str) -> None:
        line, column, source_line = self.line_of(path, start)
        self.points.append(Point(
            path=os.path.relpath(path, self.root), line=line, column=column,
            operator=operator, description=description, start=start, end=end,
            edits=tuple(edits), function=function, source_line=source_line))

    # -- the walk ----------------------------------------------------------
    _FUNCTIONS = ("FUNCTION_DECL", "CXX_METHOD", "FUNCTION_TEMPLATE",
                  "CONSTRUCTOR", "DESTRUCTOR", "LAMBDA_EXPR",
                  "CONVERSION_FUNCTION")
    # Subtrees that must stay constant expressions, or are not evaluated.
    _CONSTANT_KINDS = ("CASE_STMT", "STATIC_ASSERT", "CXX_UNARY_EXPR",
                       "TEMPLATE_NON_TYPE_PARAMETER", "ENUM_DECL",
                       "FIELD_DECL", "PARM_DECL", "TYPE_ALIAS_DECL",
                       "TYPEDEF_DECL", "TEMPLATE_REF", "TYPE_REF")

    def run(self, tu) -> None:
        for child in tu.cursor.get_children():
            loc = child.location
            if loc.file is None:
                continue
            if os.path.realpath(loc.file.name) not in self.wanted:
                continue
            self.visit(child, function=None, constant=False, parents=())

    @staticmethod
    def declaration_words(cursor) -> list[str]:
        """The tokens of a declaration before its body, initializer or end
        (where constexpr, consteval, = default and = delete are said)."""
        words = []
        for tok in cursor.get_tokens():
            if tok.spelling in ("{", ";"):
                break
            words.append(tok.spelling)
        return words

    def constexpr_variable(self, cursor) -> bool:
        words = self.declaration_words(cursor)
        if "=" in words:
            words = words[:words.index("=")]
        return "constexpr" in words or "constinit" in words

    def visit(self, cursor, function: str | None, constant: bool,
              parents: tuple[str, ...]) -> None:
        kind = cursor.kind.name
        if kind in self._FUNCTIONS:
            words = self.declaration_words(cursor)
            if "default" in words or "delete" in words:
                return  # its body is implicit: no source to mutate
            if "constexpr" in words or "consteval" in words:
                constant = True
            name = cursor.spelling if kind != "LAMBDA_EXPR" else (
                (function or "") + "::lambda")
            function = name or function
        elif kind == "VAR_DECL" and self.constexpr_variable(cursor):
            constant = True
        elif kind in self._CONSTANT_KINDS:
            constant = True
        elif kind == "UNEXPOSED_EXPR":
            first = next(iter(cursor.get_tokens()), None)
            if first is not None and first.spelling in (
                    "requires", "decltype", "noexcept", "sizeof", "alignof"):
                constant = True
        if function is not None and not constant:
            self.visit_points(cursor, function, parents)
        inner = parents + (kind,)
        # The condition of an if constexpr (its first child) is a constant;
        # its branches are code. So are template arguments written in an
        # expression (`Take<L + 1>(x)`, `s.template f<2 * N>()`).
        constant_condition = kind == "IF_STMT" and self.if_constexpr(cursor)
        children = list(cursor.get_children())
        arguments = [] if constant else self.template_argument_spans(
            cursor, children)
        for i, child in enumerate(children):
            start = child.extent.start.offset
            in_arguments = any(a < start < b for a, b in arguments)
            self.visit(child, function,
                       constant or in_arguments or
                       (constant_condition and i == 0), inner)

    # Names whose explicit template arguments may follow in an expression:
    # the expression's own name, or a child naming the template.
    _NAMES = ("DECL_REF_EXPR", "MEMBER_REF_EXPR")
    _TEMPLATE_NAMES = ("TEMPLATE_REF", "OVERLOADED_DECL_REF")

    @staticmethod
    def angle_span(tokens, i: int):
        """(start, end) offsets of the template argument list that
        tokens[i] opens if it is a `<`: to its matching `>` (angle brackets
        inside parentheses, brackets or braces are operators), else None."""
        if i >= len(tokens) or tokens[i].spelling != "<":
            return None
        angles = nesting = 0
        for tok in tokens[i:]:
            s = tok.spelling
            if s in ("(", "[", "{"):
                nesting += 1
            elif s in (")", "]", "}"):
                nesting -= 1
            elif nesting == 0 and s == "<":
                angles += 1
            elif nesting == 0 and s in (">", ">>"):
                angles -= len(s)
                if angles <= 0:
                    return tokens[i].extent.start.offset, tok.extent.end.offset
        return None

    def template_argument_spans(self, cursor,
                                children: list) -> list[tuple[int, int]]:
        """The template argument lists written in `cursor` itself: after the
        name of a DECL_REF_EXPR or MEMBER_REF_EXPR, or after a child naming a
        template (`std::make_index_sequence<3>()`), among `children` (the
        cursor's, listed once by the caller). Their children are constant
        expressions."""
        kind = cursor.kind.name
        ends = [c.extent.end.offset for c in children
                if c.kind.name in self._TEMPLATE_NAMES]
        if kind not in self._NAMES and not ends:
            return []
        tokens = list(cursor.get_tokens())
        if kind in self._NAMES:
            # The name itself, after a member's object: the last token
            # spelled as the name before a `<`, or (a dependent member,
            # unnamed here) the first `<`.
            after = cursor.extent.start.offset
            if (kind == "MEMBER_REF_EXPR" and children
                    and children[0].extent.start.offset == after):
                after = children[0].extent.end.offset
            names = [k for k in range(1, len(tokens))
                     if tokens[k].spelling == "<"
                     and tokens[k].extent.start.offset >= after
                     and (not cursor.spelling
                          or tokens[k - 1].spelling == cursor.spelling)]
            if names:
                k = names[0] if not cursor.spelling else names[-1]
                ends.append(tokens[k - 1].extent.end.offset)
        spans = []
        for end in ends:
            i = next((k for k, t in enumerate(tokens)
                      if t.extent.start.offset >= end), None)
            span = self.angle_span(tokens, i) if i is not None else None
            if span is not None:
                spans.append(span)
        return spans

    @staticmethod
    def if_constexpr(cursor) -> bool:
        return [t.spelling for t in itertools.islice(
            cursor.get_tokens(), 2)] == ["if", "constexpr"]

    # -- the operators -----------------------------------------------------
    def visit_points(self, cursor, function: str,
                     parents: tuple[str, ...]) -> None:
        kind = cursor.kind.name
        if kind == "BINARY_OPERATOR":
            self.binary(cursor, function)
        elif kind in ("IF_STMT", "WHILE_STMT", "DO_STMT", "FOR_STMT",
                      "CONDITIONAL_OPERATOR"):
            self.condition(cursor, function)
        elif kind == "INTEGER_LITERAL" and self.runtime_operand(parents):
            self.constant(cursor, function)
        elif kind == "COMPOUND_STMT":
            self.removals(cursor, function)
        elif kind == "CALL_EXPR":
            self.swap(cursor, function)

    def operator_token(self, cursor):
        """The operator token of a binary operator: the first token after its
        left operand."""
        children = list(cursor.get_children())
        if len(children) != 2:
            return None
        lhs_end = children[0].extent.end.offset
        for tok in cursor.get_tokens():
            if tok.extent.start.offset >= lhs_end:
                return tok
        return None

    def binary(self, cursor, function: str) -> None:
        where = self.span(cursor)
        tok = self.operator_token(cursor)
        if where is None or tok is None:
            return
        path, start, end = where
        op = tok.spelling
        table = _ROR if op in _ROR else _LCR if op in _LCR else None
        if table is None:
            return
        new = table[op]
        t0, t1 = tok.extent.start.offset, tok.extent.end.offset
        self.add(path, start, end, "ror" if table is _ROR else "lcr",
                 f"{op} -> {new}", [Edit(t0, t1, new)], function)

    def condition(self, stmt, function: str) -> None:
        kind = stmt.kind.name
        if kind == "IF_STMT" and self.if_constexpr(stmt):
            return
        cond = self.condition_of(stmt)
        if cond is None:
            return
        where = self.span(cond)
        if where is None:
            return
        path, start, end = where
        label = {"IF_STMT": "if", "WHILE_STMT": "while", "DO_STMT": "do-while",
                 "FOR_STMT": "for", "CONDITIONAL_OPERATOR": "?:"}[kind]
        self.add(path, start, end, "negate", f"negate {label} condition",
                 [Edit(start, start, "!("), Edit(end, end, ")")], function)

    def condition_of(self, stmt):
        """The condition expression of an if/while/do/for/?: (None when it
        declares a variable, or a for has none)."""
        children = list(stmt.get_children())
        kind = stmt.kind.name
        if not children:
            return None
        if kind in ("IF_STMT", "WHILE_STMT", "CONDITIONAL_OPERATOR"):
            cond = children[0]
        elif kind == "DO_STMT":
            cond = children[-1]
        else:  # FOR_STMT: (init; cond; inc) body, any part may be absent
            toks = list(stmt.get_tokens())
            semis = [t.extent.start.offset for t in toks if t.spelling == ";"]
            if len(semis) < 2:
                return None
            cond = None
            for c in children:
                if semis[0] < c.extent.start.offset < semis[1]:
                    cond = c
            if cond is None:
                return None
        if cond.kind.name in ("VAR_DECL", "DECL_STMT"):
            return None
        return cond

    def constant(self, cursor, function: str) -> None:
        where = self.span(cursor)
        if where is None:
            return
        path, start, end = where
        literal = self.text(path)[start:end].decode("ascii", "replace")
        body = literal.rstrip("uUlL")
        suffix = literal[len(body):]
        digits = body.replace("'", "")
        try:
            if digits.lower().startswith("0x"):
                value = int(digits, 16)
                new_value = (value << 1) & 0xFFFF_FFFF_FFFF_FFFF
                if new_value == value:
                    return
                new = hex(new_value) + suffix
                description = f"{literal} -> {new} (mask << 1)"
            elif digits.lower().startswith("0b") or (
                    len(digits) > 1 and digits.startswith("0")):
                return  # binary and octal literals: rare, left alone
            else:
                value = int(digits, 10)
                new = str(value + 1) + suffix
                description = f"{literal} -> {new}"
        except ValueError:
            return
        self.add(path, start, end, "constant", description,
                 [Edit(start, end, new)], function)

    # Where a literal is an operand evaluated at run time (a template
    # argument's parent is a reference; a braced initializer would narrow).
    _OPERAND_PARENTS = ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR",
                        "ARRAY_SUBSCRIPT_EXPR", "RETURN_STMT", "VAR_DECL",
                        "CALL_EXPR", "CONDITIONAL_OPERATOR", "UNARY_OPERATOR",
                        "CSTYLE_CAST_EXPR", "CXX_STATIC_CAST_EXPR")

    def runtime_operand(self, parents: tuple[str, ...]) -> bool:
        for kind in reversed(parents):
            if kind in ("UNEXPOSED_EXPR", "PAREN_EXPR"):
                continue
            return kind in self._OPERAND_PARENTS
        return False

    def removals(self, block, function: str) -> None:
        for stmt in block.get_children():
            kind = stmt.kind.name
            removable = kind in ("BREAK_STMT", "CONTINUE_STMT") or (
                kind in ("CALL_EXPR", "COMPOUND_ASSIGNMENT_OPERATOR",
                         "UNARY_OPERATOR", "BINARY_OPERATOR")
                and self.has_effect(stmt))
            if not removable:
                continue
            where = self.span(stmt)
            if where is None:
                continue
            path, start, end = where
            data = self.text(path)
            after = data[end:end + 200].lstrip()
            if not after.startswith(b";") or start == end:
                continue  # not a statement of the source as written
            what = data[start:end].decode("utf-8", "replace")
            what = " ".join(what.split())
            if len(what) > 40:
                what = what[:37] + "..."
            self.add(path, start, end, "remove", f"remove `{what}`",
                     [], function)

    def has_effect(self, stmt) -> bool:
        """Calls, assignments, ++ and --: statements whose removal changes
        something (a bare comparison statement would not)."""
        kind = stmt.kind.name
        if kind in ("CALL_EXPR", "COMPOUND_ASSIGNMENT_OPERATOR"):
            return True
        if kind == "UNARY_OPERATOR":
            toks = [t.spelling for t in stmt.get_tokens()]
            return "++" in toks or "--" in toks
        op = self.operator_token(stmt)
        return op is not None and op.spelling == "="

    def swap(self, call, function: str) -> None:
        args = list(call.get_arguments())
        if len(args) < 2:
            return
        simple = ("DECL_REF_EXPR", "MEMBER_REF_EXPR", "INTEGER_LITERAL",
                  "UNEXPOSED_EXPR")
        for i in range(len(args) - 1):
            a, b = args[i], args[i + 1]
            if a.type.spelling != b.type.spelling or not a.type.spelling:
                continue
            if a.type.kind.name in ("DEPENDENT", "INVALID", "UNEXPOSED"):
                continue
            if a.kind.name not in simple or b.kind.name not in simple:
                continue
            wa, wb, wc = self.span(a), self.span(b), self.span(call)
            if wa is None or wb is None or wc is None:
                continue
            path = wc[0]
            data = self.text(path)
            ta = data[wa[1]:wa[2]].decode("utf-8", "replace")
            tb = data[wb[1]:wb[2]].decode("utf-8", "replace")
            if ta == tb or self.has_points(a) or self.has_points(b):
                continue
            self.add(path, wc[1], wc[2], "swap",
                     f"swap arguments {i + 1} and {i + 2} ({ta}, {tb})",
                     [Edit(wa[1], wa[2], tb), Edit(wb[1], wb[2], ta)],
                     function)
            return  # one swap per call

    def has_points(self, cursor) -> bool:
        """Whether the operators would find a point inside cursor (a swapped
        argument must be plain text)."""
        for c in cursor.walk_preorder():
            if c.kind.name in ("BINARY_OPERATOR", "INTEGER_LITERAL",
                               "CALL_EXPR", "CONDITIONAL_OPERATOR"):
                return True
        return False


def _dedupe_and_number(points: list[Point]) -> list[Point]:
    seen: dict[tuple, Point] = {}
    for p in points:
        seen.setdefault((p.path, p.start, p.end, p.operator, p.description,
                         p.edits), p)
    out = sorted(seen.values(), key=lambda p: (p.path, p.start, -p.end,
                                               p.operator, p.description))
    stems: dict[str, int] = {}
    for i, p in enumerate(out):
        stem = " | ".join((p.path, p.function, p.source_line, p.description))
        p.occurrence = stems.get(stem, 0)
        stems[stem] = p.occurrence + 1
        p.id = i
    return out


def find_points(root: Path, compile_commands: Path, files: list[Path],
                operators: tuple[str, ...] = OPERATORS,
                log=lambda msg: None) -> list[Point]:
    """Every point in `files` (absolute), found through the translation
    units of `compile_commands` that reach them: a source file's own unit,
    and for each header the first units that include it."""
    cindex = load_cindex()
    entries = json.loads(compile_commands.read_text())
    wanted = {os.path.realpath(f) for f in files}
    by_file: dict[str, dict] = {}
    for e in entries:
        src = os.path.realpath(os.path.join(e["directory"], e["file"]))
        by_file.setdefault(src, e)
    index = cindex.Index.create()
    finder = _Finder(root, wanted)
    covered: set[str] = set()
    # Units of the wanted sources first, then the others (tests, mostly),
    # until every wanted header has been seen.
    order = [s for s in by_file if s in wanted]
    order += sorted(s for s in by_file if s not in wanted)
    for src in order:
        if wanted <= covered:
            break
        tu = index.parse(src, args=compile_arguments(by_file[src]))
        reached = {os.path.realpath(i.include.name) for i in tu.get_includes()}
        reached.add(src)
        new = (reached & wanted) - covered
        if not new:
            continue
        log(f"mutate: parsing {os.path.relpath(src, root)} "
            f"({len(new)} new file(s) in scope)")
        finder.wanted = new
        finder.run(tu)
        covered |= new
    missing = wanted - covered
    if missing:
        names = ", ".join(sorted(os.path.relpath(m, root) for m in missing))
        raise RunnerError(f"no translation unit in {compile_commands} "
                          f"reaches: {names}")
    points = [p for p in finder.points if p.operator in operators]
    return _dedupe_and_number(points)


def points_digest(points: list[Point]) -> str:
    """A short hash of the point list (a run's identity)."""
    h = hashlib.sha256()
    for p in points:
        h.update(p.key.encode())
    return h.hexdigest()[:12]
