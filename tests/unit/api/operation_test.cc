// RunOperation and Subscribe (core/api/operation.h) over the real service schema, with operations
// that need no database: who the caller is, what the run reports (the engine's error codes, the
// refusal a resolver noted), the read cache of whole public answers, and a mutation refused
// before anything runs.
#include "core/api/operation.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/answer_key.h"
#include "core/api/service.h"
#include "tests/unit/api/counting_generation.h"

namespace netgraph::api {
namespace {

using testing::CountingGeneration;

class OperationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServiceConfig config;
    // A key set nobody fetched: every token is refused, and nothing is read from disk.
    config.auth.jwks_endpoint.url = "https://127.0.0.1:9/jwks.json";
    config.auth.issuer = "https://issuer.test";
    config.auth.audience = "netgraph";
    config.engine.limits.max_cost = 500;
    Result<std::unique_ptr<Service>> created = Service::Create(config);
    ASSERT_TRUE(created.ok()) << created.status().message();
    service_ = std::move(created).value();
  }

  OperationRun Run(std::string query, const Caller& caller, OperationOptions options = {}) {
    OperationRequest request;
    request.query = std::move(query);
    return RunOperation(*service_, request, caller, options);
  }

  std::unique_ptr<Service> service_;
};

TEST_F(OperationTest, ACallerWithAScopeRunsInItAndNoTokenIsVerified) {
  RequestScope scope(*service_, Credentials::kNone, std::nullopt);
  OperationRun run = Run("{ getUserPortfolio { success error } }", Caller::WithScope(scope));
  EXPECT_EQ(run.scope, nullptr) << "the caller's scope, not one of RunOperation's";
  ASSERT_TRUE(run.result.has_data);
  EXPECT_EQ(run.result.data,
            R"({"getUserPortfolio":{"success":false,"error":"Authentication required"}})");
  // The resolver noted its refusal in the caller's scope, and the run reports it.
  EXPECT_EQ(scope.failure(), domain::Failure::kAuthenticationRequired);
  EXPECT_EQ(run.failure, domain::Failure::kAuthenticationRequired);
}

TEST_F(OperationTest, ACallerWithAnAuthorizationIsVerifiedInAScopeOfItsOwn) {
  OperationRun anonymous = Run("{ __typename }", Caller::WithAuthorization(""));
  ASSERT_NE(anonymous.scope, nullptr);
  EXPECT_EQ(anonymous.scope->credentials(), Credentials::kNone);

  OperationRun refused = Run("{ __typename }", Caller::WithAuthorization("Bearer not.a.token"));
  ASSERT_NE(refused.scope, nullptr);
  EXPECT_EQ(refused.scope->credentials(), Credentials::kInvalid);
  EXPECT_EQ(refused.result.data, R"({"__typename":"Query"})") << "public operations still run";
}

TEST_F(OperationTest, TheErrorCodesAreTheEnginesNotReadBackFromTheAnswer) {
  // A field error with a code (allVouchers without a token), then a request error with one (the
  // cost limit), then one without (a syntax error).
  OperationRun field_error = Run("{ allVouchers(first: 1) { id } }", Caller::WithAuthorization(""));
  EXPECT_TRUE(field_error.result.has_data);
  EXPECT_EQ(field_error.result.error_codes, std::vector<std::string>{"UNAUTHENTICATED"});

  OperationRun too_costly =
      Run("{ a: networkGraph(limit: 1000) { nodes { id } } }", Caller::WithAuthorization(""));
  EXPECT_FALSE(too_costly.result.has_data);
  EXPECT_EQ(too_costly.result.error_codes, std::vector<std::string>{"COST_LIMIT_EXCEEDED"});

  OperationRun syntax = Run("{", Caller::WithAuthorization(""));
  EXPECT_FALSE(syntax.result.has_data);
  EXPECT_FALSE(syntax.result.errors.empty());
  EXPECT_TRUE(syntax.result.error_codes.empty());
}

TEST_F(OperationTest, AMutationIsRefusedForQueriesOnlyBeforeTheTokenIsVerified) {
  OperationOptions options;
  options.queries_only = true;
  bool prepared = false;
  options.on_prepared = [&prepared](const OperationRun& run) {
    prepared = true;
    EXPECT_EQ(run.operation->type, graphql::OperationType::kMutation);
  };
  OperationRun run =
      Run(R"(mutation { claimVoucher(voucherCode: "x", walletAddress: "y") { success } })",
          Caller::WithAuthorization("Bearer not.a.token"), options);
  EXPECT_TRUE(prepared);
  EXPECT_TRUE(run.mutation_refused);
  EXPECT_EQ(run.scope, nullptr);
  EXPECT_FALSE(run.result.has_data);
}

TEST_F(OperationTest, ADocumentPreparedAlreadyIsNotPreparedAgain) {
  OperationOptions options;
  options.document = service_->engine().Prepare("{ __typename }");
  // The request's own text would not parse: the document given is what runs.
  OperationRun run = Run("{", Caller::WithAuthorization(""), options);
  EXPECT_EQ(run.document, options.document);
  EXPECT_EQ(run.result.data, R"({"__typename":"Query"})");
}

TEST_F(OperationTest, AnAnonymousPublicAnswerComesFromTheReadCacheAsItsData) {
  CountingGeneration generation;
  service_->UseDataGeneration(&generation);
  OperationRun first = Run("{ __typename }", Caller::WithAuthorization(""));
  OperationRun second = Run("{ __typename }", Caller::WithAuthorization(""));
  EXPECT_EQ(second.result.data, first.result.data);
  EXPECT_TRUE(second.result.has_data);
  EXPECT_EQ(second.result.Body(), R"({"data":{"__typename":"Query"}})");
  EXPECT_EQ(service_->read_cache().size(), 1u) << "one whole answer kept";

  // With a scope of verified (here: refused) credentials, the answer is not the anonymous one.
  RequestScope scope(*service_, Credentials::kInvalid, std::nullopt);
  OperationRun with_scope = Run("{ __typename }", Caller::WithScope(scope));
  EXPECT_EQ(with_scope.result.data, first.result.data);
  EXPECT_EQ(service_->read_cache().size(), 1u);
}

TEST_F(OperationTest, AWholePublicAnswerHasTheDigestOfItsDataAndACallerHoldingItIsNotModified) {
  CountingGeneration generation;
  service_->UseDataGeneration(&generation);
  OperationOptions holds_any;
  int asked = 0;
  holds_any.holds = [&](std::string_view) { return ++asked > 0; };
  // Nothing kept yet: the operation runs, whatever the caller holds.
  OperationRun first = Run("{ __typename }", Caller::WithAuthorization(""), holds_any);
  EXPECT_FALSE(first.not_modified);
  EXPECT_EQ(first.digest, AnswerDigest(first.result.data));
  EXPECT_EQ(asked, 0);

  OperationOptions holds_other;
  holds_other.holds = [](std::string_view) { return false; };
  OperationRun other = Run("{ __typename }", Caller::WithAuthorization(""), holds_other);
  EXPECT_FALSE(other.not_modified);
  EXPECT_EQ(other.result.data, first.result.data);
  EXPECT_EQ(other.digest, first.digest);

  OperationOptions holds_it;
  holds_it.holds = [&](std::string_view digest) { return digest == first.digest; };
  OperationRun again = Run("{ __typename }", Caller::WithAuthorization(""), holds_it);
  EXPECT_TRUE(again.not_modified);
  EXPECT_EQ(again.digest, first.digest);
  EXPECT_TRUE(again.result.data.empty());

  // A change: the kept answer is no longer current, so the operation runs again.
  generation.Advance();
  OperationRun after = Run("{ __typename }", Caller::WithAuthorization(""), holds_it);
  EXPECT_FALSE(after.not_modified);
  EXPECT_EQ(after.digest, first.digest) << "the same data, the same digest";

  // With a token, or with errors, no digest.
  RequestScope scope(*service_, Credentials::kInvalid, std::nullopt);
  EXPECT_TRUE(Run("{ __typename }", Caller::WithScope(scope), holds_it).digest.empty());
  EXPECT_TRUE(Run("{ nope }", Caller::WithAuthorization(""), holds_it).digest.empty());
}

TEST_F(OperationTest, SubscribeStartsWithTheRequestsOperationAndVariables) {
  OperationRequest request;
  request.query =
      "subscription S { networkUpdated { metadata { nodeCount } } } query Q { a: __typename }";
  request.operation_name = "S";
  RequestScope scope(*service_, Credentials::kNone, std::nullopt);
  graphql::ExecutionResult error;
  std::unique_ptr<graphql::Subscription> subscription =
      Subscribe(*service_, service_->engine().Prepare(request.query), request, scope, &error);
  ASSERT_NE(subscription, nullptr) << error.errors;
  EXPECT_EQ(subscription->topic().kind(), graphql::Value::Kind::kString);

  request.operation_name = "Q";
  EXPECT_EQ(Subscribe(*service_, service_->engine().Prepare(request.query), request, scope, &error),
            nullptr);
  EXPECT_FALSE(error.errors.empty());
}

}  // namespace
}  // namespace netgraph::api
