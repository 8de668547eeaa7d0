#!/usr/bin/env python3
"""Instruction counts per basic block of the kernels in an nvdisasm listing.

    sass_blocks.py listing.sass [name-substring] [--min N]

For each kernel whose mangled name contains the substring: its blocks (a label starts one), each
with its first address, its instruction count and its commonest opcodes, largest first. A loop's
body is a block (or a few) that stands out by size; multiplying by how often it runs gives the
instructions per step that bench/NOTES.md compares.
"""
import argparse
import collections
import re
import sys


def sections(lines, head):
    """(name, lines) for each run of lines that starts at a match of `head` (its group 1)."""
    name, body = None, []
    for line in lines:
        m = re.match(head, line)
        if m:
            if name is not None:
                yield name, body
            name, body = m.group(1), []
        elif name is not None:
            body.append(line)
    if name is not None:
        yield name, body


def blocks(body):
    """(label, [(address, opcode)]) per basic block; what precedes the first label is 'entry'."""
    for label, lines in sections(['entry:'] + body, r'^\s*(\.L_x_\d+|entry):'):
        ins = []
        for line in lines:
            m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', line)
            if m:
                text = re.sub(r'^@!?U?P\w+\s+', '', m.group(2))  # drop the predicate
                ins.append((m.group(1), text.split()[0].split('.')[0]))
        if ins:
            yield label, ins


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('listing')
    parser.add_argument('name', nargs='?', default='', help='part of the kernels\' mangled names')
    parser.add_argument('--min', type=int, default=20, help='smallest block listed')
    args = parser.parse_args()
    with open(args.listing) as f:
        lines = f.read().splitlines()
    for name, body in sections(lines, r'^//-+ \.text\.(\S+)'):
        if args.name not in name:
            continue
        found = sorted(blocks(body), key=lambda b: -len(b[1]))
        total = sum(len(ins) for _, ins in found)
        print(f'{name}: {total} instructions')
        for label, ins in found:
            if len(ins) < args.min:
                break
            ops = collections.Counter(op for _, op in ins).most_common(8)
            print(f'  {label:12s} @{ins[0][0]} {len(ins):5d}  ' +
                  ' '.join(f'{op}:{n}' for op, n in ops))
    return 0


if __name__ == '__main__':
    sys.exit(main())
