#!/usr/bin/env python3
"""Instruction counts per basic block of the kernels in an nvdisasm listing.

    sass_blocks.py listing.sass [name-substring] [--min N]

For each kernel whose mangled name contains the substring: its blocks (a label starts one), each
with its first address, its instruction count and its commonest opcodes, largest first. A loop's
body is a block (or a few) that stands out by size; multiplying by how often it runs gives the
instructions per step that bench/NOTES.md compares.
"""
import collections
import re
import sys


def kernels(lines):
    name, body = None, []
    for line in lines:
        head = re.match(r'^//-+ \.text\.(\S+)', line)
        if head:
            if name:
                yield name, body
            name, body = head.group(1), []
        elif name:
            body.append(line)
    if name:
        yield name, body


def blocks(body):
    label, ins = 'entry', []
    for line in body:
        lab = re.match(r'^\s*(\.L_x_\d+):', line)
        if lab:
            if ins:
                yield label, ins
            label, ins = lab.group(1), []
            continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', line)
        if m:
            text = re.sub(r'^@!?U?P\w+\s+', '', m.group(2))  # drop the predicate
            ins.append((m.group(1), text.split()[0].split('.')[0]))
    if ins:
        yield label, ins


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    args = [a for a in argv[2:] if not a.startswith('--')]
    want = args[0] if args else ''
    least = int(argv[argv.index('--min') + 1]) if '--min' in argv else 20
    with open(argv[1]) as f:
        lines = f.read().splitlines()
    for name, body in kernels(lines):
        if want not in name:
            continue
        found = sorted(blocks(body), key=lambda b: -len(b[1]))
        total = sum(len(ins) for _, ins in found)
        print(f'{name}: {total} instructions')
        for label, ins in found:
            if len(ins) < least:
                break
            ops = collections.Counter(op for _, op in ins).most_common(8)
            print(f'  {label:12s} @{ins[0][0]} {len(ins):5d}  ' +
                  ' '.join(f'{op}:{n}' for op, n in ops))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
