// metrale/parse.h: the one strict parser of every number a user gives metrale (CLI flags,
// pass options, option strings such as kv-pool= and util=). Thread-safe: pure functions.
//
// The rule, the same everywhere: a whole number is one or more decimal digits and nothing
// else: no sign, no spaces, no "0x", no trailing junk; its value must lie in the
// option's documented range (a value past 2^64 is out of range, never wrapped).
// A fraction (util=) is digits with an optional '.' and more digits, in (0, 1], exact to
// one part per million: a nonzero digit past the sixth decimal is refused, not rounded.
#ifndef METRALE_PARSE_H
#define METRALE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrale/status.h"

// Parses |len| bytes of |s| as a whole number in [min, max].
// MET_EINVAL: not a whole number; MET_EOVERFLOW: outside [min, max] (also past 2^64).
met_status_t met_parse_u64(const char *s, size_t len, uint64_t min, uint64_t max,
                           uint64_t *out);

// Parses a fraction in (0, 1] into parts per million ("0.9" -> 900000).
// MET_EINVAL when malformed or finer than 1 ppm; MET_EOVERFLOW when outside (0, 1].
met_status_t met_parse_ppm(const char *s, size_t len, uint32_t *out);
// What a refused fraction was expected to be (the pass and the command say the same).
#define MET_PPM_EXPECTED "expected a fraction in (0, 1] exact to 6 decimals, such as 0.9"

// Parses a size in bytes: a whole number, or digits with an optional fraction ('.' and up
// to 18 digits) followed by a unit: B, kB (10^3; KB too), MB, GB, TB, PB, or KiB (2^10), MiB,
// GiB, TiB, PiB, case as written. The value must be a whole number of bytes in [min, max]:
// "8MiB" 8388608, "1.5GB" 1500000000, "1.5KiB" 1536; "0.3B", "1.0001KiB" (1024.1024 B),
// "8 MiB", "8mib", "1.5" are refused. MET_EINVAL: malformed or not whole bytes;
// MET_EOVERFLOW: outside [min, max].
met_status_t met_parse_size(const char *s, size_t len, uint64_t min, uint64_t max,
                            uint64_t *out);
#define MET_SIZE_EXPECTED \
  "a size in bytes: digits, with an optional unit (B, kB, MB, GB, TB, PB, KiB, MiB, GiB, " \
  "TiB, PiB) and a fraction that makes whole bytes, such as 8MiB or 1.5GB"

// met_parse_u64 for an option named |name|; on failure its status, with a one-line
// message in |err| ("invalid dynamic-size='-1': expected a whole number from 1 to
// 9223372036854775807").
met_status_t met_parse_option_u64(const char *name, const char *s, size_t len, uint64_t min,
                                  uint64_t max, uint64_t *out, met_error_t *err);
// A list of whole numbers for an option named |name|: |len| bytes of |s|, items in
// [min, max] separated by single commas (no spaces, no empty item), at most |cap| of them,
// strictly increasing (a grid's axis: no repeat, in order). Into |out|, |*count| of them.
// On failure its status and a one-line message in |err| naming the item.
met_status_t met_parse_option_u64_list(const char *name, const char *s, size_t len,
                                       uint64_t min, uint64_t max, size_t cap, uint64_t *out,
                                       size_t *count, met_error_t *err);
// met_parse_size for an option named |name|, with the same kind of message.
met_status_t met_parse_option_size(const char *name, const char *s, size_t len, uint64_t min,
                                   uint64_t max, uint64_t *out, met_error_t *err);

#endif
