#!/usr/bin/env python3
"""Counts the mutable stored properties (`var`, not static, not computed) of each type declared
in Swift files (issue #26: no type in the app module has more than 15).

    scripts/mutable-properties.py [--max N] [DIR_OR_FILE ...]   (default: Sources/SelfieCaptureApp)

Prints `COUNT TYPE FILE:LINE` per type with at least one, most first; with --max N it exits 1
when a type has more than N. Reads the source text only: comments and string literals are
blanked first, braces nest the types, and a `var` directly in a type's body counts unless a
`{` follows it without an `=` before (a computed property; `didSet`/`willSet` observers still
count as stored).
"""
import os
import re
import sys

TYPE_RE = re.compile(r'\b(class|struct|enum|actor)\s+([A-Za-z_][A-Za-z0-9_]*)')
VAR_RE = re.compile(r'^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|fileprivate|open|package)'
                    r'(?:\(set\))?\s+|final\s+|lazy\s+|weak\s+|unowned(?:\([a-z]+\))?\s+|nonisolated(?:\(unsafe\))?\s+)*var\s+([A-Za-z_][A-Za-z0-9_]*)')


def blank(text):
    """Comments and string literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append('""' + re.sub(r'[^\n]', ' ', text[i + 2:j - 2]) + '""'); i = j
        elif c == '"':
            j, depth = i + 1, 0
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '(':
                    depth += 1; j += 2; continue
                if text[j] == '\\':
                    j += 2; continue
                if depth and text[j] == ')':
                    depth -= 1
                elif not depth and text[j] == '"':
                    break
                j += 1
            out.append('"' + ' ' * (j - i - 1) + '"'); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)


def count(path):
    text = blank(open(path, encoding='utf-8').read())
    results = []           # [name, line, count]
    stack = []             # (depth of the type's body, index in results) or None for other braces
    depth = 0
    pending = None         # a type declaration waiting for its `{`
    for lineno, line in enumerate(text.split('\n'), 1):
        m = TYPE_RE.search(line)
        if m and not re.search(r'\b(case|func|let|var)\b[^=]*\b' + m.group(1), line[:m.start()] + m.group(1)):
            pending = (m.group(2), lineno)
        body = stack[-1] if stack and stack[-1] is not None and stack[-1][0] == depth else None
        v = VAR_RE.match(line)
        if v and body is not None and not re.search(r'\b(static|class)\s+(?:[a-z]+\s+)*var\b', line):
            rest = line[v.end():]
            brace = rest.find('{')
            computed = brace >= 0 and '=' not in rest[:brace] and not re.search(r'\b(didSet|willSet)\b', rest[brace:])
            if not computed:
                results[body[1]][2] += 1
        for c in line:
            if c == '{':
                depth += 1
                if pending:
                    results.append([pending[0], pending[1], 0])
                    stack.append((depth, len(results) - 1))
                    pending = None
                else:
                    stack.append(None)
            elif c == '}':
                if stack:
                    stack.pop()
                depth -= 1
    return [(n, path, l, k) for n, l, k in results]


def main(argv):
    limit = None
    if len(argv) >= 2 and argv[0] == '--max':
        limit = int(argv[1]); argv = argv[2:]
    roots = argv or ['Sources/SelfieCaptureApp']
    files = []
    for r in roots:
        if os.path.isdir(r):
            files += [os.path.join(d, f) for d, _, fs in os.walk(r) for f in fs if f.endswith('.swift')]
        else:
            files.append(r)
    rows = [row for f in sorted(files) for row in count(f) if row[3] > 0]
    rows.sort(key=lambda r: (-r[3], r[0]))
    for name, path, line, k in rows:
        print(f'{k:3d} {name} {path}:{line}')
    over = [r for r in rows if limit is not None and r[3] > limit]
    if over:
        print(f'{len(over)} type(s) over {limit}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
