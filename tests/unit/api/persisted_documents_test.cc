// The pure parts of persisted documents: a request's extensions.persistedQuery
// (core/api/operation_request.h), the trusted manifest (core/api/trusted_documents.h), and what
// PersistedDocuments::Resolve decides without a database (core/api/persisted_documents.h). The
// table and the round trips are tests/integration/persisted-documents.test.mjs's.
#include "core/api/persisted_documents.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "core/api/operation_request.h"
#include "core/api/trusted_documents.h"

namespace netgraph::api {
namespace {

constexpr std::string_view kQuery = "{ __typename }";
// sha256sum of kQuery, as a client computes it.
constexpr std::string_view kQueryHash =
    "7f56e67dd21ab3f30d1ff8b7bed08893f0a0db86449836189b361dd1e56ddb4b";

nlohmann::json Persisted(nlohmann::json hash, nlohmann::json version = 1) {
  return {{"persistedQuery", {{"version", version}, {"sha256Hash", hash}}}};
}

TEST(PersistedQueryRequestTest, TheHashIsTheTextsSha256InLowerCaseHex) {
  EXPECT_EQ(DocumentHash(kQuery), kQueryHash);
  EXPECT_TRUE(IsDocumentHash(kQueryHash));
  EXPECT_FALSE(IsDocumentHash(std::string(kQueryHash).substr(1)));
  std::string upper(kQueryHash);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_FALSE(IsDocumentHash(upper));
}

TEST(PersistedQueryRequestTest, AHashAloneIsARequestWithoutText) {
  Result<OperationRequest> request =
      OperationRequest::FromJson({{"extensions", Persisted(std::string(kQueryHash))}});
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->persisted_hash, std::string(kQueryHash));
  EXPECT_TRUE(request->query.empty());
}

TEST(PersistedQueryRequestTest, TheHashWithItsTextIsAccepted) {
  Result<OperationRequest> request = OperationRequest::FromJson(
      {{"query", kQuery}, {"extensions", Persisted(std::string(kQueryHash))}});
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->query, kQuery);
  EXPECT_EQ(request->persisted_hash, std::string(kQueryHash));
}

TEST(PersistedQueryRequestTest, AHashThatIsNotTheTextsIsRefused) {
  Result<OperationRequest> request = OperationRequest::FromJson(
      {{"query", "{ __typename  }"}, {"extensions", Persisted(std::string(kQueryHash))}});
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(request.status().message().find("not the SHA-256 of the query"), std::string::npos);
}

TEST(PersistedQueryRequestTest, AnUnknownVersionOrAMalformedHashIsRefused) {
  for (const nlohmann::json& extensions :
       {Persisted(std::string(kQueryHash), 2), Persisted(std::string(kQueryHash), "1"),
        nlohmann::json{{"persistedQuery", {{"sha256Hash", kQueryHash}}}}, Persisted("abc"),
        Persisted(42), nlohmann::json{{"persistedQuery", "x"}}}) {
    Result<OperationRequest> request = OperationRequest::FromJson({{"extensions", extensions}});
    EXPECT_FALSE(request.ok()) << extensions.dump();
    EXPECT_EQ(request.status().code(), StatusCode::kInvalidArgument) << extensions.dump();
  }
  EXPECT_NE(OperationRequest::FromJson({{"extensions", Persisted(std::string(kQueryHash), 2)}})
                .status()
                .message()
                .find("Unsupported persistedQuery version"),
            std::string::npos);
}

TEST(PersistedQueryRequestTest, WithoutAPersistedQueryTheQueryIsStillRequired) {
  Result<OperationRequest> request =
      OperationRequest::FromJson({{"extensions", {{"tracing", true}}}});
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.status().message(), "Missing query");
  Result<OperationRequest> plain = OperationRequest::FromJson(
      {{"query", kQuery}, {"extensions", {{"persistedQuery", nullptr}}}});
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->persisted_hash.has_value());
}

TEST(TrustedDocumentsTest, AManifestOfHashesAndTheirTextsLoads) {
  Result<TrustedDocuments> trusted = TrustedDocuments::Parse(
      nlohmann::json{{std::string(kQueryHash), kQuery}, {DocumentHash("{ a }"), "{ a }"}}.dump());
  ASSERT_TRUE(trusted.ok()) << trusted.status().message();
  EXPECT_EQ(trusted->size(), 2u);
  ASSERT_NE(trusted->Find(kQueryHash), nullptr);
  EXPECT_EQ(*trusted->Find(kQueryHash), kQuery);
  EXPECT_EQ(trusted->Find(DocumentHash("{ b }")), nullptr);
  EXPECT_TRUE(TrustedDocuments::Parse("{}").ok());
}

TEST(TrustedDocumentsTest, EveryEntryIsCheckedAndAnythingElseIsRefused) {
  std::string sha1_of_query = "f3b6b0e0f1a6e4d1b0b7b5b0e0f1a6e4d1b0b7b5";  // 40 digits
  for (const std::string& manifest :
       {std::string("not json"), std::string("[]"), std::string("\"x\""),
        nlohmann::json{{std::string(kQueryHash), 42}}.dump(),
        nlohmann::json{{std::string(kQueryHash), "{ __typename  }"}}.dump(),
        nlohmann::json{{sha1_of_query, kQuery}}.dump(),
        nlohmann::json{{std::string(kQueryHash), kQuery}, {DocumentHash("{ a }"), "{ b }"}}
            .dump()}) {
    Result<TrustedDocuments> trusted = TrustedDocuments::Parse(manifest);
    EXPECT_FALSE(trusted.ok()) << manifest;
  }
  Result<TrustedDocuments> wrong =
      TrustedDocuments::Parse(nlohmann::json{{std::string(kQueryHash), "{ __typename  }"}}.dump());
  EXPECT_NE(wrong.status().message().find(std::string(kQueryHash)), std::string::npos)
      << "the entry is named";
}

TEST(TrustedDocumentsTest, AFileThatCannotBeReadNamesTheVariable) {
  Result<TrustedDocuments> missing = TrustedDocuments::Load("/nonexistent/persisted.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("NETGRAPH_TRUSTED_DOCUMENTS"), std::string::npos);
}

// A connection that is never opened: with a manifest nothing reads the database.
class PersistedDocumentsTest : public ::testing::Test {
 protected:
  store::Connection unused_{"postgresql://127.0.0.1:1/unused"};
};

std::shared_ptr<const TrustedDocuments> ManifestOf(std::string_view text) {
  Result<TrustedDocuments> trusted =
      TrustedDocuments::Parse(nlohmann::json{{DocumentHash(text), text}}.dump());
  EXPECT_TRUE(trusted.ok());
  return std::make_shared<const TrustedDocuments>(std::move(trusted).value());
}

std::string CodeOf(const PersistedLookup& lookup) {
  if (!lookup.refusal) return "";
  return lookup.refusal->error_codes.empty() ? "?" : lookup.refusal->error_codes.front();
}

TEST_F(PersistedDocumentsTest, WithAManifestItsDocumentsRunByHashOrByTextAndNothingElse) {
  PersistedDocuments documents(ManifestOf(kQuery), 10);
  OperationRequest by_hash;
  by_hash.persisted_hash = std::string(kQueryHash);
  PersistedLookup lookup = documents.Resolve(&unused_, by_hash);
  EXPECT_FALSE(lookup.refusal.has_value());
  EXPECT_EQ(by_hash.query, kQuery);
  EXPECT_FALSE(by_hash.persisted_hash.has_value());
  EXPECT_TRUE(lookup.to_register.empty()) << "nothing is registered beside a manifest";

  OperationRequest by_text;
  by_text.query = std::string(kQuery);
  EXPECT_EQ(CodeOf(documents.Resolve(&unused_, by_text)), "");

  OperationRequest other_text;
  other_text.query = "{ other }";
  PersistedLookup refused = documents.Resolve(&unused_, other_text);
  EXPECT_EQ(CodeOf(refused), kPersistedQueryNotAllowedCode);
  EXPECT_FALSE(refused.refusal->has_data);

  OperationRequest other_hash;
  other_hash.persisted_hash = DocumentHash("{ other }");
  EXPECT_EQ(CodeOf(documents.Resolve(&unused_, other_hash)), kPersistedQueryNotAllowedCode);

  OperationRequest other_both;
  other_both.query = "{ other }";
  other_both.persisted_hash = DocumentHash("{ other }");
  EXPECT_EQ(CodeOf(documents.Resolve(&unused_, other_both)), kPersistedQueryNotAllowedCode);
}

TEST_F(PersistedDocumentsTest, WithoutAManifestTextRunsAndTheHashWithItsTextIsToBeRegistered) {
  PersistedDocuments documents(nullptr, 10);
  OperationRequest plain;
  plain.query = "{ anything }";
  PersistedLookup lookup = documents.Resolve(&unused_, plain);
  EXPECT_FALSE(lookup.refusal.has_value());
  EXPECT_TRUE(lookup.to_register.empty());

  OperationRequest both;
  both.query = std::string(kQuery);
  both.persisted_hash = std::string(kQueryHash);
  PersistedLookup registering = documents.Resolve(&unused_, both);
  EXPECT_FALSE(registering.refusal.has_value());
  EXPECT_EQ(registering.to_register, kQueryHash);
  EXPECT_FALSE(both.persisted_hash.has_value());
}

TEST_F(PersistedDocumentsTest, AHashThatCannotBeLookedUpIsNotFoundSoTheClientSendsTheText) {
  PersistedDocuments documents(nullptr, 10);
  OperationRequest by_hash;
  by_hash.persisted_hash = std::string(kQueryHash);
  PersistedLookup lookup = documents.Resolve(&unused_, by_hash);  // the database is unreachable
  ASSERT_TRUE(lookup.refusal.has_value());
  EXPECT_EQ(CodeOf(lookup), kPersistedQueryNotFoundCode);
  EXPECT_EQ(nlohmann::json::parse(lookup.refusal->errors)[0]["message"],
            kPersistedQueryNotFoundMessage);
}

TEST_F(PersistedDocumentsTest, WithoutADatabaseAnUnknownHashIsLeftForOneAndAKnownOneResolves) {
  PersistedDocuments documents(nullptr, 10);
  OperationRequest unknown;
  unknown.persisted_hash = std::string(kQueryHash);
  PersistedLookup lookup = documents.Resolve(nullptr, unknown);
  EXPECT_TRUE(lookup.needs_database);
  EXPECT_FALSE(lookup.refusal.has_value());
  EXPECT_EQ(unknown.persisted_hash, std::string(kQueryHash)) << "kept for the database thread";

  documents.Remember(std::string(kQueryHash), std::string(kQuery));
  PersistedLookup known = documents.Resolve(nullptr, unknown);
  EXPECT_FALSE(known.needs_database);
  EXPECT_FALSE(known.refusal.has_value());
  EXPECT_EQ(unknown.query, kQuery);
  EXPECT_FALSE(unknown.persisted_hash.has_value());
}

}  // namespace
}  // namespace netgraph::api
