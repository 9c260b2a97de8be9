// metrale-opt: mlir-opt with every upstream dialect and pass plus metrale's, registered
// before the flags are parsed so `metrale-opt --metrale-budget=...` works in flag form.
#include <pthread.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "register.h"
#include "report/output.h"

// The files metrale's passes of this pipeline write (json=, sarif=, svg= in any
// --metrale-* flag or -p/--pass-pipeline text naming a metrale pass) and -o's: each pass
// checks its own outputs, this checks them across passes and against the printed IR
// (`--metrale-budget=json=o --metrale-dispatch=json=o` kept the last one).
static void collect_outputs(int argc, char **argv, std::vector<std::string> &flags,
                            std::vector<std::string> &paths) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "-o" || a == "--o") && i + 1 < argc) {
      flags.push_back("-o");
      paths.push_back(argv[++i]);
      continue;
    }
    if (a.rfind("-o=", 0) == 0 || a.rfind("--o=", 0) == 0) {
      flags.push_back("-o");
      paths.push_back(a.substr(a.find('=') + 1));
      continue;
    }
    // MLIR's remark file (--remarks-output-file, upstream's flag) is an output too.
    bool remarks = false;
    for (const char *rf : {"--remarks-output-file", "-remarks-output-file"}) {
      std::string eq = std::string(rf) + "=";
      if (a == rf && i + 1 < argc) {
        paths.push_back(argv[++i]);
        remarks = true;
      } else if (a.rfind(eq, 0) == 0) {
        paths.push_back(a.substr(eq.size()));
        remarks = true;
      }
      if (remarks) break;
    }
    if (remarks) {
      flags.push_back("--remarks-output-file");
      continue;
    }
    bool pipeline = (a == "-p" || a == "--pass-pipeline") && i + 1 < argc;
    std::string text = pipeline ? argv[i + 1] : a;
    if (text.find("metrale-") == std::string::npos) continue;
    if (pipeline) ++i;
    for (const char *key : {"json=", "sarif=", "svg="}) {
      for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        if (at && text[at - 1] != ' ' && text[at - 1] != '{' && text[at - 1] != '=' &&
            text[at - 1] != '"')
          continue;  // the end of another option's name
        size_t v = at + strlen(key), e = v;
        while (e < text.size() && text[e] != ' ' && text[e] != '}' && text[e] != '"') ++e;
        if (e == v) continue;
        flags.push_back(key);
        paths.push_back(text.substr(v, e - v));
      }
    }
  }
}

static int opt_main(int argc, char **argv) {
  // Diagnostics go to llvm::errs(), which is unbuffered: MLIR's SourceMgr handler writes a
  // remark in about 13 pieces, each a write(2), so 20,000 functions' summaries cost more
  // in system calls than the analysis. Buffer it, 64 KiB at a time, unless it is a
  // terminal. metrale's passes flush it when they end, so remarks still come before the
  // printed IR, and a crash flushes it and prints its stack trace unbuffered.
  if (!llvm::errs().is_displayed()) llvm::errs().SetBufferSize(64 * 1024);
  // On a crash: what is buffered goes out, and the stack trace LLVM's own handler prints
  // next (registered later, by MlirOptMain's InitLLVM) goes out unbuffered.
  llvm::sys::AddSignalHandler(
      [](void *) {
        llvm::errs().flush();
        llvm::errs().SetUnbuffered();
      },
      nullptr);
  mlir::registerAllPasses();
  met_register_passes();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "metrale: cost and memory checker for MLIR graphs\n", registry);
  // A character device or a socket is refused before it is read: /dev/zero would be read
  // forever (stock mlir-opt does), the buffer growing without bound. '-' is standard input.
  struct stat st;
  if (input != "-" && stat(input.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISFIFO(st.st_mode)) {
    llvm::errs() << "metrale-opt: cannot read '" << input << "': it is "
                 << (S_ISDIR(st.st_mode)   ? "a directory"
                     : S_ISCHR(st.st_mode) ? "a character device"
                     : S_ISBLK(st.st_mode) ? "a block device"
                                           : "no regular file")
                 << ", not a file or a pipe\n";
    return 1;
  }
  {
    met_error_t err;
    met_error_init(&err);
    struct stat rs;
    if (input != "-" && stat(input.c_str(), &rs) == 0 && S_ISREG(rs.st_mode) &&
        met_input_nesting_check(input.c_str(), &err) != MET_OK) {
      llvm::errs() << "metrale-opt: " << err.message << "\n";
      return 1;
    }
  }
  std::vector<std::string> flags, paths;
  collect_outputs(argc, argv, flags, paths);
  {
    // Standard output holds one document: the printed IR (unless -o names a file) or one
    // report. Two writers there (json=- and sarif=-, or json=- and the IR) interleave.
    std::vector<std::string> writers;
    bool ir_out = true;
    for (size_t k = 0; k < flags.size(); ++k)
      if (flags[k] == "-o") ir_out = paths[k] == "-";
    if (ir_out) writers.push_back("the printed IR");
    for (size_t k = 0; k < flags.size(); ++k)
      if (flags[k] != "-o" && paths[k] == "-")
        writers.push_back("'" + flags[k] + (flags[k].back() == '=' ? "" : " ") + "-'");
    if (writers.size() > 1) {
      llvm::errs() << "metrale-opt: " << writers[0] << " and " << writers[1]
                   << " both write to standard output: one stream would hold two documents; "
                      "give one of them a file (-o /dev/null drops the IR)\n";
      return 1;
    }
    // The remark file is written by MLIR, not by a pass: it must not be the model.
    const char *in[1] = {input.c_str()};
    for (size_t k = 0; k < flags.size(); ++k) {
      if (flags[k] != "--remarks-output-file" || paths[k] == "-") continue;
      const char *f[1] = {flags[k].c_str()}, *p[1] = {paths[k].c_str()};
      met_error_t err;
      met_error_init(&err);
      if (met_output_paths_check(in, 1, f, p, 1, &err) != MET_OK) {
        llvm::errs() << "metrale-opt: " << err.message << "\n";
        return 1;
      }
    }
  }
  if (flags.size() > 1 && flags.size() <= 16) {
    std::vector<const char *> f, p;
    for (size_t k = 0; k < flags.size(); ++k) {
      f.push_back(flags[k].c_str());
      p.push_back(paths[k] == "-" ? "" : paths[k].c_str());  // standard output: the IR's
    }
    // Only two of them in one file is said here: the rest (the model itself, a missing
    // directory) each pass says at the module, located.
    for (size_t j = 0; j < f.size(); ++j)
      for (size_t k = j + 1; k < f.size(); ++k) {
        const char *pf[2] = {f[j], f[k]}, *pp[2] = {p[j], p[k]};
        met_error_t err;
        met_error_init(&err);
        if (met_output_paths_check(nullptr, 0, pf, pp, 2, &err) != MET_OK &&
            strstr(err.message, "are the same file")) {
          llvm::errs() << "metrale-opt: " << err.message << "\n";
          return 1;
        }
      }
  }
  {
    // Standard output (the IR, unless -o) and standard error redirected to the model.
    const char *in[1] = {input.c_str()};
    met_error_t err;
    met_error_init(&err);
    if (met_output_streams_check(in, 1, &err) != MET_OK) {
      if (err.message[0]) llvm::errs() << "metrale-opt: " << err.message << "\n";
      return 1;
    }
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, input, output, registry));
}

// As the metrale command (tools/metrale.c): the tool runs on a thread with a 1 GiB stack
// (reserved, touched only as deep as it goes), since MLIR's parser and passes recurse once
// per nested region and 4,000 nested modules overflowed the 8 MiB main stack (stock
// mlir-opt's too); met_input_nesting_check refuses what even that would not hold.
namespace {
struct MainArgs {
  int argc;
  char **argv;
};
}  // namespace

int main(int argc, char **argv) {
  MainArgs a = {argc, argv};
  pthread_attr_t attr;
  pthread_t th;
  if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, size_t(1) << 30) == 0 &&
      pthread_create(&th, &attr,
                     [](void *p) -> void * {
                       // The process ends here, not back on main: see tools/metrale.c.
                       auto *m = static_cast<MainArgs *>(p);
                       std::exit(opt_main(m->argc, m->argv));
                     },
                     &a) == 0) {
    pthread_attr_destroy(&attr);
    pthread_join(th, nullptr);  // does not return: the thread ends the process
    return 1;
  }
  return opt_main(argc, argv);  // no thread to be had: the main stack
}
