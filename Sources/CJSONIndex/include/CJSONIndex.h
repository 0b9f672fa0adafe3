// CJSONIndex — the vectorised first pass of TxFold's record scanner.
//
// Swift has no portable way to turn a vector comparison into a bit mask (x86's
// `pmovmskb`, AVX-512's mask registers), which is what makes a simdjson-style
// structural pass cheap. This small C target does only that pass: it
// classifies a record's bytes 64 at a time and lists where its tokens start.
// Everything that needs judgement (the grammar, key matching, validating
// escapes and UTF-8, reasons for a rejection) stays in Swift, in
// `RecordScanner+Indexed.swift`.
#ifndef TXFOLD_CJSONINDEX_H
#define TXFOLD_CJSONINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Flags `txfold_json_index` reports about a record as a whole.
enum {
  /// A byte below 0x20 inside a string: the record is invalid.
  TXFOLD_JSON_INDEX_CONTROL_IN_STRING = 1,
  /// The record ends inside a string: the record is invalid.
  TXFOLD_JSON_INDEX_UNTERMINATED_STRING = 2,
};

/// The extra entries `tokens` and `specials` need beyond `length`.
#define TXFOLD_JSON_INDEX_SLACK 64

/// Which implementation `txfold_json_index` uses.
enum {
  TXFOLD_JSON_INDEX_KERNEL_PORTABLE = 0,
  TXFOLD_JSON_INDEX_KERNEL_SSE2 = 1,
  TXFOLD_JSON_INDEX_KERNEL_AVX2 = 2,
  TXFOLD_JSON_INDEX_KERNEL_AVX512 = 3,
  /// AVX-512 with VBMI2's byte compression for listing the tokens.
  TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2 = 4,
  /// ARM NEON, on arm64 only (chosen when compiling); elsewhere it runs as the best kernel the CPU has.
  TXFOLD_JSON_INDEX_KERNEL_NEON = 5,
};

/// Lists the token starts of one JSON record.
///
/// Writes to `tokens`, in increasing order, the offset of every byte outside
/// strings that is `{`, `}`, `[`, `]`, `:` or `,`; of every quote that opens or
/// closes a string (quotes escaped by a backslash are not tokens); and of the
/// first byte of every run of other non-whitespace bytes outside strings (a
/// number, a literal, or garbage for the grammar to reject). Writes to
/// `specials` the offset of every backslash and every byte above 0x7F inside
/// a string, so the caller validates only the strings that hold one.
///
/// Each array needs room for `length` + `TXFOLD_JSON_INDEX_SLACK` entries
/// (entries are written in groups, a few past the last one). `flags` receives the
/// `TXFOLD_JSON_INDEX_…` flags. Returns the number of tokens; the number of
/// specials is stored in `special_count`. `kernel` picks the implementation;
/// one the CPU lacks falls back to the best it has (on arm64, NEON). Reads exactly `length`
/// bytes. Offsets must fit in 32 bits (`length` < 2^32).
size_t txfold_json_index(const uint8_t *bytes, size_t length, uint32_t *tokens, uint32_t *specials,
                         size_t *special_count, uint32_t *flags, int kernel);

/// The best kernel this CPU supports.
int txfold_json_index_best_kernel(void);

/// The grammar state `txfold_json_skim` walks with: the document walker's, inside a record.
typedef struct {
  /// The open containers' depth (in and out), and the deepest one the walk opened (out).
  int32_t depth;
  int32_t deepest;
  /// The record's own depth, and the deepest container the walker types (in).
  int32_t record_depth;
  int32_t tracked_depth;
  /// What the grammar expects next, as `DocumentWalker.Expect`'s raw value (in and out).
  uint8_t expect;
  /// Whether the walk goes on past line feeds (in), and whether it stopped before the first byte
  /// other than blank space on the line it stopped on (out: when it crossed one).
  uint8_t cross_lines;
  uint8_t at_line_start;
  /// The line feeds crossed, and where the last one is (out).
  size_t lines;
  size_t last_line_feed;
} txfold_skim_state;

/// The document walker's fast path through a record's content (`DocumentWalker.skimRecordContent`),
/// 64 bytes at a time: walks `bytes[from..<to]`, which starts outside any string or scalar, while
/// it is well-formed JSON on one line inside the record's containers, and returns where it
/// stopped, with `state` as the walker's byte loop has it there. It stops where that loop stops
/// (at a line feed, a syntax error, the record's last closer, a string or scalar that `to` cuts, a
/// string holding a control byte) or earlier, at a scalar holding a backslash, which that loop
/// then walks. With `cross_lines` it counts line feeds and goes on, as the walker's general loop
/// does, except where a line's first byte other than blank space is `{`, `[` or `]`: there the
/// walker asks whether the line starts the next element or closes the array, and the walk stops. `is_object[d]` tells whether the container at depth `d` is an object, for the
/// depths above `record_depth` up to `depth`; the walk writes it for the containers it opens, up to
/// `deepest`. Reads only `bytes[0..<to]` and `is_object[0...tracked_depth]`. `kernel` as for `txfold_json_index`.
size_t txfold_json_skim(const uint8_t *bytes, size_t from, size_t to, txfold_skim_state *state, uint8_t *is_object,
                        int kernel);

/// Asks the CPU to start loading the cache line at `address` (a hint: it
/// never faults, whatever the address). Swift has no prefetch of its own;
/// the per-account fold's spill uses it to overlap the cache misses of the
/// groups it visits in account order, scattered in memory (`GroupTable+Prefetch.swift`).
static inline void txfold_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// `txfold_prefetch` for a line about to be written (`--dedupe`'s id entries,
/// `IDCollector.swift`): the line comes in owned, so the stores that follow
/// do not wait on it one after the other.
static inline void txfold_prefetch_for_writing(const void *address) { __builtin_prefetch(address, 1, 3); }

/// A word that one thread writes and others read while it does (the floors
/// the workers of one fold share, `MemberFloors.swift`): loaded and stored
/// whole, with no ordering beyond the word itself. Swift has no atomics before
/// macOS 15 (`Package.swift`'s platforms), and a plain access that races is
/// undefined behaviour; on x86 and arm64 these are plain moves.
static inline int64_t txfold_load_relaxed(const int64_t *word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }
static inline void txfold_store_relaxed(int64_t *word, int64_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Whether the first `length` (at most 32) bytes at `lhs` and `rhs` are
/// equal, where 32 bytes are readable at each: one vector comparison whatever
/// the length, so comparing keys of varying lengths costs no branch on the
/// length (the record scanner's key look-up; Swift's generic SIMD types do
/// not compile to this).
static inline int txfold_equal_prefix32(const void *lhs, const void *rhs, size_t length) {
#if defined(__SSE2__)
  const __m128i *l = (const __m128i *)lhs;
  const __m128i *r = (const __m128i *)rhs;
  const unsigned low = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(l), _mm_loadu_si128(r)));
  const unsigned high = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(l + 1), _mm_loadu_si128(r + 1)));
  const uint32_t differs = ~(low | (high << 16));
  // The bits at and above `length` shifted out of the top: fewer steps than masking with
  // (1 << length) - 1. Two shifts, since one by 64 (at length 0) would be undefined.
  return (((uint64_t)differs << 32) << (32 - length)) == 0;
#else
  return memcmp(lhs, rhs, length) == 0;
#endif
}

#ifdef __cplusplus
}
#endif

#endif
