import json, re, heapq, collections, sys
# Kept offers (records that enter a worker's members) with two workers on alternate 1 MiB chunks,
# 20 members each: no floors; floors published per kept record (the session-40 prototype); floors
# published at chunk ends (what is built). Rule: each worker publishes the seconds of its 10th most
# recent member; a record whose seconds are strictly below both workers' is not offered.
path = sys.argv[1]; K = int(sys.argv[2]) if len(sys.argv) > 2 else 20; H = (K + 1) // 2
rx = re.compile(rb'"creditDebitIndicator":"(\w+)".*"creationTime":"([^"]+)","state":"(\w+)"')
CH = 1 << 20
def run(mode):
    heaps = [collections.defaultdict(list), collections.defaultdict(list)]
    pub = [dict(), dict()]; touched = [set(), set()]
    kept = 0; pos = 0; chunk = 0
    with open(path, 'rb') as f:
        for line in f:
            m = rx.search(line)
            if m: ind, ts, st = m.groups()
            else:
                d = json.loads(line); ind, ts, st = d['creditDebitIndicator'].encode(), d['creationTime'].encode(), d['state'].encode()
            key = (st, ts[:10], ind)
            c = pos // CH
            if c != chunk:
                w0 = chunk % 2
                if mode == 'chunk':
                    for k in touched[w0]:
                        h = heaps[w0][k]
                        if len(h) >= H: pub[w0][k] = heapq.nlargest(H, h)[-1][:19]
                    touched[w0].clear()
                chunk = c
            w = c % 2; pos += len(line)
            s = ts[:19]
            if mode != 'none' and key in pub[0] and key in pub[1] and s < min(pub[0][key], pub[1][key]): continue
            h = heaps[w][key]
            if len(h) < K: heapq.heappush(h, ts); kept += 1
            elif ts > h[0]: heapq.heapreplace(h, ts); kept += 1
            else: continue
            touched[w].add(key)
            if mode == 'record' and len(h) >= H: pub[w][key] = heapq.nlargest(H, h)[-1][:19]
    return kept
for mode in ('none', 'record', 'chunk'):
    print(f'{path} members {K}: kept offers, two workers, floors {mode}: {run(mode)}', flush=True)
