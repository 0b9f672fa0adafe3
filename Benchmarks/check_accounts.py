# Benchmarks/compare-accounts.sh: every account's count and exact totals, txfold's jsonl against DuckDB's.
import json, sys
from decimal import Decimal
def txfold(path):
    out = {}
    for line in open(path):
        o = json.loads(line)
        if 'stats' in o: continue
        tot = {}
        for sec in o['sections']:
            for g in sec['groups']:
                for t in g['totals']:
                    k = (sec['state'], g['date'], g['creditDebitIndicator'], t['currency'])
                    tot[k] = Decimal(t['amount'])
        out[o['account']] = (o['count'], tot)
    return out
def duck(path):
    out = {}
    for line in open(path):
        o = json.loads(line, parse_float=Decimal)
        tot = {}
        for g in o['groups']:
            for t in g['totals']:
                tot[(g['state'], g['date'], g['creditDebitIndicator'], t['currency'])] = Decimal(str(t['amount']))
        out[o['account']] = (o['count'], tot)
    return out
a, b = txfold(sys.argv[1]), duck(sys.argv[2])
bad = 0
if list(a) != sorted(a): print("txfold accounts not in order"); bad += 1
if set(a) != set(b): print("account sets differ", len(a), len(b)); bad += 1
for k in a:
    if k in b and (a[k][0] != b[k][0] or {x: v.normalize() for x, v in a[k][1].items()} != {x: v.normalize() for x, v in b[k][1].items()}):
        bad += 1
        if bad < 5: print("differs", k, a[k][0], b[k][0])
print("accounts", len(a), "mismatches", bad)
sys.exit(1 if bad else 0)
