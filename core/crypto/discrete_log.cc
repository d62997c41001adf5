#include "core/crypto/internal/discrete_log.h"

#include <algorithm>
#include <optional>
#include <span>

#include "core/crypto/internal/field25519.h"

namespace netgraph::crypto {
namespace {

constexpr std::uint32_t kSplit = 1u << 16;
constexpr std::size_t kBatch = 1024;

// A point of edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2) in extended coordinates: x = X/Z, y = Y/Z,
// x·y = T/Z. A ristretto255 element is a class of four such points, P + E[4], where
// E[4] = {(0,1), (0,-1), (i,0), (-i,0)} (i = sqrt(-1)).
struct EdwardsPoint {
  FieldElement x, y, z, t;
};

// A point prepared as the second operand of Add.
struct AddendPoint {
  FieldElement y_minus_x, y_plus_x, t_times_2d, z_times_2;
};

EdwardsPoint Identity() {
  return {FieldElement(), FieldElement::FromU64(1), FieldElement::FromU64(1), FieldElement()};
}

EdwardsPoint Negate(const EdwardsPoint& p) { return {-p.x, p.y, p.z, -p.t}; }

AddendPoint PrepareAddend(const EdwardsPoint& p) {
  static const FieldElement two_d = EdwardsD() + EdwardsD();
  return {p.y - p.x, p.y + p.x, p.t * two_d, p.z + p.z};
}

// Unified addition in extended coordinates for a = -1 (Hisil-Wong-Carter-Dawson 2008); complete
// on this curve because d is not a square.
EdwardsPoint Add(const EdwardsPoint& p, const AddendPoint& q) {
  FieldElement a = (p.y - p.x) * q.y_minus_x;
  FieldElement b = (p.y + p.x) * q.y_plus_x;
  FieldElement c = p.t * q.t_times_2d;
  FieldElement d = p.z * q.z_times_2;
  FieldElement e = b - a, f = d - c, g = d + c, h = b + a;
  return {e * f, g * h, f * g, e * h};
}

// RFC 9496 decoding (a = -1) of an encoding libsodium has already validated; it yields one of the
// four points of the element.
std::optional<EdwardsPoint> DecodeRistretto(const Bytes32& bytes) {
  FieldElement one = FieldElement::FromU64(1);
  FieldElement s = FieldElement::FromBytes(bytes);
  FieldElement ss = s.Square();
  FieldElement u1 = one - ss;
  FieldElement u2 = one + ss;
  FieldElement u2_squared = u2.Square();
  FieldElement v = -(EdwardsD() * u1.Square()) - u2_squared;
  std::optional<FieldElement> inverse_root = (v * u2_squared).InverseSquareRoot();
  if (!inverse_root) return std::nullopt;
  FieldElement den_x = *inverse_root * u2;
  FieldElement den_y = *inverse_root * den_x * v;
  FieldElement x = ((s + s) * den_x).Abs();
  FieldElement y = u1 * den_y;
  return EdwardsPoint{x, y, one, x * y};
}

// The key of a point is the canonical encoding of (xy)^2. It is the same for the four points of a
// ristretto255 element (xy is unchanged by (0,-1) and negated by (±i,0)), and (xy)^2 = c has at
// most eight solutions, so two elements share a key only when they are P and -P. The search
// therefore confirms every match before trusting it. The identity's key is zero.
void ComputeKeys(std::span<const EdwardsPoint> points, std::vector<FieldElement>& scratch,
                 std::vector<Bytes32>& keys) {
  scratch.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) scratch[i] = points[i].z;  // never zero
  BatchInvert(scratch);
  keys.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    keys[i] = (points[i].t * scratch[i]).Square().ToBytes();
  }
}

// Calls visit(i, key of start + i·step) for i = 0, 1, ... count - 1 until visit returns false.
template <typename Visit>
void Walk(EdwardsPoint start, const AddendPoint& step, std::uint32_t count, Visit visit) {
  std::vector<EdwardsPoint> points;
  std::vector<FieldElement> scratch;
  std::vector<Bytes32> keys;
  EdwardsPoint current = start;
  for (std::uint32_t first = 0; first < count; first += kBatch) {
    std::size_t size = std::min<std::size_t>(kBatch, count - first);
    points.clear();
    for (std::size_t i = 0; i < size; ++i) {
      points.push_back(current);
      current = Add(current, step);
    }
    ComputeKeys(points, scratch, keys);
    for (std::size_t i = 0; i < size; ++i) {
      if (!visit(first + static_cast<std::uint32_t>(i), keys[i])) return;
    }
  }
}

EdwardsPoint Decode(const RistrettoPoint& point) {
  // Every RistrettoPoint holds a valid encoding, which RFC 9496 decoding accepts.
  return *DecodeRistretto(point.bytes());
}

}  // namespace

DiscreteLog::DiscreteLog() {
  table_.reserve(kSplit);
  AddendPoint giant_step =
      PrepareAddend(Decode(RistrettoPoint::MultiplyBase(Scalar::FromU64(kSplit))));
  Walk(Identity(), giant_step, kSplit, [this](std::uint32_t high, const Bytes32& key) {
    table_.push_back({key, static_cast<std::uint16_t>(high)});
    return true;
  });
  std::sort(table_.begin(), table_.end(),
            [](const Entry& a, const Entry& b) { return a.key < b.key; });
}

Result<std::uint32_t> DiscreteLog::Solve(const RistrettoPoint& target) const {
  std::optional<std::uint32_t> solution;
  AddendPoint baby_step = PrepareAddend(Negate(Decode(BasepointG())));
  Walk(Decode(target), baby_step, kSplit, [&](std::uint32_t low, const Bytes32& key) {
    auto entry = std::lower_bound(table_.begin(), table_.end(), key,
                                  [](const Entry& e, const Bytes32& k) { return e.key < k; });
    if (entry == table_.end() || entry->key != key) return true;
    std::uint32_t candidate = low + kSplit * entry->high;
    if (RistrettoPoint::MultiplyBase(Scalar::FromU64(candidate)) != target) return true;  // -P
    solution = candidate;
    return false;
  });
  if (!solution) return Status::InvalidArgument("discrete logarithm is not below 2^32");
  return *solution;
}

}  // namespace netgraph::crypto
