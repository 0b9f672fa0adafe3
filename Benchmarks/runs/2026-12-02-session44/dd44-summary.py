#!/usr/bin/env python3
# dd44-summary.py FILE: medians per build, threads, mode (CPU = user+sys), and dedupe/plain CPU ratio per build
import sys, statistics as st, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    f = line.split()
    b, r, t, m = f[0], f[1], f[2], f[3]
    u, s, w, rss, flt = float(f[4]), float(f[5]), float(f[6]), int(f[7]), int(f[8])
    rows[(b, t, m)].append((u + s, u, s, w, rss, flt))
print("build threads mode n | CPU median (min-max) | user | sys | wall median | peak RSS MiB median (max) | minor faults median")
for k in sorted(rows):
    v = rows[k]; c = [x[0] for x in v]
    print(f"{k[0]} {k[1]} {k[2]} {len(v)} | {st.median(c):.2f} ({min(c):.2f}-{max(c):.2f}) | {st.median([x[1] for x in v]):.2f} | {st.median([x[2] for x in v]):.2f} | {st.median([x[3] for x in v]):.2f} | {st.median([x[4] for x in v])/1024:.0f} ({max(x[4] for x in v)/1024:.0f}) | {st.median([x[5] for x in v]):.0f}")
builds = sorted({k[0] for k in rows}); threads = sorted({k[1] for k in rows})
for b in builds:
    for t in threads:
        if (b, t, 'plain') in rows and (b, t, 'dedupe') in rows:
            p = st.median([x[0] for x in rows[(b, t, 'plain')]]); d = st.median([x[0] for x in rows[(b, t, 'dedupe')]])
            print(f"ratio dedupe/plain CPU {b} {t}: {d/p:.2f} ({d:.2f} / {p:.2f})")
