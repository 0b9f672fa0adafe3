import json, re, heapq, collections, sys
path = sys.argv[1]; K = int(sys.argv[2])
rx = re.compile(rb'"creditDebitIndicator":"(\w+)".*"creationTime":"([^"]+)","state":"(\w+)"')
CH = 1 << 20
# chunk k goes to worker k % 2 (alternating, as a roughly even crew would)
heaps1 = collections.defaultdict(list); heaps2 = [collections.defaultdict(list), collections.defaultdict(list)]
k1 = k2 = 0
pos = 0; n = 0
with open(path, 'rb') as f:
    for line in f:
        m = rx.search(line)
        if m: ind, ts, st = m.groups()
        else:
            d = json.loads(line); ind, ts, st = d['creditDebitIndicator'].encode(), d['creationTime'].encode(), d['state'].encode()
        key = (st, ts[:10], ind)
        chunk = pos // CH; pos += len(line)
        for h, counter in ((heaps1[key], 1), (heaps2[chunk % 2][key], 2)):
            if len(h) < K: heapq.heappush(h, ts); kept = True
            elif ts > h[0]: heapq.heapreplace(h, ts); kept = True
            else: kept = False
            if kept:
                if counter == 1: k1 += 1
                else: k2 += 1
        n += 1
print(f'{path} members {K}: records {n}, groups {len(heaps1)}, kept offers one worker {k1}, two workers {k2} (+{k2-k1})')
