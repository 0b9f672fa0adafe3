import sys, collections, glob, re
sys.path.insert(0,'/tmp/dd37')
def selfcost(path):
    cost=collections.Counter(); fn=None; skip=False
    for line in open(path, errors='replace'):
        line=line.rstrip('\n')
        if line.startswith('fn='): fn=line[3:]; continue
        if line.startswith('calls='): skip=True; continue
        if line and (line[0].isdigit() or line[0] in '+-*'):
            parts=line.split()
            if skip: skip=False; continue
            if len(parts)>=2 and fn: cost[fn]+=int(parts[1])
    return cost
def total(prefix):
    c=collections.Counter()
    for p in glob.glob(prefix+'*'): c.update(selfcost(p))
    return c
a=total(sys.argv[1]); b=total(sys.argv[2])
keys=set(a)|set(b)
d=sorted(keys,key=lambda k:-abs(b[k]-a[k]))
print(f"total {sum(a.values()):,} -> {sum(b.values()):,}")
for k in d[:int(sys.argv[3]) if len(sys.argv)>3 else 25]:
    print(f"{a[k]:>13,} {b[k]:>13,} {b[k]-a[k]:>+12,}  {k[:140]}")
