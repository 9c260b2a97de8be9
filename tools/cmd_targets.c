// tools/cmd_targets.c: `metrale targets [--json]`: the built-in targets with every
// parameter, as a table or as the JSON the reports embed (metrale/report.h).
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "metrale/report.h"
#include "metrale/strbuf.h"
#include "metrale/target.h"
#include "cli.h"

int cmd_targets(int argc, char **argv) {
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) json = true;
    else {
      fprintf(stderr, "metrale targets: unknown option '%s'\n", argv[i]);
      cli_print_synopsis(stderr, "targets");
      return 2;
    }
  }
  met_strbuf_t sb;
  met_strbuf_initialize(met_allocator_system(), &sb);
  if (json) MET_STRBUF_LIT(&sb, "[");
  for (size_t i = 0; i < met_target_builtin_count(); ++i) {
    const met_target_t *t = met_target_builtin(i);
    if (json) {
      met_strbuf_append(&sb, i ? ",\n " : "", i ? 3 : 0);
      met_report_json_target(&sb, t);
      continue;
    }
    met_strbuf_printf(&sb, "%s%s: %s\n", i ? "\n" : "", t->name, t->description);
    met_strbuf_printf(&sb, "  width_policy           %s\n", met_width_policy_name(t->width_policy));
    met_strbuf_printf(&sb, "  alignment              %" PRIu64 " B\n", t->alignment);
    met_strbuf_printf(&sb, "  index_bits             %u\n", t->index_bits);
    met_strbuf_printf(&sb, "  fusion                 %s\n", met_fusion_model_name(t->fusion));
    met_strbuf_printf(&sb, "  epilogue_fusion        %s\n", t->epilogue_fusion ? "yes" : "no");
    met_strbuf_printf(&sb, "  attention_fusion       %s\n", t->attention_fusion ? "yes" : "no");
    met_strbuf_printf(&sb, "  memory_bytes           ");
    met_report_bytes(&sb, t->memory_bytes);
    met_strbuf_printf(&sb, "\n  bandwidth_bytes_per_s  %.0f GB/s\n",
                      (double)t->bandwidth_bytes_per_s / 1e9);
    met_strbuf_printf(&sb, "  compute_units          %u\n", t->compute_units);
    met_strbuf_printf(&sb, "  default util           %.2f\n", t->default_util_ppm / 1e6);
    met_strbuf_printf(&sb, "  driver                 context ");
    met_report_bytes(&sb, t->driver.context_bytes);
    met_strbuf_printf(&sb, ", reserved %.1f%%, chunk ", t->driver.reserved_ppm / 1e4);
    met_report_bytes(&sb, t->driver.chunk_bytes);
    met_strbuf_printf(&sb, "\n  workspace              matmul ");
    met_report_bytes(&sb, t->workspace.matmul_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit, conv %s, softmax ",
                      t->workspace.conv_stages_operand ? "stages its largest operand" : "none");
    met_report_bytes(&sb, t->workspace.softmax_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit, reduction ");
    met_report_bytes(&sb, t->workspace.reduction_per_unit_bytes);
    met_strbuf_printf(&sb, "/unit\n  hoists parameters      %s\n  residency              %s\n"
                      "  fast_path             ",
                      t->hoists_parameters ? "yes (load time)" : "no",
                      met_residency_name(t->residency));
    for (const char *const *p = t->fast_path; *p; ++p) met_strbuf_printf(&sb, " %s", *p);
    const met_dispatch_params_t *d = &t->dispatch;
    met_strbuf_printf(&sb, "\n  execution_model        %s\n  allocation_model       %s%s\n",
                      met_exec_model_name(d->execution_model),
                      met_alloc_model_name(d->allocation_model),
                      d->results_in_place ? ", results in place" : "");
    if (d->offload)
      met_strbuf_printf(&sb, "  host link              %.1f GB/s (offloading: host round trips)\n",
                        (double)d->host_link_bytes_per_s / 1e9);
    else
      met_strbuf_printf(&sb, "  host link              none (the device is the host)\n");
    met_strbuf_printf(&sb, "  launch floor           %" PRIu64 " ns\n", d->launch_floor_ns);
    met_strbuf_printf(&sb, "  peak                   %.1f TFLOPS f32, %.1f f16, %.1f TOPS int\n",
                      (double)d->peak_flops_f32 / 1e12, (double)d->peak_flops_f16 / 1e12,
                      (double)d->peak_flops_int / 1e12);
    if (d->control_bytes_per_buffer)
      met_strbuf_printf(&sb, "  control bytes          %u per buffer\n", d->control_bytes_per_buffer);
    else
      met_strbuf_printf(&sb, "  control bytes          memref descriptor, (3 + 2 x rank) x 8 per buffer\n");
    if (d->allocation_padding_bytes)
      met_strbuf_printf(&sb, "  allocation padding     %u B per allocation\n",
                        d->allocation_padding_bytes);
  }
  if (json) MET_STRBUF_LIT(&sb, "]\n");
  int rc = sb.status ? 1 : 0;
  if (!rc) fwrite(sb.data, 1, sb.len, stdout);
  met_strbuf_deinitialize(&sb);
  return cli_finish_stdout(rc);
}

