// The HTTP client of bench/write-bench.mjs: every investor at once, each on a kept-alive connection
// of its own, sending its requests one after another and timing each. It is in C++ for the same
// reason pgbench is in C: the client shares the two cores with the servers it measures, and the
// Node client it replaces spent about 195 µs of CPU per claim where pgbench spends 36 per
// transaction of -N (docs/benchmarks.md, "Issue 27: a client as lean as pgbench's"). wrk cannot
// do this: a connection of its has no fixed sequence of requests, and its run lasts -d seconds
// whatever its script does.
//
//   write_client < plan.json > result.json
//
// The plan: {"url": "http://127.0.0.1:PORT/graphql",
//            "investors": [{"token": "...", "bodies": ["{\"query\": ...}", ...]}, ...]}
// The result: {"seconds": wall time from the first request to the last answer,
//              "latencies_us": [one per request, in no particular order],
//              "failures": [the first answers that were not a success, with their investor]}
// An answer succeeds when its status is 200 and its body has "success":true and no "errors"
// (what every mutation the bench sends answers when it did its work). Exit status 0 once every
// request was answered, 1 on a failure of the client itself (a bad plan, curl).
#include <curl/curl.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Answers kept for the report: enough to tell what went wrong, not a copy of a failed run.
constexpr std::size_t kFailuresKept = 5;

struct Investor {
  std::string token;
  std::vector<std::string> bodies;
  std::vector<double> latencies_us;
  std::vector<std::string> failures;
  std::string error;  // a failure of curl itself
};

std::size_t Append(char* data, std::size_t size, std::size_t count, void* answer) {
  static_cast<std::string*>(answer)->append(data, size * count);
  return size * count;
}

bool Succeeded(long status, const std::string& body) {
  return status == 200 && body.find("\"success\":true") != std::string::npos &&
         body.find("\"errors\"") == std::string::npos;
}

// Sends the investor's requests one after another on one handle (so one kept-alive connection).
void Run(const std::string& url, Investor& investor) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    investor.error = "curl_easy_init failed";
    return;
  }
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "content-type: application/json");
  headers = curl_slist_append(headers, ("authorization: Bearer " + investor.token).c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
  std::string answer;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
  for (const std::string& body : investor.bodies) {
    answer.clear();
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    const Clock::time_point sent = Clock::now();
    const CURLcode code = curl_easy_perform(curl);
    const std::chrono::duration<double, std::micro> took = Clock::now() - sent;
    if (code != CURLE_OK) {
      investor.error = curl_easy_strerror(code);
      break;
    }
    investor.latencies_us.push_back(took.count());
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (!Succeeded(status, answer) && investor.failures.size() < kFailuresKept) {
      investor.failures.push_back(std::to_string(status) + " " + answer.substr(0, 300));
    }
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
}

}  // namespace

int main() {
  std::ostringstream input;
  input << std::cin.rdbuf();
  nlohmann::json plan;
  try {
    plan = nlohmann::json::parse(input.str());
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "write_client: the plan is not JSON: " << e.what() << '\n';
    return 1;
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    std::cerr << "write_client: curl_global_init failed\n";
    return 1;
  }
  const std::string url = plan.value("url", "");
  std::vector<Investor> investors;
  for (const nlohmann::json& entry : plan.value("investors", nlohmann::json::array())) {
    investors.push_back(Investor{entry.at("token").get<std::string>(),
                                 entry.at("bodies").get<std::vector<std::string>>(),
                                 {},
                                 {},
                                 {}});
  }
  if (url.empty() || investors.empty()) {
    std::cerr << "write_client: the plan names no url or no investor\n";
    return 1;
  }

  const Clock::time_point started = Clock::now();
  std::vector<std::thread> threads;
  threads.reserve(investors.size());
  for (Investor& investor : investors)
    threads.emplace_back(Run, std::cref(url), std::ref(investor));
  for (std::thread& thread : threads) thread.join();
  const std::chrono::duration<double> wall = Clock::now() - started;

  nlohmann::json result = {{"seconds", wall.count()},
                           {"latencies_us", nlohmann::json::array()},
                           {"failures", nlohmann::json::array()}};
  int status = 0;
  for (std::size_t i = 0; i < investors.size(); ++i) {
    const Investor& investor = investors[i];
    if (!investor.error.empty()) {
      std::cerr << "write_client: investor " << i << ": " << investor.error << '\n';
      status = 1;
    }
    for (double latency : investor.latencies_us) result["latencies_us"].push_back(latency);
    for (const std::string& failure : investor.failures) {
      result["failures"].push_back("investor " + std::to_string(i) + ": " + failure);
    }
  }
  std::cout << result.dump() << '\n';
  curl_global_cleanup();
  return status;
}
