#include "temp_dir.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <stdlib.h>  // mkdtemp (POSIX)

namespace dereth::test {

TempDir::TempDir(std::string_view name) {
  const std::string pattern =
      (std::filesystem::temp_directory_path() / ("dereth-" + std::string(name) + "-XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) {
    throw std::runtime_error("TempDir: mkdtemp(" + pattern + "): " + std::strerror(errno));
  }
  path_ = buffer.data();
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)), keep_(other.keep_) {
  other.path_.clear();
}

TempDir::~TempDir() {
  if (keep_ || path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace dereth::test
