#!/usr/bin/env python3
"""Run a command; sample /proc/PID/task/*/stat every 2 ms; print per-thread CPU, lifetime, and
a timeline of busy threads per 50 ms bucket."""
import os, subprocess, sys, time
tick = os.sysconf('SC_CLK_TCK')
cmd = sys.argv[1:]
t0 = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
threads = {}  # tid -> dict(first, last, cpu, comm)
samples = []  # (t, {tid: cpu})
while p.poll() is None:
    now = time.monotonic() - t0
    snap = {}
    try:
        for tid in os.listdir(f'/proc/{p.pid}/task'):
            try:
                with open(f'/proc/{p.pid}/task/{tid}/stat') as f:
                    s = f.read()
            except OSError:
                continue
            r = s.rsplit(')', 1)[1].split()
            cpu = (int(r[11]) + int(r[12])) / tick
            comm = s[s.index('(') + 1:s.rindex(')')]
            d = threads.setdefault(int(tid), {'first': now, 'cpu': 0, 'comm': comm})
            d['last'] = now; d['cpu'] = cpu
            snap[int(tid)] = cpu
    except OSError:
        pass
    samples.append((now, snap))
    time.sleep(float(os.environ.get("EVERY","0.01")))
wall = time.monotonic() - t0
ru = os.wait4(p.pid, 0) if False else None
print(f'wall {wall:.3f} s  rc {p.returncode}')
for tid, d in sorted(threads.items()):
    print(f'  tid {tid:>8} {d["comm"]:<16} cpu {d["cpu"]:.2f} s  alive {d["first"]:.2f}-{d.get("last",0):.2f} s')
# timeline: per 100ms bucket, cpu delta per thread
if '--timeline' in os.environ.get('TL', ''):
    pass
bucket = float(os.environ.get('BUCKET', '0.1'))
tids = sorted(threads)
prev = {}
edges = []
t = bucket
line = []
last = {}
out = []
bi = 0
cur = {}
for now, snap in samples:
    while now >= (bi + 1) * bucket:
        out.append((bi * bucket, {k: cur.get(k, last.get(k, 0)) - last.get(k, 0) for k in tids}))
        last = dict(last); last.update(cur)
        bi += 1
    cur.update(snap)
out.append((bi * bucket, {k: cur.get(k, last.get(k, 0)) - last.get(k, 0) for k in tids}))
if os.environ.get('TL'):
    print('  t(s)  ' + ' '.join(f'{str(k)[-5:]:>6}' for k in tids))
    for t, d in out:
        print(f'  {t:5.2f} ' + ' '.join(f'{d[k]:6.2f}' for k in tids))
