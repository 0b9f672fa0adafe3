import sys
def load(f):
    d={}
    for l in open(f):
        p=l.strip().split(' ',1)
        if len(p)<2: continue
        try: n=int(p[0])
        except: continue
        d[p[1][:120]]=d.get(p[1][:120],0)+n
    return d
a=load(sys.argv[1]); b=load(sys.argv[2])
print("total", sum(a.values()), sum(b.values()))
ka=sum(v for k,v in a.items() if k.startswith('[k]')); kb=sum(v for k,v in b.items() if k.startswith('[k]'))
print("kernel", ka, kb)
keys=set(a)|set(b)
rows=sorted(keys,key=lambda k:-abs(b.get(k,0)-a.get(k,0)))
for k in rows[:int(sys.argv[3]) if len(sys.argv)>3 else 40]:
    print(f"{a.get(k,0):6d} {b.get(k,0):6d} {b.get(k,0)-a.get(k,0):+6d} {k}")
