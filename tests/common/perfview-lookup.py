#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfview-lookup.py TRACE.jsonl [PROCESS] - look the sampled user frames
of a system trace up the way PerfView does, and compare with the trace's
own names.

TRACE.jsonl is `ehdecode -F jsonl -m n,pid,comm,stack` of a nettrace file.
For each frame "module+0xOFF function+0xN" of a "cpu" sample (of PROCESS
only, when given) in a mapping whose ProcessMappingMetadata has a build id
and p_vaddr: PerfView finds the function at
    address - mapping start + (p_vaddr rounded down to the page)
in the ELF file of that build id. Here the file is the mapping's FileName
when its build id is that one (readelf -n) or, when it is not or has no
symbol table, its debug file under /usr/lib/debug/.build-id; its
functions come from nm. Prints the frames looked up and those whose
function differs from the trace's (ProcessSymbol) name; exit status 1 if
any differs, or if no frame could be looked up.
"""
import json
import os
import re
import subprocess
import sys

PAGE = 4096


def functions(path, cache={}):
    """Sorted (start, end, name) of the functions of ELF file @path."""
    if path in cache:
        return cache[path]
    out = subprocess.run(["nm", "-C", "-S", "--defined-only", path],
                         capture_output=True, text=True).stdout
    funcs = []
    for line in out.splitlines():
        m = re.match(r"([0-9a-f]+) ([0-9a-f]+) ([tTwWi]) (.*)$", line)
        if m and int(m.group(2), 16):
            start = int(m.group(1), 16)
            funcs.append((start, start + int(m.group(2), 16), m.group(4)))
    funcs.sort()
    cache[path] = funcs
    return funcs


def file_build_id(path, cache={}):
    """The GNU build id of ELF file @path as readelf -n gives it, or None."""
    if path not in cache:
        out = subprocess.run(["readelf", "-n", path], capture_output=True,
                             text=True).stdout
        m = re.search(r"Build ID: *([0-9a-f]+)", out)
        cache[path] = m.group(1) if m else None
    return cache[path]


def lookup(path, build_id, addr):
    """The names of the functions covering @addr in the file of @build_id:
    @path when it is that file (not another one there now, or in another
    mount namespace), else its debug file."""
    names = set()
    for f in (path, "/usr/lib/debug/.build-id/%s/%s.debug" %
              (build_id[:2], build_id[2:])):
        if os.path.exists(f) and file_build_id(f) == build_id:
            for start, end, name in functions(f):
                if start <= addr < end:
                    names.add(name.split("@")[0])
            if names:
                break
    return names


def main():
    trace = sys.argv[1]
    process = sys.argv[2] if len(sys.argv) > 2 else None
    maps, meta = {}, {}
    samples = []
    with open(trace, encoding="utf-8") as f:
        for line in f:
            ev = json.loads(line)
            n = ev.get("n", "")
            pid = ev.get("meta", {}).get("pid")
            if n == "Universal.System:ProcessMapping":
                maps.setdefault(pid, []).append(ev)
            elif n == "Universal.System:ProcessMappingMetadata":
                meta[ev["Id"]] = json.loads(ev["SymbolMetadata"])
            elif n == "Universal.Events:cpu":
                if process and ev["meta"].get("comm") != process:
                    continue
                samples.append((pid, ev["meta"].get("stack", []), list(maps.get(pid, []))))
    looked = differ = 0
    for pid, stack, pmaps in samples:
        for frame in stack:
            m = re.match(r"(\S+)\+0x([0-9a-f]+) (.+)\+0x[0-9a-f]+$", frame)
            if not m:
                continue
            module, off, ours = m.group(1), int(m.group(2), 16), m.group(3)
            for mp in reversed(pmaps):
                start = int(mp["StartAddress"], 16)
                end = int(mp["EndAddress"], 16)
                foff = int(mp["FileOffset"], 16)
                if (os.path.basename(mp["FileName"]) == module and
                        foff <= off < foff + end - start):
                    break
            else:
                continue
            md = meta.get(mp["MetadataId"])
            if not md or "p_vaddr" not in md or "build_id" not in md:
                continue
            addr = start + off - foff
            rva = addr - start + (int(md["p_vaddr"], 16) & ~(PAGE - 1))
            names = lookup(mp["FileName"], md["build_id"], rva)
            if not names:
                continue
            looked += 1
            if ours not in names:
                differ += 1
                if differ <= 5:
                    print("differs: %s+0x%x: the trace says %s, PerfView "
                          "would find %s" % (module, off, ours,
                                             " or ".join(sorted(names))))
    print("perfview-lookup: %d frames looked up, %d differ" % (looked, differ))
    return 1 if differ or not looked else 0


if __name__ == "__main__":
    sys.exit(main())
