// Temporary files for tests.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace hane::testing {

/// A path in the temp folder unique to this process: <tmp>/hane_<prefix>_<pid>_<name>.
inline std::string temp_path(const std::string& prefix, const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("hane_" + prefix + "_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

}  // namespace hane::testing
