#include "core/config/known_settings.h"

#include <algorithm>
#include <array>

namespace netgraph::config {
namespace {

// Not settings: scripts/stack writes these into the stack.env its daemons read, for its clients.
constexpr std::array<std::string_view, 2> kStackClientNames = {"NETGRAPH_BASE_URL",
                                                               "NETGRAPH_WS_URL"};

// Optimal string alignment distance: Levenshtein's edits plus the swap of two neighbours, the
// commonest slip of the fingers (NETGRAPH_WORKRES).
std::size_t Edits(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

bool IsKnownName(std::string_view name) {
  const std::vector<std::string_view>& settings = SettingsReadByTheCode();
  return std::binary_search(settings.begin(), settings.end(), name) ||
         std::find(kStackClientNames.begin(), kStackClientNames.end(), name) !=
             kStackClientNames.end();
}

NearestSetting Nearest(std::string_view name) {
  NearestSetting nearest{{}, name.size() + 64};
  for (std::string_view setting : SettingsReadByTheCode()) {
    const std::size_t edits = Edits(name, setting);
    if (edits < nearest.edits) nearest = {setting, edits};
  }
  return nearest;
}

}  // namespace netgraph::config
