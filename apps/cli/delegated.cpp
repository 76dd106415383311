// graphrun's `bench` and `experiment`, run by graphrun-compare (delegated.hpp).
#include "delegated.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun::cli {

namespace {

// The folder of the running executable (/proc/self/exe), with its '/'.
std::string own_folder() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0)
    throw Error(std::string("cannot find graphrun's own folder: ") + std::strerror(errno));
  const std::string self(path, static_cast<std::size_t>(n));
  return self.substr(0, self.rfind('/') + 1);
}

}  // namespace

Command delegated_command(CLI::App& root, const char* name, const char* summary) {
  CLI::App* sub = root.add_subcommand(
      name, std::string(summary) + "\n(run by " + compare_program + ", installed beside graphrun)");
  // Nothing is parsed here: every argument after the name, --help too, is
  // the other program's.
  sub->set_help_flag();
  sub->prefix_command();
  sub->allow_extras();
  return {sub, [sub, name]() -> int {
            const std::string program = own_folder() + compare_program;
            std::vector<std::string> args{compare_program, name};
            for (std::string& a : sub->remaining()) args.push_back(std::move(a));
            std::vector<char*> argv;
            for (std::string& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            std::fflush(stdout);
            std::fflush(stderr);
            ::execv(program.c_str(), argv.data());
            // Only a failed exec returns.
            throw InputError(program, std::string("cannot run it for 'graphrun ") + name +
                                          "': " + std::strerror(errno) +
                                          " (it is built and installed with graphrun)");
          }};
}

}  // namespace graphrun::cli
