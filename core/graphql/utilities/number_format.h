// Numbers written the way JavaScript writes them (Number.prototype.toString, which
// JSON.stringify also uses): the shortest digits that read back to the same double, plain
// notation from 1e-7 up to 1e21 ("0.000001", "123", "1.5"), exponent notation outside
// ("1e+21", "1.5e-7"). graphql-js prints default values and serialises Float results this way.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_NUMBER_FORMAT_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_NUMBER_FORMAT_H_

#include <string>

namespace netgraph::graphql {

// "NaN", "Infinity" and "-Infinity" for non-finite values; "0" for -0.
std::string FormatJsNumber(double value);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_NUMBER_FORMAT_H_
