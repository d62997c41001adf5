// Spec (September 2025) §5.3.2 Field Selection Merging.
//
// graphql-js's algorithm, step for step (its comparisons "within" a selection set and "between"
// sets and fragments, its caches of collected fields and of compared fragment pairs), so that the
// conflicts, their order and their wording match. Two shortcuts keep hostile documents (a field
// repeated thousands of times, at several levels) cheap without changing any result:
//  - A selection set of plain fields with distinct response names has nothing to compare.
//  - Fields get a structure id (see "Structures" below): a response name selected many times is
//    checked per pair of distinct structures first, and its field pairs are only walked (to
//    report them as graphql-js does) when some pair of structures may conflict.
// Selection sets of __schema and __type fields are kept out of both shortcuts: graphql-js
// collects their fields with a parent type that depends on which of its steps reaches them first.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

// A field as collected from a selection set: the type it was selected on and its definition
// there (graphql-js's [parentType, node, fieldDef]; meta fields have no definition here).
struct FieldEntry {
  const NamedType* parent;
  const ast::Field* node;
  const Field* def;
};

struct Conflict {
  std::string_view response_name;
  std::string reason;               // the reason, when there are no subfield conflicts
  std::vector<Conflict> subfields;  // else the conflicts of the subfields
  std::vector<const ast::Field*> fields1;
  std::vector<const ast::Field*> fields2;
};

// Conflicts in the order found; `limit` bounds how many a caller needs.
struct ConflictList {
  std::vector<Conflict> items;
  std::size_t limit = std::numeric_limits<std::size_t>::max();
  bool full() const { return items.size() >= limit; }
};

// A bound on the conflicts one selection set's check builds. Only a document built to produce
// millions of nested conflicts reaches it (graphql-js would print them all in one message).
constexpr std::size_t kConflictBudget = 100000;
// Groups with more field pairs than this are compared by structure.
constexpr std::size_t kStructuralPairs = 16;
constexpr std::uint32_t kNoStructure = std::numeric_limits<std::uint32_t>::max();

bool IsObject(const NamedType* type) { return type != nullptr && type->kind == TypeKind::kObject; }

std::string ReasonMessage(const Conflict& conflict) {
  if (conflict.subfields.empty()) return conflict.reason;
  std::string message;
  for (const Conflict& subfield : conflict.subfields) {
    if (!message.empty()) message += " and ";
    message += StrCat(
        {"subfields \"", subfield.response_name, "\" conflict because ", ReasonMessage(subfield)});
  }
  return message;
}

// Object fields sorted by name, as graphql-js's sortValueNode sorts them.
std::vector<const ast::ObjectField*> SortedFields(const ast::ObjectValue& object) {
  std::vector<const ast::ObjectField*> fields(object.fields.begin(), object.fields.end());
  std::stable_sort(fields.begin(), fields.end(),
                   [](const ast::ObjectField* a, const ast::ObjectField* b) {
                     return NaturalCompare(a->name.value, b->name.value) < 0;
                   });
  return fields;
}

// Whether graphql-js's print(sortValueNode(value)) is the same for both values.
bool SameValue(const ast::Value& a, const ast::Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case NodeKind::kVariable:
      return static_cast<const ast::Variable&>(a).name.value ==
             static_cast<const ast::Variable&>(b).name.value;
    case NodeKind::kIntValue:
      return static_cast<const ast::IntValue&>(a).value ==
             static_cast<const ast::IntValue&>(b).value;
    case NodeKind::kFloatValue:
      return static_cast<const ast::FloatValue&>(a).value ==
             static_cast<const ast::FloatValue&>(b).value;
    case NodeKind::kStringValue: {
      const auto& string_a = static_cast<const ast::StringValue&>(a);
      const auto& string_b = static_cast<const ast::StringValue&>(b);
      return string_a.block == string_b.block && string_a.value == string_b.value;
    }
    case NodeKind::kBooleanValue:
      return static_cast<const ast::BooleanValue&>(a).value ==
             static_cast<const ast::BooleanValue&>(b).value;
    case NodeKind::kEnumValue:
      return static_cast<const ast::EnumValue&>(a).value ==
             static_cast<const ast::EnumValue&>(b).value;
    case NodeKind::kListValue: {
      const auto& items_a = static_cast<const ast::ListValue&>(a).values;
      const auto& items_b = static_cast<const ast::ListValue&>(b).values;
      if (items_a.size() != items_b.size()) return false;
      for (std::size_t i = 0; i < items_a.size(); ++i) {
        if (!SameValue(*items_a[i], *items_b[i])) return false;
      }
      return true;
    }
    case NodeKind::kObjectValue: {
      const auto& object_a = static_cast<const ast::ObjectValue&>(a);
      const auto& object_b = static_cast<const ast::ObjectValue&>(b);
      if (object_a.fields.size() != object_b.fields.size()) return false;
      std::vector<const ast::ObjectField*> fields_a = SortedFields(object_a);
      std::vector<const ast::ObjectField*> fields_b = SortedFields(object_b);
      for (std::size_t i = 0; i < fields_a.size(); ++i) {
        if (fields_a[i]->name.value != fields_b[i]->name.value ||
            !SameValue(*fields_a[i]->value, *fields_b[i]->value)) {
          return false;
        }
      }
      return true;
    }
    default:  // null
      return true;
  }
}

// graphql-js's sameArguments (which looks each argument of the first field up by name, the
// last of that name, among the second's).
bool SameArguments(const ast::Field& field1, const ast::Field& field2) {
  const auto& arguments1 = field1.arguments;
  const auto& arguments2 = field2.arguments;
  if (arguments1.empty()) return arguments2.empty();
  if (arguments2.empty() || arguments1.size() != arguments2.size()) return false;
  for (const ast::Argument* argument1 : arguments1) {
    const ast::Argument* argument2 = nullptr;
    for (const ast::Argument* candidate : arguments2) {
      if (candidate->name.value == argument1->name.value) argument2 = candidate;
    }
    if (argument2 == nullptr || !SameValue(*argument1->value, *argument2->value)) return false;
  }
  return true;
}

// Two types conflict when no value could be both (graphql-js's doTypesConflict).
bool DoTypesConflict(TypeRef type1, TypeRef type2) {
  if (type1.is_list())
    return type2.is_list() ? DoTypesConflict(type1.OfType(), type2.OfType()) : true;
  if (type2.is_list()) return true;
  if (type1.is_non_null()) {
    return type2.is_non_null() ? DoTypesConflict(type1.OfType(), type2.OfType()) : true;
  }
  if (type2.is_non_null()) return true;
  if (IsLeafType(*type1.named()) || IsLeafType(*type2.named())) return type1 != type2;
  return false;
}

// An injective text form of a value up to SameValue, for structure keys.
void AppendValueKey(const ast::Value& value, std::string* key) {
  auto append_text = [key](char tag, std::string_view text) {
    *key += tag;
    *key += std::to_string(text.size());
    *key += ':';
    *key += text;
  };
  switch (value.kind) {
    case NodeKind::kVariable:
      append_text('$', static_cast<const ast::Variable&>(value).name.value);
      break;
    case NodeKind::kIntValue:
      append_text('i', static_cast<const ast::IntValue&>(value).value);
      break;
    case NodeKind::kFloatValue:
      append_text('f', static_cast<const ast::FloatValue&>(value).value);
      break;
    case NodeKind::kStringValue: {
      const auto& string = static_cast<const ast::StringValue&>(value);
      append_text(string.block ? 'B' : 's', string.value);
      break;
    }
    case NodeKind::kBooleanValue:
      *key += static_cast<const ast::BooleanValue&>(value).value ? 'T' : 'F';
      break;
    case NodeKind::kEnumValue:
      append_text('e', static_cast<const ast::EnumValue&>(value).value);
      break;
    case NodeKind::kListValue:
      *key += '[';
      for (const ast::Value* item : static_cast<const ast::ListValue&>(value).values) {
        AppendValueKey(*item, key);
      }
      *key += ']';
      break;
    case NodeKind::kObjectValue:
      *key += '{';
      for (const ast::ObjectField* field :
           SortedFields(static_cast<const ast::ObjectValue&>(value))) {
        append_text('k', field->name.value);
        AppendValueKey(*field->value, key);
      }
      *key += '}';
      break;
    default:
      *key += 'n';
      break;
  }
}

// A map from 64-bit keys to a small mark (0 meaning absent): open addressing, for the memos that
// graphql-js's algorithm consults at every step.
class PairMemo {
 public:
  static constexpr std::uint8_t kAbsent = 0;

  // The mark of `key`, to read or set. A new key reads kAbsent and must be given a mark.
  std::uint8_t& At(std::uint64_t key) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    Slot& slot = slots_[Find(key)];
    if (slot.mark == kAbsent) {
      slot.key = key;
      ++size_;
    }
    return slot.mark;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint8_t mark = kAbsent;
  };

  std::size_t Find(std::uint64_t key) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (slots_[i].mark != kAbsent && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    for (const Slot& slot : old) {
      if (slot.mark != kAbsent) slots_[Find(slot.key)] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

void AppendId(std::uint64_t id, std::string* key) {
  char bytes[sizeof id];
  std::memcpy(bytes, &id, sizeof id);
  key->append(bytes, sizeof id);
}

}  // namespace

class OverlappingFieldsCanBeMergedRule::Comparer {
 public:
  explicit Comparer(ValidationContext& context)
      : context_(context),
        schema_(context.schema()),
        map_of_set_(context.document().node_count(), kNoMap) {}

  // graphql-js's findConflictsWithinSelectionSet, stopping after `limit` conflicts.
  std::vector<Conflict> ConflictsWithin(const NamedType* parent,
                                        const ast::SelectionSet& selection_set, std::size_t limit) {
    conflicts_made_ = 0;
    ConflictList conflicts;
    conflicts.limit = limit;
    const FieldMap& field_map = GetFieldMap(parent, selection_set);
    CollectConflictsWithin(&conflicts, field_map);
    const std::uint32_t count = field_map.fragments_count;
    for (std::uint32_t i = 0; i < count && !Done(conflicts); ++i) {
      CollectConflictsBetweenFieldsAndFragment(&conflicts, false, field_map,
                                               FragmentAt(field_map, i));
      for (std::uint32_t j = i + 1; j < count && !Done(conflicts); ++j) {
        CollectConflictsBetweenFragments(&conflicts, false, FragmentAt(field_map, i),
                                         FragmentAt(field_map, j));
      }
    }
    return std::move(conflicts.items);
  }

 private:
  static constexpr std::uint32_t kNoMap = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::int8_t kUnknown = -1;

  struct Group {
    std::string_view response_name;
    std::uint32_t begin;  // in entries_
    std::uint32_t count;
  };
  // The fields of a selection set by response name, and the fragments it spreads (graphql-js's
  // [fieldMap, fragmentNames]), as ranges of the pools below. Identified by its selection set.
  struct FieldMap {
    std::uint32_t set_id;
    std::uint32_t groups_begin;
    std::uint32_t groups_count;
    std::uint32_t fragments_begin;
    std::uint32_t fragments_count;
    // For long maps: built on the first lookup.
    mutable std::unique_ptr<NameMap<std::uint32_t>> group_index;
  };

  // ---- Collecting fields (graphql-js's getFieldsAndFragmentNames), cached per selection set:
  // the first parent type a selection set is collected with is the one it keeps.

  const FieldMap& GetFieldMap(const NamedType* parent, const ast::SelectionSet& selection_set) {
    std::uint32_t& cached = map_of_set_[selection_set.id];
    if (cached != kNoMap) return maps_[cached];
    collected_.clear();
    collected_fragments_.clear();
    Collect(parent, selection_set);

    FieldMap field_map{selection_set.id,
                       static_cast<std::uint32_t>(groups_.size()),
                       0,
                       static_cast<std::uint32_t>(fragments_.size()),
                       static_cast<std::uint32_t>(collected_fragments_.size()),
                       nullptr};
    // Group by response name, in order of first appearance.
    group_of_.resize(collected_.size());
    std::vector<std::uint32_t>& counts = group_counts_;
    counts.clear();
    NameMap<std::uint32_t> index;
    for (std::size_t i = 0; i < collected_.size(); ++i) {
      std::string_view name = collected_[i].node->response_key();
      std::uint32_t group = kNoMap;
      if (collected_.size() <= kMaxScannedFields) {
        for (std::uint32_t g = 0; g < counts.size(); ++g) {
          if (groups_[field_map.groups_begin + g].response_name == name) group = g;
        }
      } else if (const std::uint32_t* found = index.Find(name)) {
        group = *found;
      }
      if (group == kNoMap) {
        group = static_cast<std::uint32_t>(counts.size());
        if (collected_.size() > kMaxScannedFields) index.Insert(name, group);
        groups_.push_back({name, 0, 0});
        counts.push_back(0);
      }
      group_of_[i] = group;
      ++counts[group];
    }
    field_map.groups_count = static_cast<std::uint32_t>(counts.size());
    std::uint32_t next = static_cast<std::uint32_t>(entries_.size());
    for (std::uint32_t g = 0; g < counts.size(); ++g) {
      groups_[field_map.groups_begin + g].begin = next;
      next += counts[g];
    }
    entries_.resize(next);
    for (std::uint32_t& count : counts) count = 0;
    for (std::size_t i = 0; i < collected_.size(); ++i) {
      Group& group = groups_[field_map.groups_begin + group_of_[i]];
      entries_[group.begin + group.count++] = collected_[i];
    }
    for (std::string_view name : collected_fragments_) {
      fragments_.push_back(context_.Fragment(name));
    }
    cached = static_cast<std::uint32_t>(maps_.size());
    maps_.push_back(std::move(field_map));
    return maps_.back();
  }

  void Collect(const NamedType* parent, const ast::SelectionSet& selection_set) {
    for (const ast::Selection* selection : selection_set.selections) {
      if (const auto* field = selection->As<ast::Field>()) {
        const Field* def = parent == nullptr ? nullptr : parent->FindField(field->name.value);
        collected_.push_back({parent, field, def});
      } else if (const auto* spread = selection->As<ast::FragmentSpread>()) {
        std::string_view name = spread->name.value;
        if (std::find(collected_fragments_.begin(), collected_fragments_.end(), name) ==
            collected_fragments_.end()) {
          collected_fragments_.push_back(name);
        }
      } else {
        const auto& inline_fragment = static_cast<const ast::InlineFragment&>(*selection);
        const NamedType* type = inline_fragment.type_condition == nullptr
                                    ? parent
                                    : schema_.FindType(inline_fragment.type_condition->name.value);
        Collect(type, *inline_fragment.selection_set);
      }
    }
  }

  // graphql-js's getReferencedFieldsAndFragmentNames.
  const FieldMap& FragmentFieldMap(const ast::FragmentDefinition& fragment) {
    std::uint32_t cached = map_of_set_[fragment.selection_set->id];
    if (cached != kNoMap) return maps_[cached];
    return GetFieldMap(schema_.FindType(fragment.type_condition->name.value),
                       *fragment.selection_set);
  }

  // The i-th fragment a field map spreads (null for an unknown name). Read by index: recursion may
  // grow the pool.
  const ast::FragmentDefinition* FragmentAt(const FieldMap& field_map, std::uint32_t i) const {
    return fragments_[field_map.fragments_begin + i];
  }

  std::optional<Group> FindGroup(const FieldMap& field_map, std::string_view name) {
    if (field_map.groups_count <= kMaxScannedGroups) {
      for (std::uint32_t g = 0; g < field_map.groups_count; ++g) {
        const Group& group = groups_[field_map.groups_begin + g];
        if (group.response_name == name) return group;
      }
      return std::nullopt;
    }
    if (field_map.group_index == nullptr) {
      auto index = std::make_unique<NameMap<std::uint32_t>>();
      for (std::uint32_t g = 0; g < field_map.groups_count; ++g) {
        index->Insert(groups_[field_map.groups_begin + g].response_name,
                      field_map.groups_begin + g);
      }
      field_map.group_index = std::move(index);
    }
    const std::uint32_t* found = field_map.group_index->Find(name);
    return found == nullptr ? std::nullopt : std::optional<Group>(groups_[*found]);
  }

  // ---- graphql-js's comparisons.

  void CollectConflictsBetweenFieldsAndFragment(ConflictList* conflicts, bool mutually_exclusive,
                                                const FieldMap& field_map,
                                                const ast::FragmentDefinition* fragment) {
    if (fragment == nullptr) return;
    if (!MarkCompared(&compared_fields_and_fragments_,
                      std::uint64_t{field_map.set_id} << 32 | fragment->id, mutually_exclusive)) {
      return;
    }
    const FieldMap& fragment_map = FragmentFieldMap(*fragment);
    if (&fragment_map == &field_map) return;
    CollectConflictsBetween(conflicts, mutually_exclusive, field_map, fragment_map);
    for (std::uint32_t i = 0; i < fragment_map.fragments_count; ++i) {
      if (Done(*conflicts)) return;
      CollectConflictsBetweenFieldsAndFragment(conflicts, mutually_exclusive, field_map,
                                               FragmentAt(fragment_map, i));
    }
  }

  void CollectConflictsBetweenFragments(ConflictList* conflicts, bool mutually_exclusive,
                                        const ast::FragmentDefinition* fragment1,
                                        const ast::FragmentDefinition* fragment2) {
    if (fragment1 == fragment2 || fragment1 == nullptr || fragment2 == nullptr) return;
    const std::uint64_t low = std::min(fragment1->id, fragment2->id);
    const std::uint64_t high = std::max(fragment1->id, fragment2->id);
    if (!MarkCompared(&compared_fragment_pairs_, low << 32 | high, mutually_exclusive)) return;
    const FieldMap& map1 = FragmentFieldMap(*fragment1);
    const FieldMap& map2 = FragmentFieldMap(*fragment2);
    CollectConflictsBetween(conflicts, mutually_exclusive, map1, map2);
    for (std::uint32_t i = 0; i < map2.fragments_count; ++i) {
      if (Done(*conflicts)) return;
      CollectConflictsBetweenFragments(conflicts, mutually_exclusive, fragment1,
                                       FragmentAt(map2, i));
    }
    for (std::uint32_t i = 0; i < map1.fragments_count; ++i) {
      if (Done(*conflicts)) return;
      CollectConflictsBetweenFragments(conflicts, mutually_exclusive, FragmentAt(map1, i),
                                       fragment2);
    }
  }

  // graphql-js's OrderedPairSet/PairSet: a pair compared as mutually exclusive is not compared
  // again either way; one compared as not mutually exclusive is not compared again as such.
  // Returns whether the pair still had to be compared (and records it).
  static bool MarkCompared(PairMemo* compared, std::uint64_t key, bool mutually_exclusive) {
    std::uint8_t& entry = compared->At(key);
    const std::uint8_t mark = mutually_exclusive ? kComparedExclusive : kCompared;
    if (entry == PairMemo::kAbsent) {
      entry = mark;
      return true;
    }
    if (mutually_exclusive || entry == kCompared) return false;
    entry = kCompared;
    return true;
  }
  static constexpr std::uint8_t kCompared = 1;
  static constexpr std::uint8_t kComparedExclusive = 2;

  std::vector<Conflict> FindConflictsBetweenSubSelectionSets(
      bool mutually_exclusive, const NamedType* parent1, const ast::SelectionSet& selection_set1,
      const NamedType* parent2, const ast::SelectionSet& selection_set2) {
    ConflictList conflicts;
    const FieldMap& map1 = GetFieldMap(parent1, selection_set1);
    const FieldMap& map2 = GetFieldMap(parent2, selection_set2);
    CollectConflictsBetween(&conflicts, mutually_exclusive, map1, map2);
    for (std::uint32_t i = 0; i < map2.fragments_count; ++i) {
      CollectConflictsBetweenFieldsAndFragment(&conflicts, mutually_exclusive, map1,
                                               FragmentAt(map2, i));
    }
    for (std::uint32_t i = 0; i < map1.fragments_count; ++i) {
      CollectConflictsBetweenFieldsAndFragment(&conflicts, mutually_exclusive, map2,
                                               FragmentAt(map1, i));
    }
    for (std::uint32_t i = 0; i < map1.fragments_count; ++i) {
      for (std::uint32_t j = 0; j < map2.fragments_count; ++j) {
        CollectConflictsBetweenFragments(&conflicts, mutually_exclusive, FragmentAt(map1, i),
                                         FragmentAt(map2, j));
      }
    }
    return std::move(conflicts.items);
  }

  void CollectConflictsWithin(ConflictList* conflicts, const FieldMap& field_map) {
    for (std::uint32_t g = 0; g < field_map.groups_count && !Done(*conflicts); ++g) {
      const Group group = groups_[field_map.groups_begin + g];
      if (group.count < 2) continue;
      std::vector<std::uint32_t> structures;
      if (std::size_t{group.count} * (group.count - 1) / 2 > kStructuralPairs) {
        structures = Structures(group);
        if (!AnyStructureConflict(false, structures, structures)) continue;
      }
      for (std::uint32_t i = 0; i < group.count; ++i) {
        for (std::uint32_t j = i + 1; j < group.count; ++j) {
          if (!structures.empty() && !MayConflict(false, structures[i], structures[j])) continue;
          const FieldEntry field1 = entries_[group.begin + i];
          const FieldEntry field2 = entries_[group.begin + j];
          AddConflict(conflicts, FindConflict(false, group.response_name, field1, field2));
          if (Done(*conflicts)) return;
        }
      }
    }
  }

  void CollectConflictsBetween(ConflictList* conflicts, bool mutually_exclusive,
                               const FieldMap& map1, const FieldMap& map2) {
    for (std::uint32_t g = 0; g < map1.groups_count && !Done(*conflicts); ++g) {
      const Group group1 = groups_[map1.groups_begin + g];
      std::optional<Group> group2 = FindGroup(map2, group1.response_name);
      if (!group2) continue;
      std::vector<std::uint32_t> structures1;
      std::vector<std::uint32_t> structures2;
      if (std::size_t{group1.count} * group2->count > kStructuralPairs) {
        structures1 = Structures(group1);
        structures2 = Structures(*group2);
        if (!AnyStructureConflict(mutually_exclusive, structures1, structures2)) continue;
      }
      for (std::uint32_t i = 0; i < group1.count; ++i) {
        for (std::uint32_t j = 0; j < group2->count; ++j) {
          if (!structures1.empty() &&
              !MayConflict(mutually_exclusive, structures1[i], structures2[j])) {
            continue;
          }
          const FieldEntry field1 = entries_[group1.begin + i];
          const FieldEntry field2 = entries_[group2->begin + j];
          AddConflict(conflicts,
                      FindConflict(mutually_exclusive, group1.response_name, field1, field2));
          if (Done(*conflicts)) return;
        }
      }
    }
  }

  void AddConflict(ConflictList* conflicts, std::optional<Conflict> conflict) {
    if (!conflict || conflicts_made_ >= kConflictBudget) return;
    ++conflicts_made_;
    conflicts->items.push_back(std::move(*conflict));
  }

  // No more conflicts are wanted in `conflicts`.
  bool Done(const ConflictList& conflicts) const {
    return conflicts.full() || conflicts_made_ >= kConflictBudget;
  }

  // graphql-js's findConflict.
  std::optional<Conflict> FindConflict(bool parents_mutually_exclusive,
                                       std::string_view response_name, const FieldEntry& field1,
                                       const FieldEntry& field2) {
    const bool mutually_exclusive =
        parents_mutually_exclusive ||
        (field1.parent != field2.parent && IsObject(field1.parent) && IsObject(field2.parent));
    auto conflict = [&](std::string reason) {
      return Conflict{response_name, std::move(reason), {}, {field1.node}, {field2.node}};
    };
    const ast::Field& node1 = *field1.node;
    const ast::Field& node2 = *field2.node;
    if (!mutually_exclusive) {
      if (node1.name.value != node2.name.value) {
        return conflict(StrCat(
            {"\"", node1.name.value, "\" and \"", node2.name.value, "\" are different fields"}));
      }
      if (!SameArguments(node1, node2)) return conflict("they have differing arguments");
    }
    if (field1.def != nullptr && field2.def != nullptr &&
        DoTypesConflict(field1.def->type, field2.def->type)) {
      return conflict(StrCat({"they return conflicting types \"", field1.def->type.ToString(),
                              "\" and \"", field2.def->type.ToString(), "\""}));
    }
    if (node1.selection_set == nullptr || node2.selection_set == nullptr) return std::nullopt;
    std::vector<Conflict> subfields = FindConflictsBetweenSubSelectionSets(
        mutually_exclusive, NamedTypeOf(field1), *node1.selection_set, NamedTypeOf(field2),
        *node2.selection_set);
    if (subfields.empty()) return std::nullopt;
    Conflict result{response_name, {}, {}, {&node1}, {&node2}};
    for (Conflict& subfield : subfields) {
      result.fields1.insert(result.fields1.end(), subfield.fields1.begin(), subfield.fields1.end());
      result.fields2.insert(result.fields2.end(), subfield.fields2.begin(), subfield.fields2.end());
      subfield.fields1.clear();
      subfield.fields2.clear();
    }
    result.subfields = std::move(subfields);
    return result;
  }

  static const NamedType* NamedTypeOf(const FieldEntry& field) {
    return field.def == nullptr ? nullptr : field.def->type.named();
  }

  // ---- Structures: a shortcut that never changes the result.
  //
  // Two fields with the same structure (parent type, name, arguments, and sub-selections: the
  // structures of the fields and the fragments spread there) compare alike with any field, when
  // compared without graphql-js's memos. MayConflict over-approximates that memo-free comparison:
  // it compares every pair of fields of the two sub-selections, the fields of every fragment they
  // reach included. When it finds nothing, graphql-js's comparison of the pair finds nothing
  // either (memos only skip comparisons), and skipping the pair leaves every later answer as it
  // was: the memo entries the pair would have added are for comparisons that find nothing.

  // Whether the field's subtree, fragments included, holds no __schema or __type selection set
  // (whose fields graphql-js collects with a parent type that depends on the order of its steps).
  bool HasStructure(const ast::Field& field) {
    if (comparable_.empty()) {
      comparable_.assign(context_.document().node_count(), kUnknown);
      structure_of_node_.assign(context_.document().node_count(), kNoStructure);
    }
    std::int8_t& known = comparable_[field.id];
    if (known == kUnknown) {
      known = field.selection_set == nullptr ||
              (field.name.value != "__schema" && field.name.value != "__type" &&
               ComparableSet(*field.selection_set));
    }
    return known != 0;
  }

  bool ComparableSet(const ast::SelectionSet& selection_set) {
    for (const ast::Selection* selection : selection_set.selections) {
      if (const auto* field = selection->As<ast::Field>()) {
        if (!HasStructure(*field)) return false;
      } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
        if (!ComparableSet(*inline_fragment->selection_set)) return false;
      } else {
        const ast::FragmentDefinition* fragment =
            context_.Fragment(static_cast<const ast::FragmentSpread*>(selection)->name.value);
        if (fragment == nullptr) continue;
        std::int8_t& known = comparable_[fragment->id];
        if (known == kUnknown) {
          known = 1;  // while exploring it: a cycle adds no new selection
          known = ComparableSet(*fragment->selection_set);
        }
        if (known == 0) return false;
      }
    }
    return true;
  }

  // The structure id of a field, or kNoStructure. Takes a copy: collecting may move entries_.
  std::uint32_t StructureOf(FieldEntry field) {
    if (!HasStructure(*field.node)) return kNoStructure;
    std::uint32_t& cached = structure_of_node_[field.node->id];
    if (cached != kNoStructure && structures_[cached].parent == field.parent) return cached;
    std::string key;
    AppendId(reinterpret_cast<std::uintptr_t>(field.parent), &key);
    key += field.node->name.value;
    key += '(';
    for (const ast::Argument* argument : field.node->arguments) {
      key += std::to_string(argument->name.value.size()) + ':';
      key += argument->name.value;
      AppendValueKey(*argument->value, &key);
    }
    key += ')';
    if (field.node->selection_set != nullptr) {
      const FieldMap& sub = GetFieldMap(NamedTypeOf(field), *field.node->selection_set);
      for (std::uint32_t g = 0; g < sub.groups_count; ++g) {
        const Group group = groups_[sub.groups_begin + g];
        key += std::to_string(group.response_name.size()) + ':';
        key += group.response_name;
        for (std::uint32_t i = 0; i < group.count; ++i) {
          AppendId(StructureOf(entries_[group.begin + i]), &key);
        }
        key += ';';
      }
      for (std::uint32_t i = 0; i < sub.fragments_count; ++i) {
        const ast::FragmentDefinition* fragment = FragmentAt(sub, i);
        key += '.';
        AppendId(fragment == nullptr ? kNoStructure : fragment->id, &key);
      }
    }
    auto [entry, inserted] = structure_index_.try_emplace(
        std::move(key), static_cast<std::uint32_t>(structures_.size()));
    if (inserted) structures_.push_back(field);
    if (cached == kNoStructure) cached = entry->second;
    return entry->second;
  }

  std::vector<std::uint32_t> Structures(const Group& group) {
    std::vector<std::uint32_t> structures(group.count);
    for (std::uint32_t i = 0; i < group.count; ++i) {
      structures[i] = StructureOf(entries_[group.begin + i]);
    }
    return structures;
  }

  // Whether a pair of fields with these structures may conflict (true when either has none).
  bool MayConflict(bool mutually_exclusive, std::uint32_t structure1, std::uint32_t structure2) {
    if (structure1 == kNoStructure || structure2 == kNoStructure) return true;
    return StructuresConflict(mutually_exclusive, structure1, structure2);
  }

  bool AnyStructureConflict(bool mutually_exclusive, const std::vector<std::uint32_t>& structures1,
                            const std::vector<std::uint32_t>& structures2) {
    std::vector<std::uint32_t> distinct1 = Distinct(structures1);
    std::vector<std::uint32_t> distinct2 = Distinct(structures2);
    for (std::uint32_t structure1 : distinct1) {
      for (std::uint32_t structure2 : distinct2) {
        if (MayConflict(mutually_exclusive, structure1, structure2)) return true;
      }
    }
    return false;
  }

  static std::vector<std::uint32_t> Distinct(std::vector<std::uint32_t> structures) {
    std::sort(structures.begin(), structures.end());
    structures.erase(std::unique(structures.begin(), structures.end()), structures.end());
    return structures;
  }

  // The fields a sub-selection compares with: its own and those of every fragment it reaches,
  // as (response name, structure), sorted by name.
  std::vector<std::pair<std::string_view, std::uint32_t>> ReachableFields(
      const NamedType* parent, const ast::SelectionSet& selection_set) {
    std::vector<std::pair<std::string_view, std::uint32_t>> fields;
    auto add_map = [&](const FieldMap& field_map) {
      for (std::uint32_t g = 0; g < field_map.groups_count; ++g) {
        const Group group = groups_[field_map.groups_begin + g];
        for (std::uint32_t i = 0; i < group.count; ++i) {
          fields.emplace_back(group.response_name, StructureOf(entries_[group.begin + i]));
        }
      }
    };
    const FieldMap& own = GetFieldMap(parent, selection_set);
    add_map(own);
    std::vector<const ast::FragmentDefinition*> pending;
    std::unordered_set<const ast::FragmentDefinition*> reached;
    for (std::uint32_t i = 0; i < own.fragments_count; ++i) {
      pending.push_back(FragmentAt(own, i));
    }
    while (!pending.empty()) {
      const ast::FragmentDefinition* fragment = pending.back();
      pending.pop_back();
      if (fragment == nullptr || !reached.insert(fragment).second) continue;
      const FieldMap& fragment_map = FragmentFieldMap(*fragment);
      add_map(fragment_map);
      for (std::uint32_t i = 0; i < fragment_map.fragments_count; ++i) {
        pending.push_back(FragmentAt(fragment_map, i));
      }
    }
    std::sort(fields.begin(), fields.end());
    fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
    return fields;
  }

  // MayConflict for two structures, remembered per pair. A pair met again while it is being
  // compared (fragments that spread themselves) may conflict, for all this shortcut knows.
  bool StructuresConflict(bool mutually_exclusive, std::uint32_t structure1,
                          std::uint32_t structure2) {
    const std::uint64_t key = std::uint64_t{structure1} << 33 | std::uint64_t{structure2} << 1 |
                              (mutually_exclusive ? 1 : 0);
    auto [known, inserted] = structure_conflicts_.try_emplace(key, Answer::kComparing);
    if (!inserted) return known->second != Answer::kNo;
    const FieldEntry field1 = structures_[structure1];
    const FieldEntry field2 = structures_[structure2];
    const bool exclusive =
        mutually_exclusive ||
        (field1.parent != field2.parent && IsObject(field1.parent) && IsObject(field2.parent));
    bool conflicts = false;
    if (!exclusive && (field1.node->name.value != field2.node->name.value ||
                       !SameArguments(*field1.node, *field2.node))) {
      conflicts = true;
    } else if (field1.def != nullptr && field2.def != nullptr &&
               DoTypesConflict(field1.def->type, field2.def->type)) {
      conflicts = true;
    } else if (field1.node->selection_set != nullptr && field2.node->selection_set != nullptr) {
      const auto fields1 = ReachableFields(NamedTypeOf(field1), *field1.node->selection_set);
      const auto fields2 = ReachableFields(NamedTypeOf(field2), *field2.node->selection_set);
      // Both sorted by name: pair up the fields of each name.
      std::size_t j = 0;
      for (std::size_t i = 0; i < fields1.size() && !conflicts; ++i) {
        while (j < fields2.size() && fields2[j].first < fields1[i].first) ++j;
        for (std::size_t k = j; k < fields2.size() && fields2[k].first == fields1[i].first; ++k) {
          if (MayConflict(exclusive, fields1[i].second, fields2[k].second)) {
            conflicts = true;
            break;
          }
        }
      }
    }
    structure_conflicts_[key] = conflicts ? Answer::kYes : Answer::kNo;
    return conflicts;
  }

  enum class Answer : std::uint8_t { kComparing, kNo, kYes };

  static constexpr std::size_t kMaxScannedFields = 16;
  static constexpr std::size_t kMaxScannedGroups = 8;

  ValidationContext& context_;
  const Schema& schema_;

  std::deque<FieldMap> maps_;
  std::vector<std::uint32_t> map_of_set_;  // per node id: index in maps_
  std::vector<FieldEntry> entries_;
  std::vector<Group> groups_;
  std::vector<const ast::FragmentDefinition*> fragments_;
  // Scratch space of GetFieldMap.
  std::vector<FieldEntry> collected_;
  std::vector<std::string_view> collected_fragments_;
  std::vector<std::uint32_t> group_of_;
  std::vector<std::uint32_t> group_counts_;

  PairMemo compared_fields_and_fragments_;
  PairMemo compared_fragment_pairs_;
  std::size_t conflicts_made_ = 0;

  std::vector<std::int8_t> comparable_;           // per node id: -1 unknown, 0 or 1
  std::vector<std::uint32_t> structure_of_node_;  // per node id
  std::vector<FieldEntry> structures_;            // a representative of each structure
  std::unordered_map<std::string, std::uint32_t> structure_index_;
  std::unordered_map<std::uint64_t, Answer> structure_conflicts_;
};

OverlappingFieldsCanBeMergedRule::OverlappingFieldsCanBeMergedRule(ValidationContext& context)
    : Rule(context, {NodeKind::kSelectionSet}) {}

OverlappingFieldsCanBeMergedRule::~OverlappingFieldsCanBeMergedRule() = default;

namespace {

// Collects the response names of a selection set's fields, its inline fragments' included, and
// counts its fragment spreads; false when there are more than `names` can hold.
template <std::size_t N>
bool CollectNames(const ast::SelectionSet& selection_set, std::array<std::string_view, N>* names,
                  std::size_t* count, std::size_t* spreads) {
  for (const ast::Selection* selection : selection_set.selections) {
    if (const auto* field = selection->As<ast::Field>()) {
      if (*count == N) return false;
      (*names)[(*count)++] = field->response_key();
    } else if (const auto* inline_fragment = selection->As<ast::InlineFragment>()) {
      if (!CollectNames(*inline_fragment->selection_set, names, count, spreads)) return false;
    } else {
      ++*spreads;
    }
  }
  return true;
}

// Whether graphql-js's comparisons within this selection set have nothing to compare: its fields
// (inline fragments' included) have distinct response names and it spreads no fragment, or it
// has no fields and spreads one fragment. (Not for __schema and __type selections: see the note
// at the top.)
bool NothingToCompare(const ast::SelectionSet& selection_set, const ast::Node* owner) {
  if (const auto* field = owner->As<ast::Field>()) {
    if (field->name.value == "__schema" || field->name.value == "__type") return false;
  }
  std::array<std::string_view, 16> names;
  std::size_t count = 0;
  std::size_t spreads = 0;
  if (!CollectNames(selection_set, &names, &count, &spreads)) return false;
  if (spreads > 0) return spreads == 1 && count == 0;
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (names[i] == names[j]) return false;
    }
  }
  return true;
}

}  // namespace

bool OverlappingFieldsCanBeMergedRule::Enter(const ast::Node& node) {
  const auto& selection_set = static_cast<const ast::SelectionSet&>(node);
  if (NothingToCompare(selection_set, context().ancestors().back())) return true;
  if (comparer_ == nullptr) comparer_ = std::make_unique<Comparer>(context());
  std::vector<Conflict> conflicts = comparer_->ConflictsWithin(
      type_info().parent_type(), selection_set, context().remaining_errors() + 1);
  for (const Conflict& conflict : conflicts) {
    std::vector<std::uint32_t> offsets;
    for (const ast::Field* field : conflict.fields1) offsets.push_back(field->offset);
    for (const ast::Field* field : conflict.fields2) offsets.push_back(field->offset);
    context().ReportError(StrCat({"Fields \"", conflict.response_name, "\" conflict because ",
                                  ReasonMessage(conflict),
                                  ". Use different aliases on the fields to fetch both if this "
                                  "was intentional."}),
                          offsets);
  }
  return true;
}

}  // namespace netgraph::graphql
