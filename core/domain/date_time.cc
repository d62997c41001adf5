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

std::string InstantFromNow(const std::string& text) {
  if (text.size() < 2) return text;
  const char unit = text.back();
  const std::string digits = text.substr(0, text.size() - 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) {
    return text;
  }
  std::int64_t seconds = std::stoll(digits);
  switch (unit) {
    case 's':
      break;
    case 'm':
      seconds *= 60;
      break;
    case 'h':
      seconds *= 3600;
      break;
    case 'd':
      seconds *= 86400;
      break;
    default:
      return text;
  }
  const auto at = std::chrono::time_point_cast<std::chrono::microseconds>(
      std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  return FormatDateTime(at);
}

}  // namespace netgraph::domain
