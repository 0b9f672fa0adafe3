#!/usr/bin/env bash
# Renders the html reports in a real browser (headless Chromium) and fails on a layout error.
#
#   Scripts/browser-check.sh                  # check; screenshots go to a temporary directory
#   Scripts/browser-check.sh --update-images  # also refresh Documentation/images/*.png
#
# For group, list and summary (each whole and per account) on SampleData/user-10015-grouped-mixed.jsonl (English and French)
# and on a stress input (a 300-character word, markup in every field, ten currencies, amounts of 18
# fraction digits and of 38 digits), at phone
# (375x800) and desktop (1280x900) widths, it checks:
#   - the page as shipped: no script, no external URL (http, https, protocol-relative), no src=,
#     no <link>, no @import, and no url() but the page's own #hatch pattern;
#   - in Chromium, on a copy with a test-only script appended: the page loaded no resource at all
#     (Resource Timing is empty; host names also resolve nowhere), the document is no wider than
#     the window, no card, figure, table cell, list item or chart sticks out of the window or out
#     of its own box, no text node is wider than its box (the nearest element that is not inline;
#     one that clips on purpose, an id cut with an ellipsis, is exempt), no number (digits with
#     their separators) is broken across lines, every in-page link (#…) leads to an element, and
#     at 375 px the first card (or table row) starts within 700 px of the top — each result line
#     prints where it starts;
#   - at scale: the group page of the 20,000-record synthetic dump (txfold gen --count 20000
#     --seed 7) weighs at most its budget (page_budget below: 2,500,000 bytes), has a month index,
#     and passes the layout checks at 375 px;
#   - group, list and summary --per-account --output-dir: the index pages and every account's
#     page, for the sample and for the stress input's hostile account ids (a path, case twins,
#     '/', a control character, markup, 300 characters), at both widths (merge writes group's
#     pages, byte for byte: Tests/EndToEndTests/OutputDirectoryQueryTests.swift);
#   - then takes screenshots (light at both widths; dark at phone width for the group page), into a
#     temporary directory, or with --update-images into Documentation/images (taller windows).
# Exit status: 0 when every page passes, 1 on a layout or content error, 77 when no Chromium can
# be found (.ci/run installs Debian's chromium first where it can).
set -euo pipefail
cd "$(dirname "$0")/.."

update_images=false
[ "${1:-}" = "--update-images" ] && update_images=true

browser=""
for candidate in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
  if [ -n "$candidate" ] && command -v "$candidate" > /dev/null; then browser=$(command -v "$candidate"); break; fi
done
if [ -z "$browser" ]; then
  echo "browser-check: no Chromium found (apt-get install chromium); skipped" >&2
  exit 77
fi

if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
swift build --product txfold > /dev/null
txfold="$(swift build --show-bin-path)/txfold"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
images="$work/images"
mkdir -p "$images"
sample=SampleData/user-10015-grouped-mixed.jsonl

# The stress input: what a hostile or unusual dump can put in front of the layout.
long_word=$(printf 'x%.0s' $(seq 1 300))
: > "$work/stress.jsonl"
# Hostile account ids (arrangementId) for the pages of --output-dir: a path, case twins, '/', a
# control character, markup and a 300-character id.
accounts=('../../etc/passwd' 'A/B' 'a/b' 'a\u0001b' '<b>x</b>' "$long_word" 'A1' 'a1')
index=0
for currency in EUR USD GBP CHF JPY KWD PBP '<b>'; do
  index=$((index + 1))
  for day in 01 15 28; do
    printf '{"id":"%s-%s","arrangementId":"%s","description":"%s <script>alert(1)</script> \\" '"'"' &","category":"Category %s %s",' \
      "$index" "$day" "${accounts[$((index - 1))]}" "$long_word" "$long_word" "$index" >> "$work/stress.jsonl"
    printf '"transactionAmountCurrency":{"amount":"%s123456789.12","currencyCode":"%s"},"creditDebitIndicator":"%s",' \
      "$index" "$currency" "$([ $((index % 2)) = 0 ] && echo CRDT || echo DBIT)" >> "$work/stress.jsonl"
    printf '"creationTime":"2019-05-%sT10:00:00","state":"%s"}\n' "$day" \
      "$([ "$day" = 01 ] && echo PENDING || echo "STATE-$long_word")" >> "$work/stress.jsonl"
  done
done
# Amounts as wide as an amount gets: 18 fraction digits (a token's), and 38 digits (the most
# TxFold takes), wider than a phone: whole, never broken, never wider than the page.
for wide in '1234.123456789012345678|ETH|DBIT' '12345678901234567890123456789012345678|XTS|CRDT'; do
  IFS='|' read -r amount currency indicator <<< "$wide"
  printf '{"id":"wide-%s","arrangementId":"A1","description":"Supplier GmbH & Co. KG, invoice 2019-0042",' \
    "$currency" >> "$work/stress.jsonl"
  printf '"transactionAmountCurrency":{"amount":"%s","currencyCode":"%s"},"creditDebitIndicator":"%s",' \
    "$amount" "$currency" "$indicator" >> "$work/stress.jsonl"
  printf '"category":"Wide","creationTime":"2019-05-20T10:00:00","state":"PENDING"}\n' >> "$work/stress.jsonl"
done

# name|command line (the input is appended)
pages=(
  "group|group"
  "group.fr|group --locale fr"
  "list|list"
  "list.fr|list --locale fr"
  "summary|summary --by category"
  "summary.fr|summary --by category --locale fr"
  "summary-day|summary --by day"
  "group-per-account|group --per-account --account-from-file"
  "list-per-account|list --per-account --account-from-file"
  "summary-per-account|summary --per-account --account-from-file --by category"
)

# Appended to a copy of each page only: measures the layout and posts one line to the wrapper
# page, which shows the copy in an iframe of the width under test (a headless window is never
# narrower than 500 px, an iframe can be) and writes the line into its own DOM for --dump-dom.
# The probe goes into the page through sed, on one line: no backslash and no // comment in it.
probe='<script>
(function () {
  var problems = [];
  var width = window.innerWidth;
  var root = document.documentElement;
  if (root.scrollWidth > width) problems.push("document " + root.scrollWidth + "px wide in a " + width + "px window");
  var resources = performance.getEntriesByType("resource");
  for (var i = 0; i < resources.length; i++) problems.push("loaded " + resources[i].name);
  function hidden(element) { return element.closest(".vh, details:not([open]), thead, svg, title, style"); }
  function label(box) {
    return box.tagName.toLowerCase() + (box.className && box.className.baseVal === undefined ? "." + box.className.split(" ").join(".") : "");
  }
  var boxes = document.querySelectorAll(".card, figure, .stat, td, th, li, svg.chart, .total, .legend, h1, h2, h3, p, nav");
  for (var j = 0; j < boxes.length; j++) {
    var box = boxes[j];
    if (hidden(box)) continue;
    var rect = box.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    var name = label(box);
    if (rect.right > width + 0.5 || rect.left < -0.5) problems.push(name + " spans " + Math.round(rect.left) + ".." + Math.round(rect.right) + "px");
    if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX === "visible" && box.clientWidth > 0)
      problems.push(name + " content " + box.scrollWidth + "px in a " + box.clientWidth + "px box");
  }
  /* Every text node inside its box (the nearest element that is not inline; one that clips on */
  /* purpose, as an id cut with an ellipsis, is left alone), and no number broken across lines. */
  var number = new RegExp("[0-9](?:[0-9.," + String.fromCharCode(160, 8239, 8201) + "]*[0-9])?", "g");
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var texts = 0, node;
  while ((node = walker.nextNode())) {
    var owner = node.parentElement;
    if (!owner || !node.data.trim() || hidden(owner)) continue;
    var container = owner;
    while (container !== document.body && getComputedStyle(container).display === "inline") container = container.parentElement;
    var clipped = false;
    for (var up = owner; up && up !== container.parentElement; up = up.parentElement)
      if (getComputedStyle(up).overflowX !== "visible") clipped = true;
    var range = document.createRange();
    range.selectNodeContents(node);
    var textRect = range.getBoundingClientRect();
    if (textRect.width === 0) continue;
    texts++;
    var boxRect = container.getBoundingClientRect();
    if (!clipped && (textRect.right > boxRect.right + 1 || textRect.left < boxRect.left - 1))
      problems.push("text [" + node.data.trim().slice(0, 24) + "] " + Math.round(textRect.width) + "px wide sticks out of " + label(container) + " (" + Math.round(boxRect.width) + "px)");
    var match;
    number.lastIndex = 0;
    while ((match = number.exec(node.data))) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      var lines = {};
      var rects = range.getClientRects();
      for (var r = 0; r < rects.length; r++) if (rects[r].width > 0) lines[Math.round(rects[r].top)] = true;
      if (Object.keys(lines).length > 1) problems.push("number " + match[0] + " broken across lines in " + label(owner));
    }
  }
  /* Every link inside the page leads somewhere on it. */
  var links = document.querySelectorAll("a[href]");
  for (var k = 0; k < links.length; k++) {
    var href = links[k].getAttribute("href");
    if (href.charAt(0) === "#" && !document.getElementById(decodeURIComponent(href.slice(1)))) problems.push("link " + href + " leads nowhere");
  }
  /* Where the first card (or row) starts: it must be on the first screen of a phone. */
  var first = document.querySelector(".card, table.rows tbody tr, table.index tbody tr");
  var top = first ? Math.round(first.getBoundingClientRect().top + window.scrollY) : -1;
  if (first && top > 700) problems.push("first card at " + top + "px, below the first screen (700px)");
  var result = problems.length === 0 ? "LAYOUT-OK " + width + " first-card " + top + "px, " + texts + " text nodes" : "LAYOUT-ERROR " + width + " " + problems.slice(0, 8).join("; ");
  parent.postMessage(result, "*");
})();
</script>'

chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-extensions --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2> /dev/null
}

failures=0
fail() {
  echo "browser-check: FAIL $*" >&2
  failures=$((failures + 1))
}

# check_layout NAME PAGE SIZE...: the probe above on a copy of PAGE in Chromium, in an iframe of each
# SIZE (WIDTHxHEIGHT as W,H); prints its figures (where the first card starts, text nodes checked).
check_layout() {
  local name=$1 page=$2 size wrapper result probed
  shift 2
  probed="${page%.html}.probe.html"
  sed 's#</body>#'"$(printf '%s' "$probe" | tr '\n' ' ' | sed 's/[#&]/\\&/g')"'</body>#' "$page" > "$probed"
  for size in "$@"; do
    wrapper="${page%.html}.${size%,*}.wrapper.html"
    printf '%s\n' '<!DOCTYPE html><html><body style="margin:0">' \
      "<iframe src=\"$(basename "$probed")\" width=\"${size%,*}\" height=\"${size#*,}\" style=\"border:0\"></iframe>" \
      '<pre id="result"></pre><script>addEventListener("message", function (event) {' \
      'document.getElementById("result").textContent = "RESULT " + event.data; });</script></body></html>' \
      > "$wrapper"
    result=$(chrome --window-size=1400,900 --virtual-time-budget=20000 --dump-dom "file://$wrapper" \
      | grep -o 'RESULT LAYOUT-[A-Z]* [^<]*' | sed 's/^RESULT //' || true)
    case "$result" in
      "LAYOUT-OK ${size%,*} "*) echo "browser-check: ok   $name at $size (${result#LAYOUT-OK * })" ;;
      "") fail "$name at $size: Chromium returned no result" ;;
      *) fail "$name at $size: $result" ;;
    esac
  done
}

# check_shipped NAME PAGE STRESS: the page as shipped (no script, no reference to anything
# outside it); with STRESS=true, the stress input's markup arrives escaped.
check_shipped() {
  local name=$1 page=$2 stress=$3
  if grep -qiE '<script|<b>|https?:|src=|<link|@import|="//' "$page"; then fail "$name: markup, script or external reference"; fi
  if grep -o 'url([^)]*)' "$page" | grep -qv '^url(#hatch)$'; then fail "$name: url() other than #hatch"; fi
  if $stress; then
    grep -qi '&lt;b&gt;' "$page" || fail "$name: the currency '<b>' (upper-cased, as codes are) is not shown escaped"
    case "$name" in
      *summary* | *index*) ;;
      # (A description may wrap after '/': the page has <wbr> there.)
      # grep -c reads to the end: grep -q would stop at the first match and, under pipefail, sed's
      # SIGPIPE would fail the check at random.
      *) sed 's#<wbr>##g' "$page" | grep -c '&lt;script&gt;alert(1)&lt;/script&gt; &quot; &#39; &amp;' > /dev/null \
        || fail "$name: the hostile description is not shown escaped" ;;
    esac
  fi
}

for input in "$sample" "$work/stress.jsonl"; do
  for entry in "${pages[@]}"; do
    name=${entry%%|*}
    read -r -a arguments <<< "${entry#*|}"
    stress=false
    [ "$input" = "$sample" ] || { name="stress-$name"; stress=true; }
    page="$work/$name.html"
    "$txfold" "${arguments[@]}" --quiet --format html -o "$page" "$input"
    check_shipped "$name" "$page" "$stress"
    check_layout "$name" "$page" 375,800 1280,900
    if ! $stress; then
      for size in 375,800 1280,900; do
        chrome --window-size="$size" --screenshot="$images/$name-${size%,*}.png" "file://$page" > /dev/null || true
      done
    fi
  done
done

# At scale: the 20,000-record synthetic dump (txfold gen --count 20000 --seed 7), whose group page
# must stay within its weight budget, open with a card on the first screen of a phone, and give a
# month index whose links all lead to a card.
page_budget=2500000
"$txfold" gen --count 20000 --seed 7 -o "$work/gen-20k.jsonl"
"$txfold" group --quiet --format html -o "$work/group-20k.html" "$work/gen-20k.jsonl"
weight=$(wc -c < "$work/group-20k.html")
if [ "$weight" -gt "$page_budget" ]; then
  fail "group-20k: the page weighs $weight bytes, over its budget of $page_budget"
else
  echo "browser-check: ok   group-20k weighs $weight bytes (budget $page_budget)"
fi
grep -q '<nav class="months"' "$work/group-20k.html" || fail "group-20k: no month index"
# (Its descriptions hold URLs, escaped: only markup and references count here.)
if grep -qiE '<script|src=|<link|@import|="//|href="http' "$work/group-20k.html"; then fail "group-20k: script or external reference"; fi
check_layout group-20k "$work/group-20k.html" 375,800

# Per account, one page each (--output-dir): the index and every account's page, for the
# sample (one account) and for the stress input spread over hostile account ids (8 accounts);
# a summary's index has no index-by-latest.html.
for command in group list summary; do
  for input in "$sample" "$work/stress.jsonl"; do
    stress=false
    [ "$input" = "$sample" ] || stress=true
    dir="$work/pages-$command-$($stress && echo stress || echo sample)"
    accounts_from=(--account-from-file)
    $stress && accounts_from=()
    "$txfold" "$command" --quiet --per-account "${accounts_from[@]}" --format html --output-dir "$dir" "$input"
    expected=$(($($stress && echo 8 || echo 1) + $([ "$command" = summary ] && echo 2 || echo 3)))
    [ "$(ls "$dir" | wc -l)" -eq "$expected" ] || fail "$dir: $(ls "$dir" | wc -l) files, not $expected"
    for page in "$dir"/*.html; do
      name="output-dir-$(basename "$dir")-$(basename "$page" .html)"
      # (An account's page shows only its own currencies: the '<b>' one is on one page.)
      check_shipped "$name" "$page" false
      check_layout "$name" "$page" 375,800 1280,900
    done
  done
done

chrome --window-size=375,800 --force-dark-mode --blink-settings=preferredColorScheme=0 \
  --screenshot="$images/group-375-dark.png" "file://$work/group.html" > /dev/null || fail "no dark screenshot"

if $update_images; then
  # The documentation's pictures: taller than the checked windows, so each shows the cards or rows.
  mkdir -p Documentation/images
  for shot in "group 375 1500" "group 1280 1250" "list 375 1300" "list 1280 1100" "summary 375 1100" \
    "summary 1280 1000" "group 375 1500 dark"; do
    read -r name width height scheme <<< "$shot"
    target="Documentation/images/html-$name-$width${scheme:+-$scheme}.png"
    dark=()
    [ -n "$scheme" ] && dark=(--force-dark-mode --blink-settings=preferredColorScheme=0)
    chrome --window-size="$width,$height" "${dark[@]}" --screenshot="$target" "file://$work/$name.html" > /dev/null \
      || fail "no screenshot $target"
    if command -v optipng > /dev/null; then optipng -quiet -o2 "$target"; fi
  done
  echo "browser-check: screenshots written to Documentation/images/"
fi

if [ "$failures" -gt 0 ]; then
  echo "browser-check: $failures failure(s)" >&2
  exit 1
fi
echo "browser-check: every page passed in $("$browser" --version 2> /dev/null | head -1)"
