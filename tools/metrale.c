// metrale: the command for people (usage: `metrale --help`, README "The metrale command").
// This file is main: it picks the command, each in its own file (tools/cmd_targets.c,
// cmd_analyse.c for budget, memory and dispatch, cmd_plan.c with cmd_plan_csv.c,
// cmd_diff.c, cmd_run.c), over the shared helpers of tools/cli.c (docs/ARCHITECTURE.md).
// Exit status: 0 done, 1 the model could not be read or evaluated, 2 bad usage.
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "llvm/Config/llvm-config.h"
#include "metrale/options.h"
#include "runners.h"
#include "cli.h"

// The usage text, then every option of metrale/options.def with its commands and help.
static void print_usage(FILE *f) {
  cli_print_usage(f);
  fputs("\noptions (b: budget, m: memory, d: dispatch; the same as the passes' options):\n", f);
  const met_option_t *opts = met_options();
  for (int k = 0; k < MET_OPT_COUNT; ++k) {
    const met_option_t *r = &opts[k];
    if (!r->cli[0]) continue;
    fprintf(f, "  %-20s %s%s%s  %s\n", r->cli, r->passes & MET_PASS_BUDGET ? "b" : " ",
            r->passes & MET_PASS_MEMORY ? "m" : " ", r->passes & MET_PASS_DISPATCH ? "d" : " ",
            r->help);
  }
}

static int command(int argc, char **argv) {
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, which is said like any
  // failed write, instead of killing the command (a sweep's held output goes to a file).
  signal(SIGXFSZ, SIG_IGN);
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : cli_finish_stdout(0);
  }
  if (!strcmp(argv[1], "--version")) {
    printf("metrale %s (LLVM/MLIR %s)\n", METRALE_VERSION, LLVM_VERSION_STRING);
    return cli_finish_stdout(0);
  }
  // `metrale CMD --help`: that command's options, whatever else is given.
  for (size_t k = 0; k < cli_command_count; ++k)
    if (!strcmp(argv[1], cli_commands[k].name) && cli_help_asked(argc - 2, argv + 2)) {
      cli_print_command_help(stdout, argv[1]);
      return cli_finish_stdout(0);
    }
  if (!strcmp(argv[1], "budget")) return cmd_analyse(argc - 2, argv + 2, MET_PASS_BUDGET, "budget");
  if (!strcmp(argv[1], "memory")) return cmd_analyse(argc - 2, argv + 2, MET_PASS_MEMORY, "memory");
  if (!strcmp(argv[1], "dispatch"))
    return cmd_analyse(argc - 2, argv + 2, MET_PASS_DISPATCH, "dispatch");
  if (!strcmp(argv[1], "targets")) return cmd_targets(argc - 2, argv + 2);
  if (!strcmp(argv[1], "run")) return cmd_run(argc - 2, argv + 2);
  if (!strcmp(argv[1], "plan")) return cmd_plan(argc - 2, argv + 2);
  if (!strcmp(argv[1], "diff")) return cmd_diff(argc - 2, argv + 2);
  fprintf(stderr, "metrale: unknown command '%s'\n", argv[1]);
  cli_print_usage(stderr);
  return 2;
}

// The command runs on a thread with a 1 GiB stack (reserved, touched only as deep as it
// goes): MLIR's parser and walks recurse once per nested region, about 2 KiB a level, and
// the 8 MiB main stack overflowed at 4,000 nested modules (a segfault, stock mlir-opt's
// too). cli_load_path refuses deeper models (met_input_nesting_check, report/output.h).
typedef struct main_args_t { int argc; char **argv; } main_args_t;

// The process ends on this thread (exit, not a return to main): LLVM's crash handler gives
// the thread an alternate signal stack of its own (malloc'ed), which ASan, tearing the
// thread down, would unmap as its own and abort on ("failed to deallocate").
static void *run_command(void *p) {
  main_args_t *a = p;
  exit(command(a->argc, a->argv));
}

int main(int argc, char **argv) {
  main_args_t a = {argc, argv};
  pthread_attr_t attr;
  pthread_t th;
  if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, (size_t)1 << 30) == 0 &&
      pthread_create(&th, &attr, run_command, &a) == 0) {
    pthread_attr_destroy(&attr);
    pthread_join(th, NULL);  // does not return: the thread ends the process
    return 1;
  }
  return command(argc, argv);  // no thread to be had: the main stack
}
