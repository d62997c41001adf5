// Status codes and the propagation macros of core/status.h.
#include "core/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

namespace netgraph {
namespace {

TEST(StatusTest, OkHasNoCodeAndNoMessage) {
  Status ok = Status::Ok();
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_FALSE(ok.IsRetryable());
}

TEST(StatusTest, EachNamedConstructorCarriesItsCodeAndTheMessageUnchanged) {
  struct Case {
    Status status;
    StatusCode code;
    bool (Status::*predicate)() const;
  };
  const Case cases[] = {
      {Status::InvalidArgument("m"), StatusCode::kInvalidArgument, &Status::IsInvalidArgument},
      {Status::NotFound("m"), StatusCode::kNotFound, &Status::IsNotFound},
      {Status::AlreadyExists("m"), StatusCode::kAlreadyExists, &Status::IsAlreadyExists},
      {Status::FailedPrecondition("m"), StatusCode::kFailedPrecondition,
       &Status::IsFailedPrecondition},
      {Status::PermissionDenied("m"), StatusCode::kPermissionDenied, &Status::IsPermissionDenied},
      {Status::Unauthenticated("m"), StatusCode::kUnauthenticated, &Status::IsUnauthenticated},
      {Status::ResourceExhausted("m"), StatusCode::kResourceExhausted,
       &Status::IsResourceExhausted},
      {Status::Aborted("m"), StatusCode::kAborted, &Status::IsAborted},
      {Status::Unavailable("m"), StatusCode::kUnavailable, &Status::IsUnavailable},
      {Status::DeadlineExceeded("m"), StatusCode::kDeadlineExceeded, &Status::IsDeadlineExceeded},
      {Status::Internal("m"), StatusCode::kInternal, &Status::IsInternal},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(StatusCodeName(c.code)));
    EXPECT_FALSE(c.status.ok());
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "m");
    EXPECT_TRUE((c.status.*c.predicate)());
    // Exactly one predicate holds.
    int holding = 0;
    for (const Case& other : cases) holding += (c.status.*other.predicate)() ? 1 : 0;
    EXPECT_EQ(holding, 1);
    EXPECT_EQ(c.status.IsRetryable(),
              c.code == StatusCode::kAborted || c.code == StatusCode::kUnavailable);
  }
}

TEST(StatusTest, FromCodeNeverMakesOk) {
  Status plain = Status::FromCode(StatusCode::kUnknown, "something failed");
  EXPECT_FALSE(plain.ok());
  EXPECT_EQ(plain.code(), StatusCode::kUnknown);
  EXPECT_EQ(plain.message(), "something failed");
  EXPECT_EQ(Status::FromCode(StatusCode::kOk, "x").code(), StatusCode::kUnknown);
  EXPECT_EQ(Status::FromCode(StatusCode::kAborted, "x").code(), StatusCode::kAborted);
}

TEST(StatusTest, WithContextKeepsTheCode) {
  Status lost = Status::Unavailable("server closed the connection").WithContext("users_find");
  EXPECT_TRUE(lost.IsUnavailable());
  EXPECT_EQ(lost.message(), "users_find: server closed the connection");
  EXPECT_TRUE(Status::Ok().WithContext("anything").ok());
}

TEST(StatusTest, ResultCarriesAValueOrTheStatusWithItsCode) {
  Result<int> value = 7;
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 7);
  EXPECT_TRUE(value.status().ok());
  Result<int> missing = Status::NotFound("no such row");
  EXPECT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_EQ(missing.status().message(), "no such row");
}

// Functions of every shape the macros must work in.
int calls = 0;
Status Step(Status outcome) {
  ++calls;
  return outcome;
}
Result<std::string> Text(Result<std::string> outcome) {
  ++calls;
  return outcome;
}

Status TwoSteps(Status first, Status second) {
  NETGRAPH_RETURN_IF_ERROR(Step(std::move(first)));
  NETGRAPH_RETURN_IF_ERROR(Step(std::move(second)));
  return Status::Ok();
}

TEST(StatusMacrosTest, ReturnIfErrorStopsAtTheFirstErrorAndKeepsItsCode) {
  calls = 0;
  EXPECT_TRUE(TwoSteps(Status::Ok(), Status::Ok()).ok());
  EXPECT_EQ(calls, 2);

  calls = 0;
  Status failed = TwoSteps(Status::DeadlineExceeded("lock timeout"), Status::Ok());
  EXPECT_TRUE(failed.IsDeadlineExceeded());
  EXPECT_EQ(failed.message(), "lock timeout");
  EXPECT_EQ(calls, 1) << "the second step must not run";
}

Result<int> LengthOf(Result<std::string> text) {
  NETGRAPH_RETURN_IF_ERROR(text);  // a Result works as well as a Status
  NETGRAPH_ASSIGN_OR_RETURN(std::string copy, Text(std::move(text)));
  return static_cast<int>(copy.size());
}

TEST(StatusMacrosTest, ReturnIfErrorAcceptsAResultAndReturnsIntoAResult) {
  Result<int> length = LengthOf(std::string("four"));
  ASSERT_TRUE(length.ok());
  EXPECT_EQ(*length, 4);
  Result<int> failed = LengthOf(Status::Aborted("could not serialize access"));
  EXPECT_TRUE(failed.status().IsAborted());
  EXPECT_EQ(failed.status().message(), "could not serialize access");
}

Result<std::string> Joined(Result<std::string> first, Result<std::string> second) {
  NETGRAPH_ASSIGN_OR_RETURN(std::string joined, Text(std::move(first)));
  std::string tail;
  NETGRAPH_ASSIGN_OR_RETURN(tail, Text(std::move(second)));  // into an existing variable
  return joined + tail;
}

TEST(StatusMacrosTest, AssignOrReturnMovesTheValueOrReturnsTheStatus) {
  calls = 0;
  Result<std::string> both = Joined(std::string("ab"), std::string("cd"));
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(*both, "abcd");
  EXPECT_EQ(calls, 2);

  calls = 0;
  Result<std::string> failed =
      Joined(Status::Unavailable("connection lost"), std::string("never read"));
  EXPECT_TRUE(failed.status().IsUnavailable());
  EXPECT_EQ(failed.status().message(), "connection lost");
  EXPECT_EQ(calls, 1);
}

TEST(StatusMacrosTest, AssignOrReturnTakesMoveOnlyValuesAndWorksInLambdas) {
  auto make = [](bool ok) -> Result<std::unique_ptr<int>> {
    if (!ok) return Status::ResourceExhausted("too many");
    return std::make_unique<int>(5);
  };
  auto use = [&](bool ok) -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(std::unique_ptr<int> owned, make(ok));
    return *owned == 5 ? Status::Ok() : Status::Internal("wrong value");
  };
  EXPECT_TRUE(use(true).ok());
  EXPECT_TRUE(use(false).IsResourceExhausted());
}

}  // namespace
}  // namespace netgraph
