#!/usr/bin/env python3
"""evcheck.py — checks recorded events against what a test program says
it did (tests/programs/mpi_calls.c, pvm_calls.c).

    evcheck.py EVENTS EXPECT...

EVENTS is ev_sink's output (tests/wrappers/ev_sink.c): "ev c=C ... kind=K
op=O peer=P tag=T bytes=B ... comm=M ref=R ..." lines.  EXPECT holds the
program's lines

    X r=RANK kind=K op=O peer=P tag=T bytes=B comm=LABEL

(other lines are ignored).  A connection's rank is the peer of its
prog_start (an MPI rank, or a PVM task named by the program with
"N r=NAME tid=TID").  For every rank the X lines must be found in its
events in that order (each after the one matched before); "*" matches
anything.  LABEL names a communicator (MPI) or context (PVM): "world" is
0, a label is the same comm value on every rank, two labels are two
values; "*" is not checked.  Also: every END of a request (a receive or
collective completed by a wait, ref != 0) closes a START of the same op
and ref posted before it in its process.

Prints one line per failure and a summary; exit 0 when all hold, 1 when
any fails, 2 on bad input.
"""
import re
import sys

REQ_OPS = {"MPI_Irecv", "MPI_Recv_init"}
NB_COLL = re.compile(r"^MPI_I(barrier|bcast|gather|scatter|allgather|alltoall"
                     r"|reduce|allreduce|scan|exscan|neighbor)|^MPI_Comm_idup$")
FIELD = re.compile(r"(\w+)=(\S*)")


def fields(line):
    return dict(FIELD.findall(line))


def load_events(path):
    """Events per connection, and each connection's rank (its prog_start
    peer)."""
    evs, rank = {}, {}
    with open(path) as f:
        for line in f:
            if not line.startswith("ev "):
                continue
            d = fields(line)
            c = d["c"]
            evs.setdefault(c, []).append(d)
            if d["kind"] == "prog_start":
                rank[c] = d["peer"]
    return evs, rank


def load_expect(path):
    """X lines per rank, in order; PVM names (N lines) to tids."""
    want, names = {}, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.search(r"\b(X r=.*)$", line)
            if m:
                d = fields(m.group(1))
                want.setdefault(d["r"], []).append(d)
                continue
            m = re.search(r"\bN r=(\S+) tid=(\S+)", line)
            if m:
                names[m.group(1)] = m.group(2)
    return want, names


def value_ok(want, got):
    return want == "*" or want == got


def find(events, start, x, labels, fails, rank):
    """Index of the first event from start that x describes, else -1."""
    for i in range(start, len(events)):
        e = events[i]
        if e["kind"] != x["kind"] or e["op"] != x["op"]:
            continue
        if not all(value_ok(x[k], e[k]) for k in ("peer", "tag", "bytes")):
            continue
        lab = x["comm"]
        if lab != "*":
            if lab == "world" and e["comm"] != "0":
                continue
            if lab in labels and labels[lab] != e["comm"]:
                continue
            labels.setdefault(lab, e["comm"])
        return i
    return -1


def check_refs(c, events, fails):
    """Every request END closes an earlier START of its op and ref."""
    posted = set()
    for e in events:
        key = (e["op"], e["ref"])
        if e["kind"] in ("recv_start", "group_start") and e["ref"] != "0":
            posted.add((e["kind"], key))
        if e["ref"] == "0" or e["kind"] not in ("recv_end", "group_end"):
            continue
        if e["kind"] == "group_end" and not NB_COLL.match(e["op"]):
            continue  # a creation's END names the new communicator
        if e["kind"] == "recv_end" and e["op"] not in REQ_OPS:
            continue
        start = "recv_start" if e["kind"] == "recv_end" else "group_start"
        if (start, key) not in posted:
            fails.append("connection %s: %s %s ref %s closes no START"
                         % (c, e["kind"], e["op"], e["ref"]))


def main(argv):
    if len(argv) < 3:
        print("usage: evcheck.py EVENTS EXPECT...", file=sys.stderr)
        return 2
    evs, rank = load_events(argv[1])
    want, names = {}, {}
    for path in argv[2:]:
        w, nm = load_expect(path)
        for r, xs in w.items():
            want.setdefault(r, []).extend(xs)
        names.update(nm)
    by_rank = {}
    for c, r in rank.items():
        by_rank[r] = c
    for name, tid in names.items():
        if tid in by_rank:
            by_rank[name] = by_rank[tid]
    labels, fails, n = {}, [], 0
    for r, xs in sorted(want.items()):
        if r not in by_rank:
            fails.append("rank %s: no events (no prog_start)" % r)
            continue
        events, at = evs[by_rank[r]], 0
        for x in xs:
            n += 1
            i = find(events, at, x, labels, fails, r)
            if i < 0:
                fails.append("rank %s: not found after event %d: %s"
                             % (r, at, " ".join("%s=%s" % kv
                                                for kv in x.items())))
                continue
            at = i + 1
    for c, events in sorted(evs.items()):
        check_refs(c, events, fails)
    seen = {}
    for lab, comm in labels.items():
        if comm in seen and lab != seen[comm]:
            fails.append("labels %s and %s have the same comm %s"
                         % (seen[comm], lab, comm))
        seen[comm] = lab
    for f in fails:
        print("FAIL", f)
    print("%d expectations on %d ranks, %d communicators, %d failures"
          % (n, len(want), len(labels), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
