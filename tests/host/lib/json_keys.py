#!/usr/bin/env python3
"""Compare the structure of two fio JSON outputs: same keys, same nesting, same
types (numbers vs strings vs objects), recursively. Keys that carry data
rather than structure (percentile names, bins, option names) are compared as
sets only where fio's own output fixes them.

usage: json_keys.py OURS.json FIO.json   -> prints "ok - ..." / "not ok - ..." lines
"""
import json
import sys

# Objects whose keys are data: both must be objects, their keys are not compared.
DATA_KEYS = {"job options", "global options", "bins", "iomatrix"}


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"


def compare(ours, theirs, path, problems, extra_ok):
    if kind(ours) != kind(theirs):
        problems.append(f"{path}: ours is {kind(ours)}, fio's is {kind(theirs)}")
        return
    if isinstance(ours, dict):
        if path.split("/")[-1] in DATA_KEYS:
            return
        for k in theirs:
            if k not in ours:
                problems.append(f"{path}/{k}: missing in ours")
        for k in ours:
            if k not in theirs and k not in extra_ok:
                problems.append(f"{path}/{k}: not in fio's")
        for k in theirs:
            if k in ours:
                compare(ours[k], theirs[k], f"{path}/{k}", problems, extra_ok)
    elif isinstance(ours, list):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            compare(a, b, f"{path}[{i}]", problems, extra_ok)


def main():
    ours = json.load(open(sys.argv[1]))
    theirs = json.load(open(sys.argv[2]))
    problems = []
    # Ours adds "iomatrix"; fio 3.33 has a few keys we do not produce or that only
    # appear with options we do not support, listed here so a new one is noticed.
    compare(ours, theirs, "", problems, extra_ok={"iomatrix"})
    if problems:
        for p in problems:
            print(f"# {p}")
        print("not ok - JSON structure matches fio's")
        return 1
    print("ok - JSON structure matches fio's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
