// TempDir: a private scratch folder per use, so test programs running at
// once never write the same path; removed afterwards unless kept.
#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using dereth::test::TempDir;

TEST_CASE("TempDir makes a new folder per use under the temp folder and removes it with its files", "[support][temp]") {
  fs::path first_path;
  {
    TempDir a("temp-dir-test");
    TempDir b("temp-dir-test");
    first_path = a.path();
    CHECK(fs::is_directory(a.path()));
    CHECK(fs::is_directory(b.path()));
    CHECK(a.path() != b.path());  // the same name, two folders
    CHECK(a.path().parent_path() == fs::temp_directory_path());
    CHECK(a.path().filename().string().rfind("dereth-temp-dir-test-", 0) == 0);
    CHECK(fs::is_empty(a.path()));
    std::ofstream(a / "file.txt") << "x";
    fs::create_directories(a / "sub" / "deeper");
    CHECK(fs::exists(a.path() / "file.txt"));
  }
  CHECK_FALSE(fs::exists(first_path));
}

TEST_CASE("TempDir::keep leaves the folder, and a moved-from TempDir removes nothing", "[support][temp]") {
  fs::path kept;
  {
    TempDir t("temp-dir-keep");
    kept = t.path();
    t.keep();
  }
  CHECK(fs::is_directory(kept));
  fs::remove_all(kept);

  fs::path moved_path;
  {
    TempDir from("temp-dir-move");
    TempDir to(std::move(from));
    moved_path = to.path();
    CHECK(fs::is_directory(moved_path));
  }
  CHECK_FALSE(fs::exists(moved_path));
}
