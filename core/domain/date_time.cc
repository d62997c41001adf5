#include "core/domain/date_time.h"

#include <cstdio>

namespace netgraph::domain {

std::string FormatDateTime(Timestamp instant) {
  using namespace std::chrono;
  const sys_days day = floor<days>(instant);
  const year_month_day date(day);
  const hh_mm_ss<milliseconds> time(floor<milliseconds>(instant - day));
  char text[40];
  std::snprintf(text, sizeof(text),
                "%04d-%02u-%02u"
                "T%02d:%02d:%02lld.%03lldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<int>(time.hours().count()),
                static_cast<int>(time.minutes().count()),
                static_cast<long long>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return text;
}

}  // namespace netgraph::domain
