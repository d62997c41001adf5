// Spec (September 2025) §5.5.2.2 Fragment Spreads Must Not Form Cycles.
#include <string>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

bool NoFragmentCyclesRule::Enter(const ast::Node& node) {
  DetectCycles(static_cast<const ast::FragmentDefinition&>(node));
  return true;
}

// graphql-js's depth-first search, which reports every cycle it closes, written with an explicit
// stack so that long chains of fragments cannot exhaust the call stack.
void NoFragmentCyclesRule::DetectCycles(const ast::FragmentDefinition& start) {
  struct Frame {
    std::string_view name;
    const std::vector<const ast::FragmentSpread*>* spreads;
    std::size_t next;
  };
  std::vector<Frame> stack;
  auto enter = [&](const ast::FragmentDefinition& fragment) {
    if (!visited_.Insert(fragment.name.value, true)) return;
    const auto& spreads = context().FragmentSpreads(*fragment.selection_set);
    if (spreads.empty()) return;
    path_index_.emplace_back(fragment.name.value, spread_path_.size());
    stack.push_back({fragment.name.value, &spreads, 0});
  };
  auto path_index_of = [&](std::string_view name) -> const std::size_t* {
    for (const auto& [fragment_name, index] : path_index_) {
      if (fragment_name == name) return &index;
    }
    return nullptr;
  };

  enter(start);
  while (!stack.empty() && !context().aborted()) {
    Frame& frame = stack.back();
    if (frame.next > 0) spread_path_.pop_back();  // the spread explored last
    if (frame.next == frame.spreads->size()) {
      path_index_.pop_back();
      stack.pop_back();
      continue;
    }
    const ast::FragmentSpread* spread = (*frame.spreads)[frame.next++];
    const std::size_t* cycle_index = path_index_of(spread->name.value);
    spread_path_.push_back(spread);
    if (cycle_index == nullptr) {
      if (const ast::FragmentDefinition* fragment = context().Fragment(spread->name.value)) {
        enter(*fragment);
      }
      continue;
    }
    std::string via;
    std::vector<std::uint32_t> offsets;
    for (std::size_t i = *cycle_index; i < spread_path_.size(); ++i) {
      offsets.push_back(spread_path_[i]->offset);
      if (i + 1 == spread_path_.size()) break;
      via += (via.empty() ? "\"" : ", \"") + std::string(spread_path_[i]->name.value) + "\"";
    }
    context().ReportError(
        StrCat({"Cannot spread fragment \"", spread->name.value, "\" within itself",
                via.empty() ? std::string(".") : StrCat({" via ", via, "."})}),
        offsets);
  }
  spread_path_.clear();
  path_index_.clear();
}

}  // namespace netgraph::graphql
