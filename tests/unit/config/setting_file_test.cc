// A setting's file (core/config/setting_file.h): its text reaches the setting's parser, and a file
// that cannot be read or does not parse is refused with the setting and the path named.
#include "core/config/setting_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tests/support/temp_dir.h"

namespace netgraph::config {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kSetting = "NETGRAPH_TRUSTED_DOCUMENTS";

// A parser that takes "ok..." and refuses anything else.
Result<std::size_t> LengthOfOk(std::string_view text) {
  if (!text.starts_with("ok")) return Status::InvalidArgument("does not start with ok");
  return text.size();
}

TEST(SettingFileTest, TheWholeTextReachesTheParser) {
  testing::TempDir dir("netgraph-setting-file");
  const std::string text = "ok\n" + std::string(100000, 'x') + "\n";
  Result<std::size_t> length = LoadSettingFile(kSetting, dir.Write("ok.txt", text), LengthOfOk);
  ASSERT_TRUE(length.ok()) << length.status().message();
  EXPECT_EQ(*length, text.size());
}

TEST(SettingFileTest, AFileThatCannotBeReadNamesTheSettingAndThePath) {
  Result<std::size_t> missing = LoadSettingFile(kSetting, "/nonexistent/setting.txt", LengthOfOk);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(missing.status().message(),
            "NETGRAPH_TRUSTED_DOCUMENTS: cannot read /nonexistent/setting.txt");
}

TEST(SettingFileTest, AFileThatDoesNotParseNamesTheSettingThePathAndTheProblem) {
  testing::TempDir dir("netgraph-setting-file");
  const std::string path = dir.Write("bad.txt", "not ok");
  Result<std::size_t> bad = LoadSettingFile(kSetting, path, LengthOfOk);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(bad.status().message(),
            "NETGRAPH_TRUSTED_DOCUMENTS (" + path + "): does not start with ok");
}

TEST(SettingFileTest, ReadSettingFileGivesTheBytesAsWritten) {
  testing::TempDir dir("netgraph-setting-file");
  const std::string bytes("a\0b\r\n", 5);
  Result<std::string> read = ReadSettingFile(kSetting, dir.Write("bytes", bytes));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, bytes);
  EXPECT_THAT(ReadSettingFile(kSetting, dir.path().string() + "/none").status().message(),
              HasSubstr("cannot read"));
}

}  // namespace
}  // namespace netgraph::config
