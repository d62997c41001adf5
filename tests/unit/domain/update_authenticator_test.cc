#include "core/domain/update_authenticator.h"

#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <string>

#include "tests/support/temp_dir.h"

namespace netgraph::domain {
namespace {

const std::string kKey(64, 'a');
constexpr char kChannel[] = "netgraph:graph";

UpdateAuthenticator Authenticator(const std::string& hex = kKey) {
  Result<UpdateAuthenticator> loaded = UpdateAuthenticator::FromHexKey(hex);
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  return loaded.ok() ? *loaded : UpdateAuthenticator();
}

TEST(UpdateAuthenticatorTest, ASealedMessageOpensToItsPayload) {
  UpdateAuthenticator updates = Authenticator();
  ASSERT_TRUE(updates.signing());
  const std::string payload = R"({"sequence":7,"nodes":[]})";
  const std::string sealed = updates.Seal(kChannel, payload);
  ASSERT_EQ(sealed.size(), 64 + 1 + payload.size());
  EXPECT_EQ(sealed.substr(65), payload);
  Result<std::string_view> opened = updates.Open(kChannel, sealed);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  EXPECT_EQ(*opened, payload);
}

// HMAC-SHA256(key = 32 bytes of 0xaa, "14:netgraph:graph{}"), as Node's crypto.createHmac computes
// it (tests/support/redis.mjs signs this way).
TEST(UpdateAuthenticatorTest, TheMacIsHmacSha256OverTheChannelAndThePayload) {
  EXPECT_EQ(Authenticator().Seal(kChannel, "{}"),
            "fcbb674cffbf93ca95016b0abd0b76124089b2fb32dd7a10b5c1cdf35c9aa895.{}");
}

TEST(UpdateAuthenticatorTest, RefusesUnsignedForgedAndMisdirectedMessages) {
  UpdateAuthenticator updates = Authenticator();
  const std::string payload = R"({"sequence":8})";
  const std::string sealed = updates.Seal(kChannel, payload);
  EXPECT_FALSE(updates.Open(kChannel, payload).ok()) << "unsigned";
  EXPECT_FALSE(updates.Open(kChannel, "").ok());
  EXPECT_FALSE(updates.Open(kChannel, sealed.substr(0, 64)).ok()) << "no payload, no dot";
  std::string tampered = sealed;
  tampered.back() = ']';
  EXPECT_FALSE(updates.Open(kChannel, tampered).ok()) << "payload changed";
  std::string bad_mac = sealed;
  bad_mac[0] = bad_mac[0] == '0' ? '1' : '0';
  EXPECT_FALSE(updates.Open(kChannel, bad_mac).ok()) << "MAC changed";
  std::string uppercase = sealed;
  for (std::size_t i = 0; i < 64; ++i) uppercase[i] = static_cast<char>(std::toupper(uppercase[i]));
  EXPECT_FALSE(updates.Open(kChannel, uppercase).ok()) << "not the canonical form";
  EXPECT_FALSE(updates.Open("netgraph:other", sealed).ok()) << "signed for another channel";
  EXPECT_FALSE(Authenticator(std::string(64, 'b')).Open(kChannel, sealed).ok()) << "other key";
}

TEST(UpdateAuthenticatorTest, SigningOffPassesPayloadsThrough) {
  UpdateAuthenticator off;
  EXPECT_FALSE(off.signing());
  EXPECT_EQ(off.Seal(kChannel, "{}"), "{}");
  EXPECT_EQ(*off.Open(kChannel, "{}"), "{}");
}

TEST(UpdateAuthenticatorTest, TheSettingIsRequiredAndTheKeyChecked) {
  std::optional<std::string> value;
  config::Environment env([&](const std::string&) { return value; });
  Result<UpdateAuthenticator> unset = UpdateAuthenticator::FromEnvironment(env);
  ASSERT_FALSE(unset.ok());
  EXPECT_NE(unset.status().message().find("NETGRAPH_UPDATE_SIGNING_KEY_FILE"), std::string::npos);

  value = "off";
  Result<UpdateAuthenticator> off = UpdateAuthenticator::FromEnvironment(env);
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->signing());

  value = "/nonexistent/update-signing.key";
  EXPECT_FALSE(UpdateAuthenticator::FromEnvironment(env).ok());

  testing::TempDir dir("netgraph-update-key");
  value = dir.Write("update-signing.key", kKey + "\n");
  Result<UpdateAuthenticator> from_file = UpdateAuthenticator::FromEnvironment(env);
  ASSERT_TRUE(from_file.ok()) << from_file.status().message();
  EXPECT_EQ(from_file->Seal(kChannel, "{}"), Authenticator().Seal(kChannel, "{}"));

  EXPECT_FALSE(UpdateAuthenticator::FromHexKey(std::string(62, 'a')).ok()) << "under 32 bytes";
  EXPECT_FALSE(UpdateAuthenticator::FromHexKey(std::string(65, 'a')).ok()) << "odd length";
  EXPECT_FALSE(UpdateAuthenticator::FromHexKey(std::string(64, 'g')).ok()) << "not hex";
  EXPECT_FALSE(UpdateAuthenticator::FromHexKey("").ok());
}

}  // namespace
}  // namespace netgraph::domain
