// passes/ir/clock.h: the one monotonic clock of the MLIR layer and the tools (lib/ reads
// none: a wall-clock cap reaches the core as a callback, met_plan_limits_t.now_ns).
// Thread-safe.
#ifndef METRALE_PASSES_IR_CLOCK_H
#define METRALE_PASSES_IR_CLOCK_H

#include <stdint.h>
#include <time.h>

// CLOCK_MONOTONIC in nanoseconds; 0 when the clock cannot be read.
static inline uint64_t met_clock_ns(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_MONOTONIC, &t)) return 0;
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// The same as a met_plan_limits_t.now_ns callback.
static inline uint64_t met_clock_ns_cb(void *user) {
  (void)user;
  return met_clock_ns();
}

#endif
