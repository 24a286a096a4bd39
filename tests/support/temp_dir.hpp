#pragma once
// Scratch folders for tests. Every test that writes files writes them into
// a TempDir: a new folder made by mkdtemp under the system temp folder, so
// test programs running at once (ctest -j, several builds' suites on one
// machine) never share a path. The folder and what is in it are removed
// when the TempDir goes (keep() leaves it, to look at after a failure).

#include <filesystem>
#include <string>
#include <string_view>

namespace dereth::test {

class TempDir {
 public:
  // <temp>/dereth-<name>-XXXXXX, created now; throws std::runtime_error
  // (naming the template and errno) when it cannot be made.
  explicit TempDir(std::string_view name);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] std::filesystem::path operator/(std::string_view name) const { return path_ / name; }
  // Leave the folder in place when this TempDir goes.
  void keep() noexcept { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

}  // namespace dereth::test
