// The error types of graphrun. Everything thrown by the library derives from
// graphrun::Error; the command line maps InputError and SizeError to exit
// status 2 and prints what() after "graphrun: error: ".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace graphrun {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input: what() reads "FILE:LINE: message" (or "FILE: message" when no
// line applies, e.g. a missing file or a truncated .gz).
class InputError : public Error {
 public:
  InputError(std::string file, std::int64_t line, const std::string& message);
  InputError(std::string file, const std::string& message);

  const std::string& file() const noexcept { return file_; }
  std::int64_t line() const noexcept { return line_; }  // 0 when unknown

 private:
  std::string file_;
  std::int64_t line_ = 0;
};

// A size computation that would overflow its type, or a graph beyond the
// limits of the index types.
class SizeError : public Error {
 public:
  using Error::Error;
};

// A failed CUDA runtime / library call; what() names the call.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// Not enough device memory for the work: an allocation past the device's
// free memory or past the --max-device-memory cap, or a product too large to
// split. what() names the bytes needed and available. A property of the
// input's size, like a SizeError: the command line exits with status 2.
class DeviceMemoryError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// An argument that makes no sense (negative damping, unknown source vertex...).
class ArgumentError : public Error {
 public:
  using Error::Error;
};

// A derived format refused for this matrix (ELL padding past its limit, an
// index past the format's range). Callers that choose formats fall back.
class FormatError : public Error {
 public:
  using Error::Error;
};

}  // namespace graphrun
