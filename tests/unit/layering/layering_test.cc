// Runs the layering checker (tools/layering/layering_check.cc) the way the build does: on scratch
// trees that break one rule each, expecting exit status 1 and a line naming file, line and rule;
// with the spec CMake wrote, on scratch trees laid out like fcgi/ and ws/ that include the wrong
// way, and on this repository, expecting success.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_status;
  std::string output;
};

Outcome RunChecker(const std::string& root, const std::string& spec, const std::string& scanned) {
  const std::string command =
      std::string(NETGRAPH_LAYERING_CHECK) + " '" + root + "' '" + spec + "' " + scanned + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// A scratch tree in a temporary folder, gone after the test.
class ScratchTreeTest : public ::testing::Test {
 protected:
  // Appends `text` to the file at `path` (made with its folders when missing).
  void Write(const std::string& path, const std::string& text) {
    fs::create_directories((fs::path(root_) / path).parent_path());
    std::ofstream(fs::path(root_) / path, std::ios::app) << text;
  }

  netgraph::testing::TempDir scratch_{"netgraph-layering"};
  const std::string root_ = scratch_.path().string();
};

// A scratch repository: two concerns, `low` (core/low) and `high` (core/high, depends on low), the
// daemon beside them, and low's unit tests in tests/unit/low.
class LayeringCheckTest : public ScratchTreeTest {
 protected:
  void SetUp() override {
    ScratchTreeTest::SetUp();
    Write("spec",
          "concern low core/low/ depends tests tests/unit/low/\n"
          "concern high core/high/ depends low\n"
          "concern daemon daemon/ depends\n"
          "forbid core/ fcgi/ ws/ daemon/\n");
    Write("core/low/public.h", "// public\n");
    Write("core/low/internal/detail.h", "// detail\n");
    Write("core/low/public.cc",
          "#include \"core/low/public.h\"\n#include \"core/low/internal/detail.h\"\n");
    Write("core/high/high.cc", "#include <string>\n\n#include \"core/low/public.h\"\n");
    Write("tests/unit/low/detail_test.cc", "#include \"core/low/internal/detail.h\"\n");
    Write("fcgi/adapter.cc", "#include \"core/high/high.h\"\n");
    Write("daemon/listen_socket.h", "// listening sockets\n");
  }
  // Replaces the spec.
  void WriteSpec(const std::string& text) {
    fs::remove(fs::path(root_) / "spec");
    Write("spec", text);
  }
  Outcome Check() { return RunChecker(root_, root_ + "/spec", "core daemon fcgi tests"); }
};

TEST_F(LayeringCheckTest, AcceptsATreeThatKeepsTheLayering) {
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 0) << outcome.output;
  EXPECT_EQ(outcome.output, "");
}

TEST_F(LayeringCheckTest, RefusesCoreIncludingAnAdapterOrTheDaemon) {
  Write("core/low/uses_fcgi.cc", "// first line\n#include \"fcgi/adapter.h\"\n");
  Write("core/high/uses_daemon.cc", "#include \"daemon/listen_socket.h\"\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("core/low/uses_fcgi.cc:2: error: includes \"fcgi/adapter.h\": "
                                "files under core/ must not include anything under fcgi/ "
                                "[forbidden-include]"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("core/high/uses_daemon.cc:1: error: includes "
                                "\"daemon/listen_socket.h\": files under core/ must not include "
                                "anything under daemon/ [forbidden-include]"),
            std::string::npos)
      << outcome.output;
}

TEST_F(LayeringCheckTest, RefusesAnotherConcernsInternalHeader) {
  Write("core/high/peek.cc", "#include \"core/low/internal/detail.h\"\n");
  Write("fcgi/peek.cc", "\n\n#include \"core/low/internal/detail.h\"\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("core/high/peek.cc:1: error: includes "
                                "\"core/low/internal/detail.h\", which is internal to concern low "
                                "[internal-header]"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("fcgi/peek.cc:3: error: includes \"core/low/internal/detail.h\", "
                                "which is internal to concern low [internal-header]"),
            std::string::npos)
      << outcome.output;
}

TEST_F(LayeringCheckTest, RefusesAConcernItDoesNotDependOn) {
  Write("core/low/upward.cc", "#include \"core/high/high.h\"\n");
  Write("daemon/sideways.cc", "#include \"fcgi/adapter.h\"\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("core/low/upward.cc:1: error: includes \"core/high/high.h\": "
                                "concern low does not depend on concern high"),
            std::string::npos)
      << outcome.output;
  EXPECT_NE(outcome.output.find("[undeclared-dependency]"), std::string::npos) << outcome.output;
  EXPECT_NE(outcome.output.find("daemon/sideways.cc:1: error: includes \"fcgi/adapter.h\", which "
                                "belongs to no concern; concern daemon may include only the "
                                "concerns it depends on [undeclared-dependency]"),
            std::string::npos)
      << outcome.output;
}

TEST_F(LayeringCheckTest, RefusesASpecNamingAnUnknownConcern) {
  WriteSpec("concern high core/high/ depends lower\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("concern high depends on unknown concern lower"), std::string::npos)
      << outcome.output;
}

TEST_F(LayeringCheckTest, RefusesACycleOfDependencies) {
  WriteSpec(
      "concern low core/low/ depends high\n"
      "concern high core/high/ depends low\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 2) << outcome.output;
  EXPECT_NE(outcome.output.find("the declared dependencies have a cycle: low high low"),
            std::string::npos)
      << outcome.output;
}

// Whether the checker's output has `line`, shown when it has not.
::testing::AssertionResult Reports(const Outcome& outcome, const std::string& line) {
  if (outcome.output.find(line) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no \"" << line << "\" in:\n" << outcome.output;
}

// The adapters' layering as this repository declares it (fcgi/CMakeLists.txt, ws/CMakeLists.txt),
// on a scratch tree laid out like theirs: the spec CMake wrote, not one made up here.
class LayeringOfTheAdaptersTest : public ScratchTreeTest {
 protected:
  void SetUp() override {
    ScratchTreeTest::SetUp();
    // What the wings may include: the HTTP wing from the FastCGI wing, both from the pool.
    Write("fcgi/http/routes.cc", "#include \"fcgi/http/graphql_http.h\"\n");
    Write("fcgi/fastcgi/http_exchange.cc", "#include \"fcgi/http/http.h\"\n");
    Write("fcgi/pool/serve.cc",
          "#include \"fcgi/fastcgi/http_exchange.h\"\n#include \"fcgi/http/routes.h\"\n");
    Write("fcgi/main.cc", "#include \"fcgi/pool/master.h\"\n");
    Write("ws/hub.cc", "#include \"core/api/service.h\"\n#include \"daemon/signals.h\"\n");
  }
  Outcome Check() { return RunChecker(root_, NETGRAPH_LAYERING_SPEC, "fcgi ws"); }
};

TEST_F(LayeringOfTheAdaptersTest, AcceptsIncludesTowardsTheHttpWing) {
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 0) << outcome.output;
}

TEST_F(LayeringOfTheAdaptersTest, RefusesAWingIncludingTheWingsAboveIt) {
  // The HTTP wing knows no pool: the pool registers /status and /metrics with the router.
  Write("fcgi/http/routes.cc", "#include \"fcgi/pool/scoreboard.h\"\n");
  Write("fcgi/http/http.cc", "#include \"fcgi/fastcgi/record.h\"\n");
  Write("fcgi/fastcgi/connection.cc", "#include \"fcgi/pool/worker.h\"\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 1) << outcome.output;
  EXPECT_TRUE(Reports(outcome,
                      "fcgi/http/routes.cc:2: error: includes \"fcgi/pool/scoreboard.h\": "
                      "concern fcgi_http does not depend on concern fcgi_pool"));
  EXPECT_TRUE(Reports(outcome,
                      "fcgi/http/http.cc:1: error: includes \"fcgi/fastcgi/record.h\": "
                      "concern fcgi_http does not depend on concern fcgi_fastcgi"));
  EXPECT_TRUE(Reports(outcome,
                      "fcgi/fastcgi/connection.cc:1: error: includes "
                      "\"fcgi/pool/worker.h\": concern fcgi_fastcgi does not depend on "
                      "concern fcgi_pool"));
}

TEST_F(LayeringOfTheAdaptersTest, RefusesOneAdapterIncludingTheOther) {
  Write("ws/hub.cc", "#include \"fcgi/http/http.h\"\n");
  Write("fcgi/pool/worker.cc", "#include \"ws/hub.h\"\n");
  const Outcome outcome = Check();
  EXPECT_EQ(outcome.exit_status, 1) << outcome.output;
  EXPECT_TRUE(Reports(outcome,
                      "ws/hub.cc:3: error: includes \"fcgi/http/http.h\": concern "
                      "ws_server does not depend on concern fcgi_http"));
  EXPECT_TRUE(Reports(outcome,
                      "fcgi/pool/worker.cc:1: error: includes \"ws/hub.h\": concern "
                      "fcgi_pool does not depend on concern ws_server"));
}

TEST(LayeringOfThisRepositoryTest, KeepsTheDeclaredLayering) {
  const Outcome outcome =
      RunChecker(NETGRAPH_SOURCE_DIR, NETGRAPH_LAYERING_SPEC, NETGRAPH_LAYERING_SCANNED);
  EXPECT_EQ(outcome.exit_status, 0) << outcome.output;
}

}  // namespace
