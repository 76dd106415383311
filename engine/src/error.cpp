#include "graphrun/engine/error.hpp"

#include <string>

#include "graphrun/engine/types.hpp"

namespace graphrun {

InputError::InputError(std::string file, std::int64_t line, const std::string& message)
    : Error(file + ":" + std::to_string(line) + ": " + message),
      file_(std::move(file)),
      line_(line) {}

InputError::InputError(std::string file, const std::string& message)
    : Error(file + ": " + message), file_(std::move(file)) {}

void throw_size_overflow(std::string_view what) {
  throw SizeError("size overflow while computing " + std::string(what));
}

}  // namespace graphrun
