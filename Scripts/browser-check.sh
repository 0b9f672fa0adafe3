#!/usr/bin/env bash
# Renders the html reports in a real browser (headless Chromium) and fails on a layout error.
#
#   Scripts/browser-check.sh                  # check; screenshots go to a temporary directory
#   Scripts/browser-check.sh --update-images  # also refresh Documentation/images/*.png
#
# For group, list and summary (each whole and per account) on SampleData/user-10015-grouped-mixed.jsonl (English and French)
# and on a stress input (a 300-character word, markup in every field, eight currencies), at phone
# (375x800) and desktop (1280x900) widths, it checks:
#   - the page as shipped: no script, no external URL (http, https, protocol-relative), no src=,
#     no <link>, no @import, and no url() but the page's own #hatch pattern;
#   - in Chromium, on a copy with a test-only script appended: the page loaded no resource at all
#     (Resource Timing is empty; host names also resolve nowhere), the document is no wider than
#     the window, and no card, figure, table cell, list item or chart sticks out of the window
#     or out of its own box;
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
index=0
for currency in EUR USD GBP CHF JPY KWD PBP '<b>'; do
  index=$((index + 1))
  for day in 01 15 28; do
    printf '{"id":"%s-%s","description":"%s <script>alert(1)</script> \\" '"'"' &","category":"Category %s %s",' \
      "$index" "$day" "$long_word" "$long_word" "$index" >> "$work/stress.jsonl"
    printf '"transactionAmountCurrency":{"amount":"%s123456789.12","currencyCode":"%s"},"creditDebitIndicator":"%s",' \
      "$index" "$currency" "$([ $((index % 2)) = 0 ] && echo CRDT || echo DBIT)" >> "$work/stress.jsonl"
    printf '"creationTime":"2019-05-%sT10:00:00","state":"%s"}\n' "$day" \
      "$([ "$day" = 01 ] && echo PENDING || echo "STATE-$long_word")" >> "$work/stress.jsonl"
  done
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
probe='<script>
(function () {
  var problems = [];
  var width = window.innerWidth;
  var root = document.documentElement;
  if (root.scrollWidth > width) problems.push("document " + root.scrollWidth + "px wide in a " + width + "px window");
  var resources = performance.getEntriesByType("resource");
  for (var i = 0; i < resources.length; i++) problems.push("loaded " + resources[i].name);
  var boxes = document.querySelectorAll(".card, figure, .stat, td, th, li, svg.chart, .total, .legend, h1, h2, p");
  for (var j = 0; j < boxes.length; j++) {
    var box = boxes[j];
    if (box.closest(".vh, details:not([open]), thead")) continue;
    var rect = box.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    var name = box.tagName.toLowerCase() + (box.className && box.className.baseVal === undefined ? "." + box.className.split(" ").join(".") : "");
    if (rect.right > width + 0.5 || rect.left < -0.5) problems.push(name + " spans " + Math.round(rect.left) + ".." + Math.round(rect.right) + "px");
    if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX === "visible" && box.clientWidth > 0)
      problems.push(name + " content " + box.scrollWidth + "px in a " + box.clientWidth + "px box");
  }
  var result = problems.length === 0 ? "LAYOUT-OK " + width : "LAYOUT-ERROR " + width + " " + problems.slice(0, 8).join("; ");
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

for input in "$sample" "$work/stress.jsonl"; do
  for entry in "${pages[@]}"; do
    name=${entry%%|*}
    read -r -a arguments <<< "${entry#*|}"
    [ "$input" = "$sample" ] || name="stress-$name"
    page="$work/$name.html"
    "$txfold" "${arguments[@]}" --quiet --format html -o "$page" "$input"

    # The page as shipped.
    if grep -qiE '<script|<b>|https?:|src=|<link|@import|="//' "$page"; then fail "$name: markup, script or external reference"; fi
    if grep -o 'url([^)]*)' "$page" | grep -qv '^url(#hatch)$'; then fail "$name: url() other than #hatch"; fi
    if [ "$input" != "$sample" ]; then
      grep -qi '&lt;b&gt;' "$page" || fail "$name: the currency '<b>' (upper-cased, as codes are) is not shown escaped"
      case "$name" in
        *summary*) ;;
        *) grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &quot; &#39; &amp;' "$page" \
          || fail "$name: the hostile description is not shown escaped" ;;
      esac
    fi

    # The layout, measured by Chromium.
    probed="$work/$name.probe.html"
    sed 's#</body>#'"$(printf '%s' "$probe" | tr '\n' ' ' | sed 's/[#&]/\\&/g')"'</body>#' "$page" > "$probed"
    for size in 375,800 1280,900; do
      wrapper="$work/$name.${size%,*}.wrapper.html"
      printf '%s\n' '<!DOCTYPE html><html><body style="margin:0">' \
        "<iframe src=\"$(basename "$probed")\" width=\"${size%,*}\" height=\"${size#*,}\" style=\"border:0\"></iframe>" \
        '<pre id="result"></pre><script>addEventListener("message", function (event) {' \
        'document.getElementById("result").textContent = "RESULT " + event.data; });</script></body></html>' \
        > "$wrapper"
      result=$(chrome --window-size=1400,900 --virtual-time-budget=5000 --dump-dom "file://$wrapper" \
        | grep -o 'RESULT LAYOUT-[A-Z]* [^<]*' | sed 's/^RESULT //' || true)
      case "$result" in
        "LAYOUT-OK ${size%,*}") echo "browser-check: ok   $name at $size" ;;
        "") fail "$name at $size: Chromium returned no result" ;;
        *) fail "$name at $size: $result" ;;
      esac
      if [ "$input" = "$sample" ]; then
        chrome --window-size="$size" --screenshot="$images/$name-${size%,*}.png" "file://$page" > /dev/null || true
      fi
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
