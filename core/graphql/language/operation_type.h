// The three kinds of operation (graphql-js's OperationTypeNode). Its own header because the AST,
// the schema's root types and the engine's facade all name it, and none of them should have to
// include another of them for it.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_OPERATION_TYPE_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_OPERATION_TYPE_H_

namespace netgraph::graphql {

enum class OperationType { kQuery, kMutation, kSubscription };

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_OPERATION_TYPE_H_
