#!/usr/bin/env bash
# floor41-compare.sh OLD NEW DIR INPUTS...: every report form whose members the shared floors or
# the kept record's path could change, one and two threads, old and new binary: byte-identical?
set -u
old=$1; new=$2; dir=$3; shift 3
mkdir -p "$dir"
fail=0
for input in "$@"; do
  name=$(basename "$input" .jsonl)
  for t in 1 2; do
    for spec in "json-m3:--format json --members 3" "json-m20:--format json" "json-mall:--format json --members all" \
      "json-m40:--format json --members 40" "html:--format html" "jsonl:--format jsonl" \
      "dedupe-json:--format json --dedupe" "partial:--emit partial" \
      "acct-json:--per-account --format json" "acct-jsonl:--per-account --format jsonl" "csv:--format csv"; do
      label=${spec%%:*}; flags=${spec#*:}
      for side in old new; do
        bin=$old; [[ $side == new ]] && bin=$new
        $bin group $flags --threads $t -o "$dir/$name-$label-t$t.$side" "$input" 2>"$dir/$name-$label-t$t.$side.err"
        echo $? > "$dir/$name-$label-t$t.$side.rc"
      done
      if cmp -s "$dir/$name-$label-t$t.old" "$dir/$name-$label-t$t.new" && cmp -s "$dir/$name-$label-t$t.old.rc" "$dir/$name-$label-t$t.new.rc"; then
        echo "$name $label threads $t: identical ($(stat -c %s "$dir/$name-$label-t$t.new") bytes, rc $(cat "$dir/$name-$label-t$t.new.rc"))"
      else
        echo "$name $label threads $t: DIFFERENT"; fail=1
      fi
      rm -f "$dir/$name-$label-t$t.old" "$dir/$name-$label-t$t.new"
    done
  done
done
exit $fail
