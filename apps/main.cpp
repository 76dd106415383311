// graphrun: the command line. One file per subcommand (cmd_*.cpp); what they
// share, including the exit-status policy, is in common.hpp.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>

#include "commands.hpp"
#include "common.hpp"
#include "graphrun/engine/error.hpp"

#ifndef GRAPHRUN_VERSION
#define GRAPHRUN_VERSION "unknown"
#endif

namespace {

using namespace graphrun::cli;

int fail(int status, const char* message) {
  std::fflush(stdout);
  std::fprintf(stderr, "graphrun: error: %s\n", message);
  return status;
}

int run_guarded(const Command& command) {
  try {
    command.run();
    return exit_ok;
  } catch (const graphrun::InputError& e) {
    return fail(exit_usage, e.what());
  } catch (const graphrun::SizeError& e) {
    return fail(exit_usage, e.what());
  } catch (const graphrun::ArgumentError& e) {
    return fail(exit_usage, e.what());
  } catch (const graphrun::DeviceError& e) {
    return fail(exit_failure, e.what());
  } catch (const std::bad_alloc&) {
    return fail(exit_failure, "out of memory");
  } catch (const std::exception& e) {
    return fail(exit_failure, e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "graphrun " GRAPHRUN_VERSION
      ": graph analytics on sparse linear algebra (CPU with OpenMP; CUDA to come).\n"
      "Loads a graph once into CSR and runs an algorithm on it; results are tab-separated\n"
      "lines keyed by the input's vertex ids.",
      "graphrun");
  app.get_formatter()->column_width(28);
  app.set_version_flag("--version", std::string("graphrun " GRAPHRUN_VERSION) +
#if defined(GRAPHRUN_HAVE_CUDA)
                                        " (CUDA backend: built)"
#else
                                        " (CUDA backend: not built)"
#endif
  );
  app.require_subcommand(1);

  const Command commands[] = {add_pagerank(app), add_bfs(app), add_info(app), add_convert(app)};
  app.footer(std::string(exit_status_help) +
             "Run 'graphrun SUBCOMMAND --help' for a subcommand's options, input formats and "
             "output.\n"
             "EXAMPLE:\n"
             "  graphrun pagerank karate.mtx --top 5\n");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const int status = fail(exit_usage, e.what());
    std::fprintf(stderr, "Run 'graphrun%s --help' for usage.\n",
                 [&]() -> std::string {
                   for (const auto& c : commands)
                     if (c.app->parsed()) return " " + c.app->get_name();
                   return "";
                 }()
                              .c_str());
    return status;
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return run_guarded(c);
  return fail(exit_usage, "no subcommand given");
}
