// The README's folder list ("Layout") against the build: a row for every lib/ folder, in the
// dependency order lib/CMakeLists.txt builds them in.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hane {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Readme, ListsEveryLibFolderInTheBuildsOrder) {
  const std::filesystem::path root = std::filesystem::path(HANE_TEST_DATA_DIR) / ".." / "..";
  const std::string cmake = read_file(root / "lib" / "CMakeLists.txt");
  const std::string readme = read_file(root / "README.md");
  ASSERT_FALSE(cmake.empty());
  ASSERT_FALSE(readme.empty());
  std::vector<std::string> folders;
  for (size_t at = 0; (at = cmake.find("add_subdirectory(", at)) != std::string::npos;) {
    at += 17;
    folders.push_back(cmake.substr(at, cmake.find(')', at) - at));
  }
  ASSERT_GE(folders.size(), 10u);
  size_t previous = 0;
  for (const std::string& folder : folders) {
    const size_t row = readme.find("\n| `lib/" + folder + "/` |");
    ASSERT_NE(row, std::string::npos) << "README.md has no row for lib/" << folder;
    EXPECT_GT(row, previous) << "lib/" << folder << " is listed before a folder it is built after";
    previous = row;
  }
}

}  // namespace
}  // namespace hane
