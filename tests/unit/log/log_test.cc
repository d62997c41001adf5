#include "core/log.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace netgraph::log {
namespace {

// What Write puts on stderr for `message`.
std::string WrittenLine(std::string_view message) {
  testing::internal::CaptureStderr();
  Write(Level::kError, message);
  return testing::internal::GetCapturedStderr();
}

TEST(LogTest, OneEventIsOneLineWhenTheMessageHasLineBreaks) {
  // The shape of a libpq error: several lines, ending in a newline.
  const std::string line = WrittenLine(
      "PostgreSQL connection failed: connection to server failed\nIs the server running?\n");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  EXPECT_NE(line.find("connection to server failed\\nIs the server running?"), std::string::npos)
      << line;
  EXPECT_EQ(line.substr(line.size() - 2), "?\n") << "the trailing break is dropped, not escaped";
}

TEST(LogTest, AMessageCannotForgeTheNextLine) {
  const std::string line = WrittenLine("bad code 'x'\rerror netgraph-fcgi[1]: forged\n\tmore");
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  EXPECT_EQ(line.find('\r'), std::string::npos) << line;
  EXPECT_EQ(line.find('\t'), std::string::npos) << line;
  EXPECT_NE(line.find("'x'\\rerror netgraph-fcgi[1]: forged\\n\\tmore"), std::string::npos) << line;
}

TEST(LogTest, EveryLineStartsWithItsJournalPriority) {
  EXPECT_EQ(WrittenLine("boom").substr(0, 9), "<3>error ");
  testing::internal::CaptureStderr();
  Write(Level::kWarn, "careful");
  EXPECT_EQ(testing::internal::GetCapturedStderr().substr(0, 8), "<4>warn ");
  testing::internal::CaptureStderr();
  Write(Level::kInfo, "fine");
  EXPECT_EQ(testing::internal::GetCapturedStderr().substr(0, 8), "<6>info ");
}

TEST(LogTest, EscapesEveryControlCharacter) {
  EXPECT_EQ(EscapeControlCharacters(std::string("a\x01"
                                                "b\x1b[31m\x7f"
                                                "c\0d",
                                                12)),
            "a\\x01b\\x1b[31m\\x7fc\\x00d");
  EXPECT_EQ(EscapeControlCharacters("line 1\r\nline 2\n\n"), "line 1\\r\\nline 2");
  EXPECT_EQ(EscapeControlCharacters("plain text, UTF-8 \xc3\xa9 and \\ kept"),
            "plain text, UTF-8 \xc3\xa9 and \\ kept");
  EXPECT_EQ(EscapeControlCharacters(""), "");
}

// The pool's master calls Init and then forks its workers: each worker's lines name the worker.
TEST(LogTest, AForkedChildsLinesNameTheChildsPid) {
  Init("log_test");
  EXPECT_NE(WrittenLine("parent").find("log_test[" + std::to_string(::getpid()) + "]: "),
            std::string::npos);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    Write(Level::kError, "child");
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string written;
  char chunk[256];
  for (ssize_t got; (got = ::read(pipe_fds[0], chunk, sizeof(chunk))) > 0;)
    written.append(chunk, got);
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_NE(written.find("log_test[" + std::to_string(child) + "]: child"), std::string::npos)
      << written;
}

}  // namespace
}  // namespace netgraph::log
