"""The live view of a campaign: one line per target and engine, redrawn in
place on a terminal, printed every few seconds otherwise."""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from .engines import Session


def format_duration(seconds: float) -> str:
    """m:ss."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def figure(value: Optional[float], width: int = 0) -> str:
    """A figure with thousands separators, or '-' when it is not known."""
    text = "-" if value is None else f"{value:,.0f}"
    return text.rjust(width)


def session_line(s: Session, crashes: int, total: int) -> str:
    """One status line: elapsed, runs, execs/s, edges, features, corpus
    size, crashes: the latest figures, '-' for one not known now. While a
    session runs, execs/s is its current rate (libFuzzer's, summed over the
    running -fork jobs); once it is done, its average (runs over time)."""
    last = s.last()
    running = s.running()
    state = "running" if running else ("done" if s.started else "waiting")
    runs = last.execs
    eps = last.execs_per_sec
    if not running and s.started:
        eps = runs / s.elapsed() if runs is not None and s.elapsed() > 0 else None
    return (f"{s.key:<30} {state:<7} {format_duration(s.elapsed())}/"
            f"{format_duration(total)}  runs {figure(runs, 11)}  "
            f"execs/s {figure(eps, 7)}  cov {figure(last.coverage, 6)}  "
            f"ft {figure(last.features, 7)}  corpus {figure(last.corpus, 6)}  "
            f"crashes {crashes}")


class StatusBoard:
    """Draws the status lines of every session of a campaign."""

    def __init__(self, stream: TextIO = sys.stdout, interval: float = 10.0,
                 live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.interval = interval
        self.drawn = 0
        self.last_print = 0.0

    def update(self, lines: list[str], force: bool = False) -> None:
        """Redraws (terminal) or prints the lines when the interval passed."""
        now = time.time()
        if self.live:
            if self.drawn:
                self.stream.write(f"\x1b[{self.drawn}F")
            for line in lines:
                self.stream.write("\x1b[2K" + line + "\n")
            self.drawn = len(lines)
        elif force or now - self.last_print >= self.interval:
            for line in lines:
                self.stream.write(line + "\n")
            self.last_print = now
        self.stream.flush()

    def message(self, text: str) -> None:
        """Prints a line above the live board (it is redrawn below)."""
        if self.live and self.drawn:
            self.stream.write(f"\x1b[{self.drawn}F\x1b[J")
            self.drawn = 0
        self.stream.write(text + "\n")
        self.stream.flush()
