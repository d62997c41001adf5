#include "fcgi/pool/held_connections.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iterator>
#include <string>

#include "core/log.h"

namespace netgraph::fcgi {

HeldConnections::HeldConnections(fastcgi::Limits limits, const ConnectionHandoff* handoff)
    : limits_(limits), handoff_(handoff), epoll_fd_(::epoll_create1(EPOLL_CLOEXEC)) {
  if (handoff != nullptr) {
    watcher_ = std::make_unique<HandOffWatcher>(*handoff, kHandOffTick, SIGTERM);
  }
}

HeldConnections::~HeldConnections() {
  // First: a watcher that outlived the connections would see them go, offered or not.
  watcher_.reset();
  for (Connection& connection : list_) ::close(connection.fd);
  ::close(epoll_fd_);
}

void HeldConnections::Add(int fd, bool accepted, Clock::time_point now) {
  Connection& added = list_.emplace_back(fd, limits_, accepted, now);
  epoll_event event = {};
  event.events = EPOLLIN;
  event.data.ptr = &added;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
    log::Error(std::string("worker cannot wait on a connection: ") + std::strerror(errno));
    Close(std::prev(list_.end()));
    return;
  }
  if (watcher_ && added.idle()) watcher_->Offer(fd);
}

// Its registration goes explicitly: a connection handed off lives on elsewhere, and epoll keeps
// watching a file description until its last descriptor closes.
HeldConnections::Iterator HeldConnections::Close(Iterator at) {
  if (watcher_) watcher_->Withdraw(at->fd);
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, at->fd, nullptr);
  ::close(at->fd);
  return list_.erase(at);
}

void HeldConnections::Close(const Connection& connection) {
  for (auto at = list_.begin(); at != list_.end(); ++at) {
    if (&*at == &connection) {
      Close(at);
      return;
    }
  }
}

void HeldConnections::Update(Connection& connection) {
  if (watcher_) {
    if (connection.idle()) {
      watcher_->Offer(connection.fd);
    } else {
      watcher_->Withdraw(connection.fd);
    }
  }
  const bool awaits_output = !connection.output.empty();
  if (awaits_output == connection.awaits_output) return;
  epoll_event event = {};
  event.events = awaits_output ? EPOLLOUT : EPOLLIN;
  event.data.ptr = &connection;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, connection.fd, &event) == 0) {
    connection.awaits_output = awaits_output;
  } else {
    log::Error(std::string("worker cannot wait on a connection: ") + std::strerror(errno));
  }
}

void HeldConnections::Watch(int fd, const void* tag, bool wanted, bool* watched) {
  if (wanted == *watched) return;
  epoll_event event = {};
  event.events = EPOLLIN | EPOLLEXCLUSIVE;
  event.data.ptr = const_cast<void*>(tag);
  if (::epoll_ctl(epoll_fd_, wanted ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &event) == 0)
    *watched = wanted;
}

void HeldConnections::BeforeReading(Connection& connection) {
  if (watcher_) watcher_->Withdraw(connection.fd);
}

void HeldConnections::HandOffIdle() {
  if (handoff_ == nullptr) return;
  for (;;) {
    idle_.clear();
    for (const Connection& connection : list_) {
      if (idle_.size() == ConnectionHandoff::kMaxPerMessage) break;
      if (connection.idle()) idle_.push_back(connection.fd);
    }
    if (idle_.empty()) return;
    // Withdrawn first: should this worker die now, its watcher must not queue them a second time.
    if (watcher_) {
      for (int fd : idle_) watcher_->Withdraw(fd);
    }
    if (!handoff_->Put(idle_.data(), idle_.size())) {
      if (watcher_) {
        for (int fd : idle_) watcher_->Offer(fd);
      }
      return;
    }
    ForgetHandedOff(idle_);
  }
}

void HeldConnections::BeforeServing() {
  if (watcher_) watcher_->Begin();
}

void HeldConnections::AfterServing() {
  if (watcher_ && watcher_->End()) ForgetHandedOff(watcher_->HandedOff());
}

bool HeldConnections::RoomToTake() const {
  return handoff_ != nullptr && list_.size() + ConnectionHandoff::kMaxPerMessage <= kMaxConnections;
}

void HeldConnections::TakeHandedOff(Clock::time_point now) {
  taken_.clear();
  if (handoff_ == nullptr || !handoff_->Take(&taken_)) return;
  for (int fd : taken_) Add(fd, false, now);
}

void HeldConnections::ForgetHandedOff(std::span<const int> fds) {
  for (auto at = list_.begin(); at != list_.end();) {
    at = std::find(fds.begin(), fds.end(), at->fd) != fds.end() ? Close(at) : std::next(at);
  }
}

}  // namespace netgraph::fcgi
