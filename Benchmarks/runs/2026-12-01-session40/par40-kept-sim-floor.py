import json, re, heapq, collections, sys
# Two workers (alternate 1 MiB chunks), 20 members each; worker w publishes per group the instant
# (seconds) of its 10th most recent member; a record strictly older than min over workers of what
# they published is dropped (each then holds 10 newer ones: 20 in all).
path = sys.argv[1]
rx = re.compile(rb'"creditDebitIndicator":"(\w+)".*"creationTime":"([^"]+)","state":"(\w+)"')
CH = 1 << 20; K = 20; H = K // 2
heaps = [collections.defaultdict(list), collections.defaultdict(list)]
pub = [dict(), dict()]
kept = 0; pos = 0
with open(path, 'rb') as f:
    for line in f:
        m = rx.search(line)
        if m: ind, ts, st = m.groups()
        else:
            d = json.loads(line); ind, ts, st = d['creditDebitIndicator'].encode(), d['creationTime'].encode(), d['state'].encode()
        key = (st, ts[:10], ind); w = (pos // CH) % 2; pos += len(line)
        if key in pub[0] and key in pub[1] and ts[:19] < min(pub[0][key], pub[1][key]): continue
        h = heaps[w][key]
        if len(h) < K: heapq.heappush(h, ts); kept += 1
        elif ts > h[0]: heapq.heapreplace(h, ts); kept += 1
        else: continue
        if len(h) >= H: pub[w][key] = heapq.nlargest(H, h)[-1][:19]
print(f'{path} members {K}: two workers, each publishing its {H}th most recent, a record older than both dropped: kept offers {kept}')
