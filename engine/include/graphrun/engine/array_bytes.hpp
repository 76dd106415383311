// What a layout's arrays hold, for the layouts' bytes() and view(): any
// array with size(), data() and value_type (std::vector, DeviceArray).
#pragma once

#include <cstddef>

namespace graphrun {

// The bytes the arrays hold together.
template <class... Arrays>
std::size_t bytes_of(const Arrays&... arrays) noexcept {
  return (std::size_t{0} + ... + (arrays.size() * sizeof(typename Arrays::value_type)));
}

// values.data(), or nullptr where there are none: a view's values of a
// pattern matrix, whose entries are all one.
template <class Array>
auto data_or_null(const Array& values) noexcept -> decltype(values.data()) {
  return values.size() != 0 ? values.data() : nullptr;
}

}  // namespace graphrun
