# The array inputs of arr41-cgrun.sh, from the 50k JSON lines (amounts are strings, so re-indenting
# keeps every value's text).
import json
lines = [l for l in open('/tmp/rep40/l50k.jsonl', encoding='utf-8').read().split('\n') if l.strip()]
open('/tmp/arr41/arr50k-1line.json', 'w', encoding='utf-8').write('[' + ','.join(lines) + ']\n')
open('/tmp/arr41/wrap50k.json', 'w', encoding='utf-8').write('{"items":[' + ','.join(lines) + ']}\n')
records = [json.loads(l) for l in lines]
open('/tmp/arr41/arr50k-pretty.json', 'w', encoding='utf-8').write(json.dumps(records, indent=2, ensure_ascii=False) + '\n')
