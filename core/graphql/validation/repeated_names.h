// Finding repeated names in a list of AST items (arguments, variable definitions, directives,
// input fields), for the rules that report them. Lists are usually short, so short lists are
// scanned; long ones are hashed, so that a hostile document cannot make this quadratic.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_REPEATED_NAMES_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_REPEATED_NAMES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/graphql/language/ast.h"
#include "core/graphql/utilities/name_map.h"

namespace netgraph::graphql {

inline constexpr std::size_t kMaxScannedListSize = 16;

// The items of `items` whose names occur more than once, grouped by name in the order the names
// first occur (graphql-js's groupBy, keeping the groups of two or more). `name_of(item)` gives an
// item's name.
template <typename T, typename NameOf>
std::vector<std::vector<const T*>> RepeatedNames(const ast::List<const T*>& items, NameOf name_of) {
  std::vector<std::vector<const T*>> groups;
  if (items.size() < 2) return groups;
  if (items.size() <= kMaxScannedListSize) {
    bool any_repeat = false;
    for (std::size_t i = 1; i < items.size() && !any_repeat; ++i) {
      for (std::size_t j = 0; j < i && !any_repeat; ++j) {
        any_repeat = name_of(items[i]) == name_of(items[j]);
      }
    }
    if (!any_repeat) return groups;
  }
  NameMap<std::size_t> group_of_name;
  for (const T* item : items) {
    std::string_view name = name_of(item);
    if (const std::size_t* group = group_of_name.Find(name)) {
      groups[*group].push_back(item);
    } else {
      group_of_name.Insert(name, groups.size());
      groups.push_back({item});
    }
  }
  std::erase_if(groups, [](const std::vector<const T*>& group) { return group.size() < 2; });
  return groups;
}

// The first item of `items` named like items[index] (items[index] itself when it is the first).
// Scans short lists; for long ones `index_cache` (empty at first, then reused for the same list)
// maps each name to its first occurrence.
template <typename T, typename NameOf>
const T* FirstOfName(const ast::List<const T*>& items, std::size_t index, NameOf name_of,
                     NameMap<std::uint32_t>* index_cache) {
  std::string_view name = name_of(items[index]);
  if (items.size() <= kMaxScannedListSize) {
    for (std::size_t i = 0; i < index; ++i) {
      if (name_of(items[i]) == name) return items[i];
    }
    return items[index];
  }
  if (index_cache->size() == 0) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      index_cache->Insert(name_of(items[i]), static_cast<std::uint32_t>(i));
    }
  }
  const std::uint32_t* first = index_cache->Find(name);
  return first == nullptr ? items[index] : items[*first];
}

// Records `name` in `seen` (name to offset) and returns nullptr when it is new; else returns the
// offset it was first seen at.
inline const std::uint32_t* SeenBefore(const ast::Name& name, NameMap<std::uint32_t>* seen) {
  if (const std::uint32_t* first = seen->Find(name.value)) return first;
  seen->Insert(name.value, name.offset);
  return nullptr;
}

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_VALIDATION_REPEATED_NAMES_H_
