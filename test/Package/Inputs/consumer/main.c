// Plans three buffers with the installed core and prints the arena and the plugin's path.
#include <stdio.h>

#include "metrale/planner.h"

int main(void) {
  // 100 B live at [0, 1], 50 B at [1, 2], 100 B at [2, 3]: the first and the last never
  // meet, so they share offset 0; the middle one sits beside both: arena 150.
  met_buffer_t b[3] = {{100, 0, 1}, {50, 1, 2}, {100, 2, 3}};
  uint64_t off[3], size;
  met_arena_t arena;
  met_arena_initialize(met_allocator_system(), &arena);
  met_status_t st = met_planner_plan(b, 3, 4, MET_PLAN_BEST, &arena, off, &size);
  met_arena_deinitialize(&arena);
  printf("status %s arena %llu plugin %s\n", met_status_str(st), (unsigned long long)size,
         METRALE_PLUGIN_PATH);
  return st != MET_OK;
}
