# wrap42-inputs.py N: the inputs of wrap42-cgrun.sh in /tmp/wrap42-cg/N/ (as arr41-inputs.py), the first N records of the
# 50k shuffled JSON lines (/tmp/rep40/l50k.jsonl): as lines, and as arrays: one element a line,
# one line, pretty-printed with indent 2, an `items` wrapper one element a line. Amounts are
# strings, so re-indenting keeps every value's text.
import json, os, sys
n = int(sys.argv[1])
lines = [l for l in open('/tmp/rep40/l50k.jsonl', encoding='utf-8').read().split('\n') if l.strip()][:n]
d = '/tmp/wrap42-cg/%d' % n
os.makedirs(d, exist_ok=True)
def write(name, text): open(os.path.join(d, name), 'w', encoding='utf-8').write(text)
write('lines.jsonl', '\n'.join(lines) + '\n')
write('array.json', '[\n' + ',\n'.join(lines) + '\n]\n')
write('oneline.json', '[' + ','.join(lines) + ']\n')
write('pretty.json', json.dumps([json.loads(l) for l in lines], indent=2, ensure_ascii=False) + '\n')
write('wrapper.json', '{"items": [\n' + ',\n'.join(lines) + '\n]}\n')
