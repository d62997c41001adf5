#include "core/log.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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

// Stderr as a socket that keeps each write(2) apart (SOCK_SEQPACKET), so a test sees how the lines
// were grouped into writes; kept lines are given up and stderr is restored at the end.
class KeptLinesTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sockets_), 0);
    saved_stderr_ = ::dup(STDERR_FILENO);
    ASSERT_GE(::dup2(sockets_[1], STDERR_FILENO), 0);
  }
  void TearDown() override {
    KeepLines(std::chrono::milliseconds(0));
    ::dup2(saved_stderr_, STDERR_FILENO);
    ::close(saved_stderr_);
    ::close(sockets_[0]);
    ::close(sockets_[1]);
  }
  // The writes made so far, each as it was written.
  std::vector<std::string> Writes() {
    std::vector<std::string> writes;
    char chunk[65536];
    for (ssize_t got; (got = ::recv(sockets_[0], chunk, sizeof(chunk), MSG_DONTWAIT)) >= 0;) {
      writes.emplace_back(chunk, got);
    }
    return writes;
  }

 private:
  int sockets_[2] = {-1, -1};
  int saved_stderr_ = -1;
};

TEST_F(KeptLinesTest, InfoLinesWaitForFlushAndGoOutInOneWrite) {
  KeepLines(std::chrono::seconds(5));
  const auto before = std::chrono::steady_clock::now();
  Info("first");
  Info("second");
  EXPECT_TRUE(Writes().empty());
  const std::optional<std::chrono::steady_clock::time_point> due = KeptLinesDue();
  ASSERT_TRUE(due.has_value());
  EXPECT_GE(*due, before + std::chrono::seconds(5));
  EXPECT_LE(*due, std::chrono::steady_clock::now() + std::chrono::seconds(5));
  Flush();
  const std::vector<std::string> writes = Writes();
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_NE(writes[0].find("]: first\n<6>info "), std::string::npos) << writes[0];
  EXPECT_EQ(writes[0].substr(writes[0].size() - 7), "second\n") << writes[0];
  EXPECT_FALSE(KeptLinesDue().has_value());
}

TEST_F(KeptLinesTest, AWarningTakesTheKeptLinesWithItInOrder) {
  KeepLines(std::chrono::seconds(5));
  Info("kept");
  Warn("now");
  const std::vector<std::string> writes = Writes();
  ASSERT_EQ(writes.size(), 1u);
  const std::size_t kept = writes[0].find("]: kept\n");
  const std::size_t warning = writes[0].find("<4>warn ");
  ASSERT_NE(kept, std::string::npos) << writes[0];
  EXPECT_GT(warning, kept) << writes[0];
  EXPECT_FALSE(KeptLinesDue().has_value());
}

TEST_F(KeptLinesTest, EveryWriteHoldsWholeLinesWithinOnePipeWrite) {
  KeepLines(std::chrono::seconds(5));
  const std::string message(1000, 'x');
  for (int i = 0; i < 10; ++i) Info(message);
  Info(std::string(kKeptBytes + 10, 'y'));  // longer than any write may keep: alone, at once
  Flush();
  std::size_t lines = 0;
  const std::vector<std::string> writes = Writes();
  ASSERT_GE(writes.size(), 4u);
  for (std::size_t i = 0; i + 1 < writes.size(); ++i) {
    EXPECT_LE(writes[i].size(), kKeptBytes);
    EXPECT_EQ(writes[i].back(), '\n');
    lines += static_cast<std::size_t>(std::count(writes[i].begin(), writes[i].end(), '\n'));
  }
  EXPECT_EQ(lines, 10u);
  EXPECT_NE(writes.back().find(std::string(kKeptBytes + 10, 'y') + "\n"), std::string::npos);
}

TEST_F(KeptLinesTest, WithoutADelayEveryLineIsWrittenAtOnce) {
  KeepLines(std::chrono::milliseconds(0));
  Info("one");
  Info("two");
  EXPECT_EQ(Writes().size(), 2u);
  EXPECT_FALSE(KeptLinesDue().has_value());
}

// A pool worker's JWKS refresher logs from a thread of its own: its lines go out at once, never
// into the kept ones the worker's thread alone touches.
TEST_F(KeptLinesTest, OnlyTheThreadThatAskedKeepsItsLines) {
  KeepLines(std::chrono::seconds(5));
  Info("the keeping thread's");
  std::thread other([] {
    Info("another thread's");
    EXPECT_FALSE(KeptLinesDue().has_value());
  });
  other.join();
  std::vector<std::string> writes = Writes();
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_NE(writes[0].find("another thread's"), std::string::npos) << writes[0];
  Flush();
  writes = Writes();
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_NE(writes[0].find("the keeping thread's"), std::string::npos) << writes[0];
}

TEST_F(KeptLinesTest, AForkedChildWritesNoneOfItsParentsKeptLines) {
  Init("log_test");
  KeepLines(std::chrono::seconds(5));
  Info("the parent's");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Warn("the child's");
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const std::vector<std::string> from_child = Writes();
  ASSERT_EQ(from_child.size(), 1u);
  EXPECT_EQ(from_child[0].find("the parent's"), std::string::npos) << from_child[0];
  Flush();
  const std::vector<std::string> from_parent = Writes();
  ASSERT_EQ(from_parent.size(), 1u);
  EXPECT_NE(from_parent[0].find("the parent's"), std::string::npos);
}

}  // namespace
}  // namespace netgraph::log
