// walk-in-c.c — session 13's measurement of what the record scanner's grammar walk
// (Sources/TxFold/Decode/RecordScanner+Indexed.swift) would cost written in C with the same design:
// the tokens the AVX2 index lists, keys looked up by length with the row's first key inline and
// compared in one 32-byte step, the string's specials validated (escapes, UTF-8), slots written.
// Leaner than the Swift walk: objects, strings and plain numbers only (a record with an array, a
// literal or an escaped key is given up, about 6 % of them), no trailing-comma option, no
// clearing of a nested object's slots. Backbase's keys, as the schema's trie holds them.
//
// From the repository root, with the Swift toolchain's clang:
//   clang -O2 -I Sources/CJSONIndex/include -I Sources/CJSONIndex -o /tmp/walk-in-c \
//     Benchmarks/runs/2026-11-27-session13/walk-in-c.c
//   /tmp/walk-in-c FILE
//
// Result (BENCHMARKS.md, "Session 13"): on the dump's first 200,000 lines, the index 22.0–22.3 ms
// and the index and walk 38.6–39.8 ms, so the walk 16.6–17.8 ms (12.3 ms without validating
// specials); the package-benchmark `200K-scan-avx2` (the Swift scanner: index, walk, slot reset,
// on 200,000 generated records of the same size) takes 44–45 ms. The Swift walk is within about
// 5 ms of this leaner C walk per 200,000 records: porting it would save at most about 6 % of a run.
#include "json_index.c"
#include "../../whole-file.h"
#include <time.h>

typedef struct { uint8_t key[32]; int32_t length, slot, child, pad[5]; } row_head;  // 64 bytes
typedef struct { int64_t start, end; int64_t kind; } value_ref;
#define ROWS 64
static row_head rows[2 * ROWS];
static void add_key(int node, const char *key, int slot, int child) {
  size_t n = strlen(key);
  row_head *r = &rows[node * ROWS + (n < ROWS ? n : ROWS - 1)];
  if (r->length != -2) { fprintf(stderr, "row taken: %s\n", key); exit(1); }
  memset(r->key, 0, 32); memcpy(r->key, key, n); r->length = (int32_t)n; r->slot = slot; r->child = child;
}
static value_ref slots[16];
static inline int hexv(uint8_t c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
// UTF-8 sequence length at `at` (lead byte), 0 when invalid; `close` bounds it.
static inline int utf8_len(const uint8_t *b, uint32_t at, uint32_t close) {
  uint8_t c = b[at];
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || at + n > close) return 0;
  for (int i = 1; i < n; i++) if ((b[at + i] & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b[at + 1] < 0xA0) return 0;
  if (c == 0xED && b[at + 1] >= 0xA0) return 0;
  if (c == 0xF0 && b[at + 1] < 0x90) return 0;
  if (c == 0xF4 && b[at + 1] >= 0x90) return 0;
  return n;
}
// Validates the specials before `close`; returns -1 when invalid, else 1 when the string has escapes.
static inline int specials_before(const uint8_t *b, uint32_t close, const uint32_t *sp, size_t nsp, size_t *index,
                                   uint32_t *next) {
  int escaped = 0;
  size_t p = *index;
  while (p < nsp) {
    uint32_t at = sp[p];
    if (at >= close) break;
    if (b[at] == '\\') {
      escaped = 1;
      switch (b[at + 1]) {
        case '\\': p += 2; break;
        case '"': case '/': case 'b': case 'f': case 'n': case 'r': case 't': p += 1; break;
        case 'u':
          if (at + 6 > close || !hexv(b[at + 2]) || !hexv(b[at + 3]) || !hexv(b[at + 4]) || !hexv(b[at + 5])) return -1;
          p += 1;
          break;
        default: return -1;
      }
    } else {
      int n = utf8_len(b, at, close);
      if (n == 0) return -1;
      p += n;
    }
  }
  *index = p;
  *next = p < nsp ? sp[p] : 0xFFFFFFFFu;
  return escaped;
}
// Returns 1 when accepted (flat objects of strings, numbers and nested objects; arrays and literals
// give up), 0 when not decided.
static int walk(const uint8_t *b, size_t count, const uint32_t *tok, size_t ntok, const uint32_t *sp, size_t nsp) {
  if (ntok == 0 || b[tok[0]] != '{') return 0;
  size_t spi = 0; uint32_t next = nsp ? sp[0] : 0xFFFFFFFFu;
  int nodes[8]; int depth = 1; nodes[1] = 0;
  size_t t = 1;
  for (;;) {
    if (t + 3 >= ntok) return 0;
    uint32_t at = tok[t];
    if (b[at] != '"') return 0;
    uint32_t close = tok[t + 1];
    if (b[tok[t + 2]] != ':') return 0;
    int kesc = 0;
    if (next < close) { kesc = specials_before(b, close, sp, nsp, &spi, &next); if (kesc < 0) return 0; }
    if (kesc) return 0;  // escaped keys: the general path
    size_t len = close - at - 1;
    int slot = -1, child = -1, node = nodes[depth];
    if (node >= 0 && len <= 32 && count - at - 1 >= 32) {
      const row_head *r = &rows[node * ROWS + (len < ROWS ? len : ROWS - 1)];
      if (r->length == (int32_t)len && txfold_equal_prefix32(b + at + 1, r->key, len)) { slot = r->slot; child = r->child; }
    }
    t += 3;
    uint32_t v = tok[t];
    uint8_t c = b[v];
    if (c == '"') {
      if (t + 2 > ntok) return 0;
      uint32_t vclose = tok[t + 1];
      int kind = 1;
      if (next < vclose) { int e = specials_before(b, vclose, sp, nsp, &spi, &next); if (e < 0) return 0; kind += e; }
      if (slot >= 0) { slots[slot].start = v + 1; slots[slot].end = vclose; slots[slot].kind = kind; }
      t += 2;
    } else if (c == '{') {
      if (depth == 7) return 0;
      nodes[++depth] = child;
      t += 1;
      continue;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t e = v + 1;
      while (e < count && ((b[e] >= '0' && b[e] <= '9') || b[e] == '.')) e++;
      if (!(e == count || (t + 1 < ntok && e == tok[t + 1]) || b[e] == ' ')) return 0;
      if (slot >= 0) { slots[slot].start = v; slots[slot].end = e; slots[slot].kind = 2; }
      t += 1;
    } else {
      return 0;
    }
    for (;;) {
      if (t >= ntok) return 0;
      uint8_t s = b[tok[t]];
      if (s == ',') { t++; break; }
      if (s != '}') return 0;
      t++;
      if (--depth == 0) return t == ntok;
    }
  }
}
static double now(void) { struct timespec s; clock_gettime(CLOCK_MONOTONIC, &s); return s.tv_sec + s.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  for (int i = 0; i < 2 * ROWS; i++) rows[i].length = -2;
  const char *root[] = {"id",           "description", "category", "counterPartyName", "creditDebitIndicator",
                        "creationTime", "state",       "arrangementId"};
  for (int i = 0; i < 8; i++) add_key(0, root[i], i, -1);
  add_key(0, "transactionAmountCurrency", 8, 1);
  add_key(1, "amount", 9, -1); add_key(1, "currencyCode", 10, -1);
  long size = 0;
  uint8_t *data = read_whole_file(argv[1], 64, &size);
  if (!data) return 1;
  uint32_t *tokens = malloc(1 << 20), *specials = malloc(1 << 20);
  for (int round = 0; round < 5; round++) {
    long accepted = 0; uint64_t sum = 0;
    double t0 = now();
    for (long start = 0; start < size;) {
      const uint8_t *nl = memchr(data + start, '\n', size - start); long end = nl ? nl - data : size;
      size_t sc; uint32_t flags;
      size_t n = index_avx2(data + start, end - start, tokens, specials, &sc, &flags);
      sum += n;
      start = end + 1;
    }
    double t1 = now();
    for (long start = 0; start < size;) {
      const uint8_t *nl = memchr(data + start, '\n', size - start); long end = nl ? nl - data : size;
      size_t sc; uint32_t flags;
      size_t n = index_avx2(data + start, end - start, tokens, specials, &sc, &flags);
      for (int s = 0; s < 11; s++) slots[s].kind = 0;
      accepted += flags == 0 && walk(data + start, end - start, tokens, n, specials, sc);
      sum += slots[9].end;
      start = end + 1;
    }
    double t2 = now();
    printf("index %.1f ms; index + walk %.1f ms (walk %.1f ms); %ld accepted (check %llu)\n", (t1 - t0) * 1e3,
           (t2 - t1) * 1e3, (t2 - t1 - (t1 - t0)) * 1e3, accepted, (unsigned long long)sum);
  }
}
