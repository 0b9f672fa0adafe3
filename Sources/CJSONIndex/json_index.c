// The vectorised first pass of the record scanner; see include/CJSONIndex.h.
//
// Each 64-byte block is classified into bit masks (bit i = byte i of the
// block), in the manner of simdjson's stage 1 (Langdale & Lemire, "Parsing
// gigabytes of JSON per second", 2019):
//   1. escaped bytes: the byte after an odd run of backslashes;
//   2. string bytes: a prefix XOR of the unescaped quotes, carried across blocks;
//   3. tokens: structural characters and quotes outside strings, plus the first
//      byte of each run of other non-whitespace bytes (scalars).
// Only step 0, comparing 64 bytes against a constant to get a mask, differs
// between the kernels (portable C, SSE2, AVX2, AVX-512, NEON); the rest is plain
// 64-bit arithmetic shared by all of them, except the last step, listing the
// set bits as offsets, which AVX-512 VBMI2 does with one byte compression.
#include "CJSONIndex.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TXFOLD_X86 1
#endif

// Every arm64 CPU has NEON (Advanced SIMD), so on arm64 the kernel is chosen
// when compiling, not at run time. Its masks are read as 64-bit lanes, which
// assumes little-endian lane order (big-endian arm64 runs the portable kernel).
#if defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <arm_neon.h>
#define TXFOLD_NEON 1
#endif

/// The byte classes of one 64-byte block, one bit per byte.
typedef struct {
  uint64_t quote;       // "
  uint64_t backslash;   // the reverse solidus
  uint64_t op;          // { } [ ] : ,
  uint64_t whitespace;  // space, tab, line feed, carriage return
  uint64_t control;     // below 0x20
  uint64_t high;        // above 0x7F
} block_classes;

/// State carried from one block to the next.
typedef struct {
  uint64_t escape_carry;     // 1 when the next block's first byte is escaped
  uint64_t in_string_carry;  // all ones when the previous block ended inside a string
  uint64_t scalar_carry;     // 1 when the previous block ended inside a scalar run
  uint64_t control_in_string;
} block_state;

static inline __attribute__((always_inline)) void classify_portable(const uint8_t *block, block_classes *classes) {
  block_classes c = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 64; i++) {
    const uint8_t byte = block[i];
    const uint64_t bit = 1ULL << i;
    if (byte == '"') c.quote |= bit;
    if (byte == '\\') c.backslash |= bit;
    if (byte == '{' || byte == '}' || byte == '[' || byte == ']' || byte == ':' || byte == ',') c.op |= bit;
    if (byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r') c.whitespace |= bit;
    if (byte < 0x20) c.control |= bit;
    if (byte >= 0x80) c.high |= bit;
  }
  *classes = c;
}

#ifdef TXFOLD_X86
// An empty asm statement hides each movemask's result from the optimiser:
// otherwise clang merges the per-part masks into one 64-lane boolean vector,
// which SSE2/AVX2 have no register for, and scalarises it byte by byte,
// throwing away the point of the vector kernel.
#define TXFOLD_OPAQUE(value)        \
  do {                              \
    __asm__("" : "+r"(value));      \
  } while (0)

// Hidden as 64 bits, after the widening (which the movemask's 32-bit result
// already is): hidden as 32 bits, each mask was widened again with a `mov`.
static inline __attribute__((always_inline)) uint64_t movemask16(__m128i bytes, int part) {
  uint64_t mask = (uint32_t)_mm_movemask_epi8(bytes);
  TXFOLD_OPAQUE(mask);
  return mask << (16 * part);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t movemask32(__m256i bytes,
                                                                                                  int part) {
  uint64_t mask = (uint32_t)_mm256_movemask_epi8(bytes);
  TXFOLD_OPAQUE(mask);
  return mask << (32 * part);
}

// Brackets and braces differ from each other only in bit 5: `[` | 0x20 is `{`, `]` | 0x20 is `}`.
#define TXFOLD_CASE_BIT 0x20

static inline __attribute__((always_inline)) void classify_sse2(const uint8_t *block, block_classes *classes) {
  block_classes c = {0, 0, 0, 0, 0, 0};
  for (int part = 0; part < 4; part++) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(block + 16 * part));
    const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(TXFOLD_CASE_BIT));
#define TXFOLD_MASK16(x) movemask16((x), part)
    c.quote |= TXFOLD_MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    c.backslash |= TXFOLD_MASK16(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    c.op |= TXFOLD_MASK16(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')), _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')))));
    c.whitespace |= TXFOLD_MASK16(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')))));
    // Signed: bytes above 0x7F are negative, so this is "below 0x20 or above 0x7F".
    const uint64_t low_or_high = TXFOLD_MASK16(_mm_cmpgt_epi8(_mm_set1_epi8(0x20), v));
    const uint64_t high = TXFOLD_MASK16(v);
#undef TXFOLD_MASK16
    c.high |= high;
    c.control |= low_or_high & ~high;
  }
  *classes = c;
}

// AVX2 and AVX-512 find structural characters and whitespace with one byte
// shuffle each (simdjson's trick): the shuffle looks each byte's low nibble up
// in a 16-entry table holding the one character of the class with that
// nibble (or a value no byte with that nibble equals), so a byte is in the
// class when it equals its own look-up; bytes above 0x7F look up 0. Brackets
// are folded onto braces first. Two control characters, 0x0C and 0x1A, fold
// onto `,` and `:` and are removed from the result (they are garbage, not
// structure, as for the other kernels).
#define TXFOLD_WHITESPACE_TABLE ' ', 100, 100, 100, 17, 100, 113, 2, 100, '\t', '\n', 112, 100, '\r', 100, 100
#define TXFOLD_OP_TABLE 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void classify_avx2(
    const uint8_t *block, block_classes *classes) {
  const __m256i whitespace_table = _mm256_setr_epi8(TXFOLD_WHITESPACE_TABLE, TXFOLD_WHITESPACE_TABLE);
  const __m256i op_table = _mm256_setr_epi8(TXFOLD_OP_TABLE, TXFOLD_OP_TABLE);
  block_classes c = {0, 0, 0, 0, 0, 0};
  __m256i v[2], backslash[2];
  uint64_t rare = 0;
  for (int part = 0; part < 2; part++) {
    v[part] = _mm256_loadu_si256((const __m256i *)(block + 32 * part));
    backslash[part] = _mm256_cmpeq_epi8(v[part], _mm256_set1_epi8('\\'));
    const __m256i folded = _mm256_or_si256(v[part], _mm256_set1_epi8(TXFOLD_CASE_BIT));
#define TXFOLD_MASK32(x) movemask32((x), part)
    c.quote |= TXFOLD_MASK32(_mm256_cmpeq_epi8(v[part], _mm256_set1_epi8('"')));
    c.op |= TXFOLD_MASK32(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(op_table, v[part]), folded));
    c.whitespace |= TXFOLD_MASK32(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(whitespace_table, v[part]), v[part]));
    // Signed: bytes above 0x7F are negative, so this is "below 0x20 or above 0x7F", or a backslash.
    rare |= TXFOLD_MASK32(_mm256_or_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v[part]), backslash[part]));
  }
  // Most blocks of a minified record have no backslash, control byte or byte above 0x7F: one
  // mask finds whether a block has any, and only then are they told apart (two movemasks a half
  // fewer on the common block).
  if (rare) {
    for (int part = 0; part < 2; part++) {
      c.backslash |= TXFOLD_MASK32(backslash[part]);
      c.high |= TXFOLD_MASK32(v[part]);
    }
    c.control = rare & ~(c.backslash | c.high);
    c.op &= ~c.control;
  }
#undef TXFOLD_MASK32
  *classes = c;
}

__attribute__((target("avx512f,avx512bw"))) static inline __attribute__((always_inline)) void classify_avx512_vector(
    __m512i v, block_classes *classes) {
  const __m512i whitespace_table = _mm512_broadcast_i32x4(_mm_setr_epi8(TXFOLD_WHITESPACE_TABLE));
  const __m512i op_table = _mm512_broadcast_i32x4(_mm_setr_epi8(TXFOLD_OP_TABLE));
  const __m512i folded = _mm512_or_si512(v, _mm512_set1_epi8(TXFOLD_CASE_BIT));
  classes->quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
  classes->backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  classes->control = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
  classes->op = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(op_table, v), folded) & ~classes->control;
  classes->whitespace = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(whitespace_table, v), v);
  classes->high = _mm512_movepi8_mask(v);
}

__attribute__((target("avx512f,avx512bw"))) static inline __attribute__((always_inline)) void classify_avx512(
    const uint8_t *block, block_classes *classes) {
  classify_avx512_vector(_mm512_loadu_si512((const void *)block), classes);
}

/// The last `count` (< 64) bytes with spaces after them, by a masked load: the
/// masked-off bytes are not read, so nothing past the record is touched.
__attribute__((target("avx512f,avx512bw"))) static inline __attribute__((always_inline)) void classify_tail_avx512(
    const uint8_t *bytes, size_t count, block_classes *classes) {
  const __mmask64 present = (1ULL << count) - 1;
  classify_avx512_vector(_mm512_mask_loadu_epi8(_mm512_set1_epi8(' '), present, bytes), classes);
}
#endif

#ifdef TXFOLD_NEON
// The NEON kernel follows simdjson's arm64 stage 1 (include/simdjson/arm64 in
// github.com/simdjson/simdjson) in two ideas, written anew here:
//  - structural characters and whitespace are found with two 16-entry table
//    look-ups (`vqtbl1q_u8`), one by each byte's low nibble and one by its
//    high nibble; a byte is in a class when the class's bit is set in both
//    entries. Each class below is exactly the set of bytes whose high nibble
//    is in its high-nibble set and whose low nibble is in its low-nibble set
//    (brackets and braces: {5, 7} x {B, D}), so no other byte matches: unlike
//    the x86 tables, 0x0C and 0x1A never look like `,` or `:` and need no
//    removing. Bytes above 0x7F have a high nibble whose entry is 0.
//  - NEON has no movemask: a 64-bit mask is made from four 16-lane comparison
//    results by keeping in each lane the weight of its bit (1, 2, 4, … 128,
//    twice per vector) and summing neighbouring lanes with pairwise additions
//    (`vpaddq_u8`) until each byte holds eight lanes' bits.
#define TXFOLD_NEON_BRACKET 0x01    // [ ] { }
#define TXFOLD_NEON_COLON 0x02      // :
#define TXFOLD_NEON_COMMA 0x04      // ,
#define TXFOLD_NEON_SPACE 0x08      // space
#define TXFOLD_NEON_TAB_LF_CR 0x10  // tab, line feed, carriage return
#define TXFOLD_NEON_OP (TXFOLD_NEON_BRACKET | TXFOLD_NEON_COLON | TXFOLD_NEON_COMMA)
#define TXFOLD_NEON_WHITESPACE (TXFOLD_NEON_SPACE | TXFOLD_NEON_TAB_LF_CR)

/// Per low nibble: the classes that have a byte with that low nibble.
static const uint8_t txfold_neon_low_nibble_classes[16] = {
    [0x0] = TXFOLD_NEON_SPACE,                          // 0x20
    [0x9] = TXFOLD_NEON_TAB_LF_CR,                      // 0x09
    [0xA] = TXFOLD_NEON_TAB_LF_CR | TXFOLD_NEON_COLON,  // 0x0A, 0x3A
    [0xB] = TXFOLD_NEON_BRACKET,                        // 0x5B, 0x7B
    [0xC] = TXFOLD_NEON_COMMA,                          // 0x2C
    [0xD] = TXFOLD_NEON_TAB_LF_CR | TXFOLD_NEON_BRACKET,  // 0x0D, 0x5D, 0x7D
};

/// Per high nibble: the classes that have a byte with that high nibble.
static const uint8_t txfold_neon_high_nibble_classes[16] = {
    [0x0] = TXFOLD_NEON_TAB_LF_CR,                    // 0x09, 0x0A, 0x0D
    [0x2] = TXFOLD_NEON_SPACE | TXFOLD_NEON_COMMA,    // 0x20, 0x2C
    [0x3] = TXFOLD_NEON_COLON,                        // 0x3A
    [0x5] = TXFOLD_NEON_BRACKET,                      // 0x5B, 0x5D
    [0x7] = TXFOLD_NEON_BRACKET,                      // 0x7B, 0x7D
};

/// Each lane's bit weight within its half of the vector.
static const uint8_t txfold_neon_bit_weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};

/// Four comparison results (lanes all ones or zero) summed into 16 bytes:
/// byte i holds the bits of lanes 4i to 4i + 3 of the 64, at their weights.
static inline __attribute__((always_inline)) uint8x16_t neon_partial_mask(const uint8x16_t lanes[4]) {
  const uint8x16_t weights = vld1q_u8(txfold_neon_bit_weights);
  const uint8x16_t low = vpaddq_u8(vandq_u8(lanes[0], weights), vandq_u8(lanes[1], weights));
  const uint8x16_t high = vpaddq_u8(vandq_u8(lanes[2], weights), vandq_u8(lanes[3], weights));
  return vpaddq_u8(low, high);
}

/// Two 64-lane comparison results as two 64-bit masks; one last pairwise
/// addition finishes both.
static inline __attribute__((always_inline)) void neon_masks(const uint8x16_t first[4], const uint8x16_t second[4],
                                                             uint64_t *first_mask, uint64_t *second_mask) {
  const uint64x2_t masks = vreinterpretq_u64_u8(vpaddq_u8(neon_partial_mask(first), neon_partial_mask(second)));
  *first_mask = vgetq_lane_u64(masks, 0);
  *second_mask = vgetq_lane_u64(masks, 1);
}

static inline __attribute__((always_inline)) void classify_neon(const uint8_t *block, block_classes *classes) {
  const uint8x16_t low_table = vld1q_u8(txfold_neon_low_nibble_classes);
  const uint8x16_t high_table = vld1q_u8(txfold_neon_high_nibble_classes);
  uint8x16_t quote[4], backslash[4], op[4], whitespace[4], control[4], high[4];
  for (int part = 0; part < 4; part++) {
    const uint8x16_t v = vld1q_u8(block + 16 * part);
    const uint8x16_t found = vandq_u8(vqtbl1q_u8(low_table, vandq_u8(v, vdupq_n_u8(0x0F))),
                                      vqtbl1q_u8(high_table, vshrq_n_u8(v, 4)));
    quote[part] = vceqq_u8(v, vdupq_n_u8('"'));
    backslash[part] = vceqq_u8(v, vdupq_n_u8('\\'));
    op[part] = vtstq_u8(found, vdupq_n_u8(TXFOLD_NEON_OP));
    whitespace[part] = vtstq_u8(found, vdupq_n_u8(TXFOLD_NEON_WHITESPACE));
    control[part] = vcltq_u8(v, vdupq_n_u8(0x20));
    high[part] = vcgeq_u8(v, vdupq_n_u8(0x80));
  }
  neon_masks(quote, backslash, &classes->quote, &classes->backslash);
  neon_masks(op, whitespace, &classes->op, &classes->whitespace);
  neon_masks(control, high, &classes->control, &classes->high);
}
#endif

/// Bit i of the result is the XOR of bits 0…i of `bits`.
static inline __attribute__((always_inline)) uint64_t prefix_xor(uint64_t bits) {
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
}

/// The bytes escaped by a backslash. Backslashes are rare in transaction
/// data, so a loop over them (clear and obviously right) beats the branch-free
/// carry trick.
static inline __attribute__((always_inline)) uint64_t escaped_bytes(uint64_t backslash, uint64_t *carry) {
  uint64_t escaped = *carry;
  *carry = 0;
  // A backslash that is itself escaped escapes nothing.
  uint64_t escapes = backslash & ~escaped;
  while (escapes) {
    const int at = __builtin_ctzll(escapes);
    if (at == 63) {
      *carry = 1;
      break;
    }
    escaped |= 2ULL << at;
    escapes &= ~(3ULL << at);
  }
  return escaped;
}

/// The index of the lowest set bit, 64 when none is.
static inline __attribute__((always_inline)) uint32_t lowest_bit(uint64_t bits) {
  return bits ? (uint32_t)__builtin_ctzll(bits) : 64;
}

/// Writes `base` plus the position of every set bit of `bits` to `out`, in
/// increasing order; returns how many. Writes in groups of four without a
/// branch per bit, so it may write up to three entries past the last one
/// (hence the slack the header asks for).
static inline __attribute__((always_inline)) size_t flatten(uint64_t bits, uint32_t base, uint32_t *out) {
  const size_t count = (size_t)__builtin_popcountll(bits);
  while (bits) {
    out[0] = base + lowest_bit(bits);
    bits &= bits - 1;
    out[1] = base + lowest_bit(bits);
    bits &= bits - 1;
    out[2] = base + lowest_bit(bits);
    bits &= bits - 1;
    out[3] = base + lowest_bit(bits);
    bits &= bits - 1;
    out += 4;
  }
  return count;
}

/// `flatten` for a block's tokens, which are dense (about a dozen a block in
/// transaction records): eight entries written whatever the count, eight
/// more when there are more, then `flatten`'s loop. `flatten` ends its loop
/// on a branch that mispredicts about once a block; the branches on the
/// count here are mostly taken the same way. The writes past the count land
/// on `base + 63` (bit 63 is set as a floor, which also keeps `ctz` from
/// being asked of zero), at most 15 past the last entry: within the slack.
static inline __attribute__((always_inline)) size_t flatten_dense(uint64_t bits, uint32_t base, uint32_t *out) {
  const size_t count = (size_t)__builtin_popcountll(bits);
  const uint64_t floor = 1ULL << 63;
  // The empty `asm` makes each position opaque, so that clang keeps the
  // steps scalar: it otherwise vectorised the eight `ctz` as a popcount per
  // lane, which was slower.
  for (int index = 0; index < 8; index++) {
    uint32_t position = (uint32_t)__builtin_ctzll(bits | floor);
    __asm__("" : "+r"(position));
    out[index] = base + position;
    bits &= bits - 1;
  }
  if (count > 8) {
    for (int index = 8; index < 16; index++) {
      uint32_t position = (uint32_t)__builtin_ctzll(bits | floor);
      __asm__("" : "+r"(position));
      out[index] = base + position;
      bits &= bits - 1;
    }
    if (count > 16) flatten(bits, base, out + 16);
  }
  return count;
}

#ifdef TXFOLD_X86
/// For each byte value, the positions of its set bits, lowest first, one per
/// byte of the entry (unused bytes zero): what `flatten_avx2` widens.
static const uint64_t byte_bit_positions[256] = {
    0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000001ULL, 0x0000000000000100ULL,
    0x0000000000000002ULL, 0x0000000000000200ULL, 0x0000000000000201ULL, 0x0000000000020100ULL,
    0x0000000000000003ULL, 0x0000000000000300ULL, 0x0000000000000301ULL, 0x0000000000030100ULL,
    0x0000000000000302ULL, 0x0000000000030200ULL, 0x0000000000030201ULL, 0x0000000003020100ULL,
    0x0000000000000004ULL, 0x0000000000000400ULL, 0x0000000000000401ULL, 0x0000000000040100ULL,
    0x0000000000000402ULL, 0x0000000000040200ULL, 0x0000000000040201ULL, 0x0000000004020100ULL,
    0x0000000000000403ULL, 0x0000000000040300ULL, 0x0000000000040301ULL, 0x0000000004030100ULL,
    0x0000000000040302ULL, 0x0000000004030200ULL, 0x0000000004030201ULL, 0x0000000403020100ULL,
    0x0000000000000005ULL, 0x0000000000000500ULL, 0x0000000000000501ULL, 0x0000000000050100ULL,
    0x0000000000000502ULL, 0x0000000000050200ULL, 0x0000000000050201ULL, 0x0000000005020100ULL,
    0x0000000000000503ULL, 0x0000000000050300ULL, 0x0000000000050301ULL, 0x0000000005030100ULL,
    0x0000000000050302ULL, 0x0000000005030200ULL, 0x0000000005030201ULL, 0x0000000503020100ULL,
    0x0000000000000504ULL, 0x0000000000050400ULL, 0x0000000000050401ULL, 0x0000000005040100ULL,
    0x0000000000050402ULL, 0x0000000005040200ULL, 0x0000000005040201ULL, 0x0000000504020100ULL,
    0x0000000000050403ULL, 0x0000000005040300ULL, 0x0000000005040301ULL, 0x0000000504030100ULL,
    0x0000000005040302ULL, 0x0000000504030200ULL, 0x0000000504030201ULL, 0x0000050403020100ULL,
    0x0000000000000006ULL, 0x0000000000000600ULL, 0x0000000000000601ULL, 0x0000000000060100ULL,
    0x0000000000000602ULL, 0x0000000000060200ULL, 0x0000000000060201ULL, 0x0000000006020100ULL,
    0x0000000000000603ULL, 0x0000000000060300ULL, 0x0000000000060301ULL, 0x0000000006030100ULL,
    0x0000000000060302ULL, 0x0000000006030200ULL, 0x0000000006030201ULL, 0x0000000603020100ULL,
    0x0000000000000604ULL, 0x0000000000060400ULL, 0x0000000000060401ULL, 0x0000000006040100ULL,
    0x0000000000060402ULL, 0x0000000006040200ULL, 0x0000000006040201ULL, 0x0000000604020100ULL,
    0x0000000000060403ULL, 0x0000000006040300ULL, 0x0000000006040301ULL, 0x0000000604030100ULL,
    0x0000000006040302ULL, 0x0000000604030200ULL, 0x0000000604030201ULL, 0x0000060403020100ULL,
    0x0000000000000605ULL, 0x0000000000060500ULL, 0x0000000000060501ULL, 0x0000000006050100ULL,
    0x0000000000060502ULL, 0x0000000006050200ULL, 0x0000000006050201ULL, 0x0000000605020100ULL,
    0x0000000000060503ULL, 0x0000000006050300ULL, 0x0000000006050301ULL, 0x0000000605030100ULL,
    0x0000000006050302ULL, 0x0000000605030200ULL, 0x0000000605030201ULL, 0x0000060503020100ULL,
    0x0000000000060504ULL, 0x0000000006050400ULL, 0x0000000006050401ULL, 0x0000000605040100ULL,
    0x0000000006050402ULL, 0x0000000605040200ULL, 0x0000000605040201ULL, 0x0000060504020100ULL,
    0x0000000006050403ULL, 0x0000000605040300ULL, 0x0000000605040301ULL, 0x0000060504030100ULL,
    0x0000000605040302ULL, 0x0000060504030200ULL, 0x0000060504030201ULL, 0x0006050403020100ULL,
    0x0000000000000007ULL, 0x0000000000000700ULL, 0x0000000000000701ULL, 0x0000000000070100ULL,
    0x0000000000000702ULL, 0x0000000000070200ULL, 0x0000000000070201ULL, 0x0000000007020100ULL,
    0x0000000000000703ULL, 0x0000000000070300ULL, 0x0000000000070301ULL, 0x0000000007030100ULL,
    0x0000000000070302ULL, 0x0000000007030200ULL, 0x0000000007030201ULL, 0x0000000703020100ULL,
    0x0000000000000704ULL, 0x0000000000070400ULL, 0x0000000000070401ULL, 0x0000000007040100ULL,
    0x0000000000070402ULL, 0x0000000007040200ULL, 0x0000000007040201ULL, 0x0000000704020100ULL,
    0x0000000000070403ULL, 0x0000000007040300ULL, 0x0000000007040301ULL, 0x0000000704030100ULL,
    0x0000000007040302ULL, 0x0000000704030200ULL, 0x0000000704030201ULL, 0x0000070403020100ULL,
    0x0000000000000705ULL, 0x0000000000070500ULL, 0x0000000000070501ULL, 0x0000000007050100ULL,
    0x0000000000070502ULL, 0x0000000007050200ULL, 0x0000000007050201ULL, 0x0000000705020100ULL,
    0x0000000000070503ULL, 0x0000000007050300ULL, 0x0000000007050301ULL, 0x0000000705030100ULL,
    0x0000000007050302ULL, 0x0000000705030200ULL, 0x0000000705030201ULL, 0x0000070503020100ULL,
    0x0000000000070504ULL, 0x0000000007050400ULL, 0x0000000007050401ULL, 0x0000000705040100ULL,
    0x0000000007050402ULL, 0x0000000705040200ULL, 0x0000000705040201ULL, 0x0000070504020100ULL,
    0x0000000007050403ULL, 0x0000000705040300ULL, 0x0000000705040301ULL, 0x0000070504030100ULL,
    0x0000000705040302ULL, 0x0000070504030200ULL, 0x0000070504030201ULL, 0x0007050403020100ULL,
    0x0000000000000706ULL, 0x0000000000070600ULL, 0x0000000000070601ULL, 0x0000000007060100ULL,
    0x0000000000070602ULL, 0x0000000007060200ULL, 0x0000000007060201ULL, 0x0000000706020100ULL,
    0x0000000000070603ULL, 0x0000000007060300ULL, 0x0000000007060301ULL, 0x0000000706030100ULL,
    0x0000000007060302ULL, 0x0000000706030200ULL, 0x0000000706030201ULL, 0x0000070603020100ULL,
    0x0000000000070604ULL, 0x0000000007060400ULL, 0x0000000007060401ULL, 0x0000000706040100ULL,
    0x0000000007060402ULL, 0x0000000706040200ULL, 0x0000000706040201ULL, 0x0000070604020100ULL,
    0x0000000007060403ULL, 0x0000000706040300ULL, 0x0000000706040301ULL, 0x0000070604030100ULL,
    0x0000000706040302ULL, 0x0000070604030200ULL, 0x0000070604030201ULL, 0x0007060403020100ULL,
    0x0000000000070605ULL, 0x0000000007060500ULL, 0x0000000007060501ULL, 0x0000000706050100ULL,
    0x0000000007060502ULL, 0x0000000706050200ULL, 0x0000000706050201ULL, 0x0000070605020100ULL,
    0x0000000007060503ULL, 0x0000000706050300ULL, 0x0000000706050301ULL, 0x0000070605030100ULL,
    0x0000000706050302ULL, 0x0000070605030200ULL, 0x0000070605030201ULL, 0x0007060503020100ULL,
    0x0000000007060504ULL, 0x0000000706050400ULL, 0x0000000706050401ULL, 0x0000070605040100ULL,
    0x0000000706050402ULL, 0x0000070605040200ULL, 0x0000070605040201ULL, 0x0007060504020100ULL,
    0x0000000706050403ULL, 0x0000070605040300ULL, 0x0000070605040301ULL, 0x0007060504030100ULL,
    0x0000070605040302ULL, 0x0007060504030200ULL, 0x0007060504030201ULL, 0x0706050403020100ULL,
};

/// `flatten` with AVX2 and a table: per byte of `bits`, the table's positions
/// of its set bits are widened to eight offsets and stored at once, each
/// byte's eight where the bits below it end. No branch at all, where the
/// scalar loop's exit mispredicts once a block. Each byte is taken off the
/// bottom of a shifted copy and its place is the running sum of the counts
/// before it: two instructions a byte fewer than masking `bits` anew for each.
/// Writes up to 7 entries past the last one.
__attribute__((target("avx2,popcnt"))) static inline __attribute__((always_inline)) size_t
flatten_avx2(uint64_t bits, uint32_t base, uint32_t *out) {
  const size_t count = (size_t)__builtin_popcountll(bits);
  const __m256i step = _mm256_set1_epi32(8);
  __m256i offset = _mm256_set1_epi32((int)base);
  uint64_t rest = bits;
  size_t below = 0;
  for (int part = 0; part < 8; part++) {
    const uint32_t byte = (uint32_t)rest & 0xFF;
    rest >>= 8;
    const __m256i positions = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&byte_bit_positions[byte]));
    _mm256_storeu_si256((__m256i *)(out + below), _mm256_add_epi32(positions, offset));
    below += (size_t)__builtin_popcount(byte);
    offset = _mm256_add_epi32(offset, step);
  }
  return count;
}

/// `prefix_xor` as one carry-less multiply by all ones (simdjson's trick):
/// each bit becomes the XOR of itself and every bit below it.
__attribute__((target("pclmul,sse2"))) static inline __attribute__((always_inline)) uint64_t
prefix_xor_clmul(uint64_t bits) {
  return (uint64_t)_mm_cvtsi128_si64(
      _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)bits), _mm_set1_epi8((char)0xFF), 0));
}
#endif

#ifdef TXFOLD_X86
/// `flatten` with AVX-512 VBMI2: one `vpcompressb` packs the offsets of the set
/// bits into the low bytes of a vector, which are widened and stored sixteen at
/// a time. No branch per bit, and a block's tokens rarely need more than the
/// first store, where the scalar `flatten`'s loop exit mispredicts once a
/// block. Writes up to 15 entries past the last one.
__attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt"))) static inline __attribute__((always_inline)) size_t
flatten_vbmi2(uint64_t bits, uint32_t base, uint32_t *out) {
  if (bits == 0) return 0;
  const size_t count = (size_t)__builtin_popcountll(bits);
  const __m512i offsets = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45,
                                          44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
                                          25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                          5, 4, 3, 2, 1, 0);
  const __m512i packed = _mm512_maskz_compress_epi8(bits, offsets);
  const __m512i add = _mm512_set1_epi32((int)base);
  _mm512_storeu_si512(out, _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(packed)), add));
  if (count > 16) {
    _mm512_storeu_si512(out + 16, _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 1)), add));
    if (count > 32) {
      _mm512_storeu_si512(out + 32, _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 2)), add));
      if (count > 48) {
        _mm512_storeu_si512(out + 48,
                            _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 3)), add));
      }
    }
  }
  return count;
}
#endif

/// Steps 1 to 3 for one classified block; appends its tokens and specials
/// (listed with `flatten_tokens`; specials are rare, so the scalar loop lists them).
#define TXFOLD_DEFINE_INDEX_BLOCK(name, attributes, flatten_tokens, prefix_xor)                                              \
  attributes static inline __attribute__((always_inline)) void name(                                               \
      const block_classes *c, block_state *state, uint32_t base, uint32_t *tokens, size_t *token_count,           \
      uint32_t *specials, size_t *special_count) {                                                                \
    uint64_t escaped = 0;                                                                                          \
    if (c->backslash | state->escape_carry) escaped = escaped_bytes(c->backslash, &state->escape_carry);          \
    const uint64_t quotes = c->quote & ~escaped;                                                                   \
    /* Bit set from an opening quote up to (not including) its closing quote. */                                  \
    const uint64_t in_string = prefix_xor(quotes) ^ state->in_string_carry;                                        \
    state->in_string_carry = (uint64_t)((int64_t)in_string >> 63);                                                 \
    state->control_in_string |= c->control & in_string;                                                            \
                                                                                                                   \
    const uint64_t scalar = ~(c->op | c->whitespace | quotes) & ~in_string;                                        \
    const uint64_t scalar_starts = scalar & ~((scalar << 1) | state->scalar_carry);                                \
    state->scalar_carry = scalar >> 63;                                                                            \
                                                                                                                   \
    *token_count += flatten_tokens((c->op & ~in_string) | quotes | scalar_starts, base, tokens + *token_count);    \
    *special_count += flatten((c->backslash | c->high) & in_string, base, specials + *special_count);             \
  }

TXFOLD_DEFINE_INDEX_BLOCK(index_block, , flatten_dense, prefix_xor)
#ifdef TXFOLD_X86
TXFOLD_DEFINE_INDEX_BLOCK(index_block_avx2, __attribute__((target("avx2,bmi,popcnt,pclmul"))), flatten_avx2,
                          prefix_xor_clmul)
TXFOLD_DEFINE_INDEX_BLOCK(index_block_vbmi2, __attribute__((target("avx512f,avx512bw,avx512vbmi2,bmi,popcnt,pclmul"))),
                          flatten_vbmi2, prefix_xor_clmul)
#endif

/// The last `count` (< 64) bytes, copied before spaces (whitespace adds no token).
#define TXFOLD_DEFINE_PADDED_TAIL(name, attributes, classify)                                                      \
  attributes static inline __attribute__((always_inline)) void name(const uint8_t *bytes, size_t count,            \
                                                                    block_classes *classes) {                     \
    uint8_t tail[64];                                                                                              \
    memset(tail, ' ', sizeof tail);                                                                                \
    memcpy(tail, bytes, count);                                                                                    \
    classify(tail, classes);                                                                                       \
  }

TXFOLD_DEFINE_PADDED_TAIL(classify_tail_portable, , classify_portable)
#ifdef TXFOLD_X86
TXFOLD_DEFINE_PADDED_TAIL(classify_tail_sse2, , classify_sse2)
TXFOLD_DEFINE_PADDED_TAIL(classify_tail_avx2, __attribute__((target("avx2"))), classify_avx2)
#endif
#ifdef TXFOLD_NEON
TXFOLD_DEFINE_PADDED_TAIL(classify_tail_neon, , classify_neon)
#endif

/// Turns the classes of the 64 bytes that end a record into those of its
/// last `count` (< 64) bytes, moved down to bit 0, with spaces after them
/// (whitespace adds no token): a record of 64 bytes or more classifies its
/// tail as the whole block ending at its last byte, read in place, rather
/// than copying the tail out. The copy cost a stall per record: the vector
/// load of bytes just stored one at a time cannot be forwarded from the stores.
static inline __attribute__((always_inline)) void keep_last(block_classes *c, size_t count) {
  const unsigned shift = (unsigned)(64 - count);
  c->quote >>= shift;
  c->backslash >>= shift;
  c->op >>= shift;
  c->whitespace = (c->whitespace >> shift) | ~((1ULL << count) - 1);
  c->control >>= shift;
  c->high >>= shift;
}

// One function per kernel, so each is compiled for its own instruction set and
// the classification inlines into the loop.
// `tail_masked_load`: the kernel's `classify_tail` reads the tail in place already (AVX-512's masked load).
#define TXFOLD_DEFINE_INDEX(name, attributes, classify, classify_tail, tail_masked_load, index_block)              \
  attributes static size_t name(const uint8_t *bytes, size_t length, uint32_t *tokens, uint32_t *specials,          \
                                size_t *special_count, uint32_t *flags) {                                         \
    block_state state = {0, 0, 0, 0};                                                                              \
    size_t token_count = 0;                                                                                        \
    /* Counted in a local, not through the pointer: a store through it each block. */                            \
    size_t found_specials = 0;                                                                                     \
    block_classes classes;                                                                                         \
    size_t offset = 0;                                                                                             \
    for (; offset + 64 <= length; offset += 64) {                                                                  \
      classify(bytes + offset, &classes);                                                                          \
      index_block(&classes, &state, (uint32_t)offset, tokens, &token_count, specials, &found_specials);           \
    }                                                                                                              \
    if (offset < length) {                                                                                         \
      if (length >= 64 && !(tail_masked_load)) {                                                                   \
        classify(bytes + length - 64, &classes);                                                                   \
        keep_last(&classes, length - offset);                                                                      \
      } else {                                                                                                     \
        classify_tail(bytes + offset, length - offset, &classes);                                                  \
      }                                                                                                            \
      index_block(&classes, &state, (uint32_t)offset, tokens, &token_count, specials, &found_specials);           \
    }                                                                                                              \
    *special_count = found_specials;                                                                               \
    *flags = (state.control_in_string ? TXFOLD_JSON_INDEX_CONTROL_IN_STRING : 0) |                                 \
             (state.in_string_carry ? TXFOLD_JSON_INDEX_UNTERMINATED_STRING : 0);                                  \
    return token_count;                                                                                            \
  }

TXFOLD_DEFINE_INDEX(index_portable, , classify_portable, classify_tail_portable, 0, index_block)
#ifdef TXFOLD_X86
TXFOLD_DEFINE_INDEX(index_sse2, , classify_sse2, classify_tail_sse2, 0, index_block)
TXFOLD_DEFINE_INDEX(index_avx2, __attribute__((target("avx2,bmi,popcnt,pclmul"))), classify_avx2,
                    classify_tail_avx2, 0, index_block_avx2)
TXFOLD_DEFINE_INDEX(index_avx512, __attribute__((target("avx512f,avx512bw,avx2,bmi,popcnt,pclmul"))), classify_avx512,
                    classify_tail_avx512, 1, index_block_avx2)
TXFOLD_DEFINE_INDEX(index_avx512_vbmi2, __attribute__((target("avx512f,avx512bw,avx512vbmi2,bmi,popcnt,pclmul"))),
                    classify_avx512, classify_tail_avx512, 1, index_block_vbmi2)
#endif
#ifdef TXFOLD_NEON
TXFOLD_DEFINE_INDEX(index_neon, , classify_neon, classify_tail_neon, 0, index_block)
#endif

#ifdef TXFOLD_X86
/* TXFOLD_MAX_KERNEL=portable|sse2|avx2|avx512 caps the kernel `best` picks on x86 (a kernel
   the CPU lacks is never chosen): to measure on a wide CPU what a narrower one runs, such as the
   AVX2 path on a machine with AVX-512. Read when a kernel is chosen. Any other value, or none, leaves
   the choice to the CPU. */
static int kernel_cap(void) {
  const char *cap = getenv("TXFOLD_MAX_KERNEL");
  if (cap == NULL) return 1 << 20;
  if (strcmp(cap, "portable") == 0) return TXFOLD_JSON_INDEX_KERNEL_PORTABLE;
  if (strcmp(cap, "sse2") == 0) return TXFOLD_JSON_INDEX_KERNEL_SSE2;
  if (strcmp(cap, "avx2") == 0) return TXFOLD_JSON_INDEX_KERNEL_AVX2;
  if (strcmp(cap, "avx512") == 0) return TXFOLD_JSON_INDEX_KERNEL_AVX512;
  return 1 << 20;
}
#endif

static int cpu_best_kernel(void) {
#ifdef TXFOLD_X86
  __builtin_cpu_init();
  // The wide kernels also use BMI's tzcnt and popcnt, which every CPU with AVX2 has in practice; checked anyway.
  // The AVX2 and AVX-512 kernels also use pclmul for the in-string mask; every CPU with AVX2 has it too.
  const int bit_tricks =
      __builtin_cpu_supports("bmi") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("pclmul");
  if (bit_tricks && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f")) {
    return __builtin_cpu_supports("avx512vbmi2") ? TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2
                                                 : TXFOLD_JSON_INDEX_KERNEL_AVX512;
  }
  if (bit_tricks && __builtin_cpu_supports("avx2")) return TXFOLD_JSON_INDEX_KERNEL_AVX2;
  return TXFOLD_JSON_INDEX_KERNEL_SSE2;
#elif defined(TXFOLD_NEON)
  return TXFOLD_JSON_INDEX_KERNEL_NEON;
#else
  return TXFOLD_JSON_INDEX_KERNEL_PORTABLE;
#endif
}

int txfold_json_index_best_kernel(void) {
  const int best = cpu_best_kernel();
#ifdef TXFOLD_X86
  const int cap = kernel_cap();
  return best < cap ? best : cap;
#else
  return best;
#endif
}

#ifdef TXFOLD_X86
/// `kernel`, or the best this CPU runs (under `TXFOLD_MAX_KERNEL`) where that is lower.
static int runnable_kernel(int kernel) {
  // Found once; a race here only repeats the same answer.
  static int best_kernel = -1;
  int best = __atomic_load_n(&best_kernel, __ATOMIC_RELAXED);
  if (best < 0) {
    best = txfold_json_index_best_kernel();
    __atomic_store_n(&best_kernel, best, __ATOMIC_RELAXED);
  }
  return kernel > best ? best : kernel;
}
#endif

size_t txfold_json_index(const uint8_t *bytes, size_t length, uint32_t *tokens, uint32_t *specials,
                         size_t *special_count, uint32_t *flags, int kernel) {
#ifdef TXFOLD_X86
  switch (runnable_kernel(kernel)) {
    case TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2:
      return index_avx512_vbmi2(bytes, length, tokens, specials, special_count, flags);
    case TXFOLD_JSON_INDEX_KERNEL_AVX512:
      return index_avx512(bytes, length, tokens, specials, special_count, flags);
    case TXFOLD_JSON_INDEX_KERNEL_AVX2:
      return index_avx2(bytes, length, tokens, specials, special_count, flags);
    case TXFOLD_JSON_INDEX_KERNEL_SSE2:
      return index_sse2(bytes, length, tokens, specials, special_count, flags);
    default:
      break;
  }
#elif defined(TXFOLD_NEON)
  // NEON is the only vector kernel on arm64: any other asked for runs as it.
  if (kernel != TXFOLD_JSON_INDEX_KERNEL_PORTABLE) {
    return index_neon(bytes, length, tokens, specials, special_count, flags);
  }
#else
  (void)kernel;
#endif
  return index_portable(bytes, length, tokens, specials, special_count, flags);
}


// MARK: The document walker's skim

/// `txfold_json_skim`'s grammar states: `DocumentWalker.Expect`'s raw values.
enum { SKIM_VALUE = 0, SKIM_FIRST_VALUE = 1, SKIM_KEY = 2, SKIM_FIRST_KEY = 3, SKIM_COLON = 4, SKIM_COMMA_OR_CLOSE = 5 };

/// The bits above bit `at` (< 64).
static inline __attribute__((always_inline)) uint64_t bits_above(uint32_t at) { return at >= 63 ? 0 : ~0ULL << (at + 1); }

/// The bits below bit `at` (<= 64).
static inline __attribute__((always_inline)) uint64_t bits_below(uint32_t at) {
  return at >= 64 ? ~0ULL : (1ULL << at) - 1;
}

/// What the skim carries from one block to the next.
typedef struct {
  int32_t depth;
  int32_t deepest;
  int expect;
  uint64_t escape_carry;
  uint64_t in_string_carry;
  uint64_t scalar_carry;
  /// The string or scalar still open at the end of the last block (SIZE_MAX when none), whether it
  /// is a string, and the grammar state before it: a stop inside it stops at its start.
  size_t open_start;
  int open_is_string;
  int open_expect;
  int open_line_start;
  /// No byte but blank space seen since the last line feed crossed; the line feeds crossed.
  int line_start;
  size_t lines;
  size_t last_line_feed;
} skim_walk;

/// Walks one block of the skim (`valid`: its bits before the skim's end). Returns 1 when the
/// skim stops, with `*stop` where.
static inline __attribute__((always_inline)) int skim_block(const uint8_t *bytes, size_t block,
                                                            const block_classes *c, uint64_t valid,
                                                            const txfold_skim_state *limits, uint8_t *is_object,
                                                            skim_walk *w, size_t *stop) {
  const uint64_t escaped = escaped_bytes(c->backslash & valid, &w->escape_carry);
  const uint64_t quotes = c->quote & ~escaped & valid;
  const uint64_t in_string = prefix_xor(quotes) ^ w->in_string_carry;
  w->in_string_carry = (uint64_t)((int64_t)in_string >> 63);
  const uint64_t opening = quotes & in_string;
  const uint64_t closing = quotes & ~in_string;
  const uint64_t scalar = ~(c->whitespace | c->op | c->quote) & valid & ~in_string;
  const uint64_t scalar_start = scalar & ~((scalar << 1) | w->scalar_carry);
  w->scalar_carry = scalar >> 63;
  const uint64_t string_control = c->control & in_string & valid;
  const uint64_t backslash = c->backslash & valid;
  if (w->open_start != SIZE_MAX) {
    // The string or scalar open at the last block's end goes on to its closing quote or first
    // byte that no scalar has.
    const uint32_t end = lowest_bit(w->open_is_string ? closing : ~scalar & valid);
    const uint64_t inside = bits_below(end) & valid;
    if ((w->open_is_string ? string_control : backslash) & inside) {
      *stop = w->open_start;
      w->expect = w->open_expect;
      w->line_start = w->open_line_start;
      return 1;
    }
    if (end == 64) return 0;
    w->open_start = SIZE_MAX;
  }
  // Tab, line feed and carriage return outside strings are told apart by reading the byte.
  uint64_t events = ((c->op | (c->whitespace & c->control)) & valid & ~in_string) | opening | scalar_start;
  int expect = w->expect;
  int32_t depth = w->depth;
  int line_start = w->line_start;
  while (events) {
    const uint32_t at = (uint32_t)__builtin_ctzll(events);
    events &= events - 1;
    const size_t index = block + at;
    const uint64_t bit = 1ULL << at;
    if (scalar_start & bit) {
      if (expect != SKIM_VALUE && expect != SKIM_FIRST_VALUE) goto stopped;
      const uint32_t end = lowest_bit(~scalar & bits_above(at) & valid);
      // A backslash outside strings would throw the escape state off: the byte loop takes it.
      if (backslash & ~bits_below(at) & bits_below(end)) goto stopped;
      if (end == 64) {
        w->open_start = index;
        w->open_is_string = 0;
        w->open_expect = expect;
        w->open_line_start = line_start;
      }
      expect = SKIM_COMMA_OR_CLOSE;
    } else if (opening & bit) {
      if (expect == SKIM_COLON || expect == SKIM_COMMA_OR_CLOSE) goto stopped;
      const uint32_t end = lowest_bit(closing & bits_above(at));
      if (string_control & bits_above(at) & bits_below(end)) goto stopped;
      if (end == 64) {
        w->open_start = index;
        w->open_is_string = 1;
        w->open_expect = expect;
        w->open_line_start = line_start;
      }
      expect = expect == SKIM_KEY || expect == SKIM_FIRST_KEY ? SKIM_COLON : SKIM_COMMA_OR_CLOSE;
    } else {
      const uint8_t byte = bytes[index];
      // A line starting with one of these may be the next element (`,` written comma-first) or the
      // array's end: the walker decides.
      if (line_start && (byte == '{' || byte == '[' || byte == ']' || byte == ',')) goto stopped;
      switch (byte) {
        case ':':
          if (expect != SKIM_COLON) goto stopped;
          expect = SKIM_VALUE;
          break;
        case ',':
          if (expect != SKIM_COMMA_OR_CLOSE) goto stopped;
          expect = is_object[depth] ? SKIM_KEY : SKIM_VALUE;
          break;
        case '{':
        case '[':
          if ((expect != SKIM_VALUE && expect != SKIM_FIRST_VALUE) || depth + 1 >= limits->tracked_depth) goto stopped;
          depth += 1;
          if (depth > w->deepest) w->deepest = depth;
          is_object[depth] = byte == '{';
          expect = byte == '{' ? SKIM_FIRST_KEY : SKIM_FIRST_VALUE;
          break;
        case '}':
        case ']': {
          const int object = is_object[depth] != 0;
          if ((byte == '}') != object || depth - 1 <= limits->record_depth ||
              (expect != SKIM_COMMA_OR_CLOSE && expect != (object ? SKIM_FIRST_KEY : SKIM_FIRST_VALUE)))
            goto stopped;
          depth -= 1;
          expect = SKIM_COMMA_OR_CLOSE;
          break;
        }
        case '\t':
        case '\r':
          continue;
        default:  // the line feed
          if (!limits->cross_lines) goto stopped;
          w->lines += 1;
          w->last_line_feed = index;
          line_start = 1;
          continue;
      }
    }
    line_start = 0;
    continue;
  stopped:
    w->expect = expect;
    w->depth = depth;
    w->line_start = line_start;
    *stop = index;
    return 1;
  }
  w->expect = expect;
  w->depth = depth;
  w->line_start = line_start;
  return 0;
}

// One function per kernel, as for the index. Only whole blocks are classified in place; the last
// block is the one ending at `to`, shifted down, when 64 bytes end there, else a padded copy.
#define TXFOLD_DEFINE_SKIM(name, attributes, classify, classify_tail)                                              \
  attributes static size_t name(const uint8_t *bytes, size_t from, size_t to, txfold_skim_state *state,            \
                                uint8_t *is_object) {                                                             \
    skim_walk w = {state->depth, state->depth, state->expect, 0, 0, 0, SIZE_MAX, 0, 0, 0, 0, 0, 0};                            \
    size_t stop = to;                                                                                              \
    block_classes c;                                                                                               \
    size_t block = from;                                                                                           \
    int stopped = 0;                                                                                               \
    for (; block + 64 <= to; block += 64) {                                                                        \
      classify(bytes + block, &c);                                                                                 \
      if (skim_block(bytes, block, &c, ~0ULL, state, is_object, &w, &stop)) {                                      \
        stopped = 1;                                                                                               \
        break;                                                                                                     \
      }                                                                                                            \
    }                                                                                                              \
    if (!stopped && block < to) {                                                                                  \
      const size_t count = to - block;                                                                             \
      if (to >= 64) {                                                                                              \
        classify(bytes + to - 64, &c);                                                                             \
        keep_last(&c, count);                                                                                      \
      } else {                                                                                                     \
        classify_tail(bytes + block, count, &c);                                                                   \
      }                                                                                                            \
      stopped = skim_block(bytes, block, &c, (1ULL << count) - 1, state, is_object, &w, &stop);                    \
    }                                                                                                              \
    if (!stopped && w.open_start != SIZE_MAX) {                                                                    \
      /* A string or scalar the end cuts: the byte loop stops at its start. */                                    \
      stop = w.open_start;                                                                                         \
      w.expect = w.open_expect;                                                                                    \
      w.line_start = w.open_line_start;                                                                            \
    }                                                                                                              \
    state->lines = w.lines;                                                                                        \
    state->last_line_feed = w.last_line_feed;                                                                      \
    state->at_line_start = (uint8_t)w.line_start;                                                                  \
    state->depth = w.depth;                                                                                        \
    state->deepest = w.deepest;                                                                                    \
    state->expect = (uint8_t)w.expect;                                                                             \
    return stop;                                                                                                   \
  }

TXFOLD_DEFINE_SKIM(skim_portable, , classify_portable, classify_tail_portable)
#ifdef TXFOLD_X86
TXFOLD_DEFINE_SKIM(skim_sse2, , classify_sse2, classify_tail_sse2)
TXFOLD_DEFINE_SKIM(skim_avx2, __attribute__((target("avx2,bmi,popcnt"))), classify_avx2, classify_tail_avx2)
TXFOLD_DEFINE_SKIM(skim_avx512, __attribute__((target("avx512f,avx512bw,avx2,bmi,popcnt"))), classify_avx512,
                   classify_tail_avx512)
#endif
#ifdef TXFOLD_NEON
TXFOLD_DEFINE_SKIM(skim_neon, , classify_neon, classify_tail_neon)
#endif

size_t txfold_json_skim(const uint8_t *bytes, size_t from, size_t to, txfold_skim_state *state, uint8_t *is_object,
                        int kernel) {
#ifdef TXFOLD_X86
  switch (runnable_kernel(kernel)) {
    // VBMI2 only lists tokens faster; the skim lists none.
    case TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2:
    case TXFOLD_JSON_INDEX_KERNEL_AVX512:
      return skim_avx512(bytes, from, to, state, is_object);
    case TXFOLD_JSON_INDEX_KERNEL_AVX2:
      return skim_avx2(bytes, from, to, state, is_object);
    case TXFOLD_JSON_INDEX_KERNEL_SSE2:
      return skim_sse2(bytes, from, to, state, is_object);
    default:
      break;
  }
#elif defined(TXFOLD_NEON)
  if (kernel != TXFOLD_JSON_INDEX_KERNEL_PORTABLE) return skim_neon(bytes, from, to, state, is_object);
#else
  (void)kernel;
#endif
  return skim_portable(bytes, from, to, state, is_object);
}
