#!/usr/bin/env python3
"""Checks the structure rules of lib/ (issue 32): no file over 800 lines, no function over 150,
and no process state (signal handlers, abort, thread_local, mutexes) in the library.

Usage: check_structure.py [ROOT] [--list]   (exit 1 and one line per breach when one is found;
--list prints the longest functions whatever their length)."""
import pathlib
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 150
FORBIDDEN = [
    (re.compile(r"\bsigaction\b"), "sigaction"),
    (re.compile(r"(?<![\w.])(std::)?signal\s*\("), "signal("),
    (re.compile(r"(?<![\w.])(std::)?abort\s*\("), "abort("),
    (re.compile(r"\bthread_local\b"), "thread_local"),
    (re.compile(r"\bstd::(recursive_|shared_|timed_)?mutex\b"), "std::mutex"),
]
SCOPE_OPENERS = re.compile(r"\b(namespace|struct|class|union|enum)\b[^;()]*$")


def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(code):
    """(name line, first line, line count) of every function body at namespace or class scope."""
    lines = code.split("\n")
    stack = []  # (kind, start line) per open brace: 'scope', 'function' or 'block'
    found = []
    header = ""
    for number, line in enumerate(lines, 1):
        for k, c in enumerate(line):
            if c == "{":
                inside_function = any(kind == "function" for kind, _ in stack)
                prefix = (header + " " + line[:k]).strip()
                if inside_function:
                    kind = "block"
                elif SCOPE_OPENERS.search(prefix.split(";")[-1]) or prefix.endswith("="):
                    kind = "scope"
                elif re.search(r"\)[^;{}]*$", prefix.split(";")[-1]):
                    kind = "function"
                else:
                    kind = "scope"
                stack.append((kind, number))
                header = ""
            elif c == "}":
                if stack:
                    kind, start = stack.pop()
                    if kind == "function":
                        found.append((start, number - start + 1))
                header = ""
            elif c == ";":
                header = ""
        header += " " + line if not line.rstrip().endswith(("{", "}", ";")) else ""
    return found


def main(argv):
    root = pathlib.Path(argv[1]) if len(argv) > 1 and not argv[1].startswith("-") else pathlib.Path(
        __file__).resolve().parents[2]
    listing = "--list" in argv
    breaches, lengths = [], []
    for path in sorted((root / "lib").rglob("*")):
        if path.suffix not in (".cpp", ".h"):
            continue
        rel = path.relative_to(root)
        text = path.read_text()
        count = text.count("\n")
        if count > MAX_FILE_LINES:
            breaches.append(f"{rel}: {count} lines (at most {MAX_FILE_LINES})")
        code = strip_code(text)
        for start, length in functions(code):
            lengths.append((length, f"{rel}:{start}"))
            if length > MAX_FUNCTION_LINES:
                breaches.append(f"{rel}:{start}: a function of {length} lines "
                                f"(at most {MAX_FUNCTION_LINES})")
        for number, line in enumerate(code.split("\n"), 1):
            for pattern, name in FORBIDDEN:
                if pattern.search(line):
                    breaches.append(f"{rel}:{number}: {name} in the library (process state "
                                    "belongs to the CLI)")
    if listing:
        for length, where in sorted(lengths, reverse=True)[:20]:
            print(f"{length:5} {where}")
    for breach in breaches:
        print(breach)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
