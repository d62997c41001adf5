// A depth-first walk over an AST in graphql-js's visiting order (its QueryDocumentKeys): for
// each node, Enter, then the child nodes in source order, then Leave. Names are not nodes and are
// not visited; descriptions (StringValue nodes) are.
//
// Recursion depth is bounded by the parser's max_depth, so walking a parsed document is safe.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_VISITOR_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_VISITOR_H_

#include <vector>

#include "core/graphql/language/ast.h"

namespace netgraph::graphql::ast {

class Visitor {
 public:
  // Room for the nesting of typical documents, so that walking them does not allocate as they
  // deepen.
  Visitor() { ancestors_.reserve(32); }
  virtual ~Visitor() = default;

  // Called before the node's children. Returning false skips the children and the node's Leave,
  // as a graphql-js visitor that returns false.
  virtual bool Enter(const Node& node) {
    (void)node;
    return true;
  }
  virtual void Leave(const Node& node) { (void)node; }

 protected:
  // The nodes that enclose the node being entered or left, outermost (a definition) first.
  const std::vector<const Node*>& ancestors() const { return ancestors_; }
  // The innermost enclosing node, or nullptr at a definition.
  const Node* parent() const { return ancestors_.empty() ? nullptr : ancestors_.back(); }

 private:
  friend void Walk(const Node& node, Visitor* visitor);
  std::vector<const Node*> ancestors_;
};

// Walks every definition of `document` in order.
void Walk(const Document& document, Visitor* visitor);
// Walks `node` and what it contains.
void Walk(const Node& node, Visitor* visitor);

}  // namespace netgraph::graphql::ast

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_VISITOR_H_
