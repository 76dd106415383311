// The command-line driver shared by graphrun's programs (command_line.hpp).
#include "cli/command_line.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <sstream>
#include <string_view>

#include "cli/heap_policy.hpp"
#include "cli/phase_trace.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/error.hpp"

#ifndef GRAPHRUN_VERSION
#define GRAPHRUN_VERSION "unknown"
#endif

namespace graphrun::cli {

namespace {

// Lists each subcommand with the first line of its description only (the
// rest is for `graphrun SUBCOMMAND --help`), and leaves a blank line after a
// description.
class Formatter : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override {
    std::string first = sub->get_description();
    first = first.substr(0, first.find('\n'));
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true), first, column_width_);
    return out.str();
  }
  std::string make_description(const CLI::App* app) const override {
    const std::string d = CLI::Formatter::make_description(app);
    return d.empty() ? d : d + "\n";
  }
};

// The message with control characters written as \xNN: a message that
// quotes a file name or input bytes must not move the terminal's cursor or
// change its colours. (The readers escape what they quote; this is the
// last line of defence for everything else, file names included.)
std::string printable(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

int fail(int status, std::string_view message) {
  std::fflush(stdout);
  std::fprintf(stderr, "graphrun: error: %s\n", printable(message).c_str());
  return status;
}

// "pagerank, bfs, ... or bench": every subcommand, in the order of --help.
std::string subcommand_list(std::span<const Command> commands) {
  std::string list;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) list += i + 1 == commands.size() ? " or " : ", ";
    list += commands[i].app->get_name();
  }
  return list;
}

int run_guarded(const Command& command) {
  try {
    return command.run();
  } catch (const InputError& e) {
    return fail(exit_usage, e.what());
  } catch (const SizeError& e) {
    return fail(exit_usage, e.what());
  } catch (const ArgumentError& e) {
    return fail(exit_usage, e.what());
  } catch (const DeviceMemoryError& e) {
    return fail(exit_usage, e.what());  // the input is too large for the device (or the cap)
  } catch (const DeviceError& e) {
    return fail(exit_failure, e.what());
  } catch (const std::bad_alloc&) {
    return fail(exit_failure, "out of memory");
  } catch (const std::exception& e) {
    return fail(exit_failure, e.what());
  }
}

}  // namespace

int command_line_main(int argc, char** argv, const CommandLine& spec) {
  // Every return from main waits for the device's warm-up thread first (see
  // finish_device_warm_up): a command that fails on its input before its
  // first CUDA call must not tear the runtime down under that thread.
  const struct WarmUpJoin {
    ~WarmUpJoin() { finish_device_warm_up(); }
  } warm_up_join;
  trace_phase("main");
  keep_freed_memory_for_reuse();
  CLI::App app(spec.description, "graphrun");
  auto formatter = std::make_shared<Formatter>();
  formatter->column_width(28);
  app.formatter(formatter);
  app.set_version_flag("--version", std::string("graphrun " GRAPHRUN_VERSION) +
                                        (cuda_backend_built() ? " (CUDA backend: built)"
                                                              : " (CUDA backend: not built)"));
  app.require_subcommand(1);

  const std::vector<Command> commands = spec.add_commands(app);
  app.footer(std::string(exit_status_help + 1) + spec.footer);

  // "Run 'graphrun pagerank --help' for usage." after a usage error.
  const auto usage_hint = [&] {
    std::string name;
    for (const auto& c : commands)
      if (c.app->parsed())  // and the nested subcommand it ran, as in "bench pagerank"
        for (const CLI::App* a = c.app; a != nullptr;) {
          name += " " + a->get_name();
          const auto nested = a->get_subcommands();
          a = nested.empty() ? nullptr : nested.front();
        }
    std::fprintf(stderr, "Run 'graphrun%s --help' for usage.\n", name.c_str());
  };
  try {
    app.parse(argc, argv);
  } catch (const ArgumentError& e) {  // thrown by an option's own parser (parse_reorder, ...)
    const int status = fail(exit_usage, e.what());
    usage_hint();
    return status;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (argc > 1 && argv[1][0] != '-' &&
        std::none_of(commands.begin(), commands.end(),
                     [&](const Command& c) { return c.app->get_name() == argv[1]; }))
      return fail(exit_usage, "unknown subcommand '" + std::string(argv[1]) + "' (expected " +
                                  subcommand_list(commands) + "; see graphrun --help)");
    const int status = fail(exit_usage, e.what());
    usage_hint();
    return status;
  }
  trace_phase("arguments parsed");
  for (const auto& c : commands)
    if (c.app->parsed()) {
      const int status = run_guarded(c);
      trace_phase("main returns");
      return status;
    }
  return fail(exit_usage, "no subcommand given");
}

}  // namespace graphrun::cli
