// Makes fresh anonymous memory resident on a background thread, ahead of its first write.
#include "declone/support/PagePopulator.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <thread>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older headers lack the name, older kernels the advice
#endif

namespace declone {

namespace {

/// Populates [data, data + size) a huge page at a time from its end: an owner that starts
/// writing at the beginning as soon as it has asked (a buffer being read into) then meets the
/// populator in the middle instead of racing it over the same pages. False with errno set on
/// failure.
bool populateBackwards(void* data, size_t size) {
  constexpr size_t kStep = size_t(2) << 20;
  auto begin = reinterpret_cast<uintptr_t>(data);
  uintptr_t end = begin + size;
  while (end > begin) {
    // Steps start on huge-page boundaries (madvise needs page-aligned starts; begin is one).
    uintptr_t start = std::max(begin, (end - 1) & ~(kStep - 1));
    if (::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE) != 0)
      return false;
    end = start;
  }
  return true;
}

} // namespace

struct PagePopulator::State {
  struct Request {
    const void* owner;
    void* data;
    size_t size;
  };

  std::mutex mutex;
  std::condition_variable wake;   ///< a request arrived
  std::condition_variable served; ///< the request being served is done
  std::deque<Request> pending;
  const void* serving = nullptr; ///< owner of the request being served, if any
  bool started = false;
  bool unsupported = false; ///< the kernel refused the advice once: stop asking
  size_t populated = 0;

  void serve() {
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return !pending.empty(); });
      Request next = pending.front();
      pending.pop_front();
      serving = next.owner;
      lock.unlock();
      int savedErrno = errno;
      bool done = populateBackwards(next.data, next.size);
      bool refused = !done && errno == EINVAL;
      errno = savedErrno;
      lock.lock();
      serving = nullptr;
      if (done)
        populated += next.size;
      if (refused) {
        unsupported = true;
        pending.clear();
      }
      served.notify_all();
    }
  }
};

PagePopulator::PagePopulator() : state_(new State) {
  // A forked child has no populator thread, and the parent's may have held the lock or been
  // serving a request at the fork: the child starts over with a state of its own (the old one
  // is left as it was, never touched again). PyTorch forks DataLoader workers after passes ran.
  ::pthread_atfork(nullptr, nullptr, [] { instance().state_ = new State; });
}

PagePopulator& PagePopulator::instance() {
  // Never destroyed: the thread may be inside madvise when static destructors run at exit.
  static PagePopulator* populator = new PagePopulator;
  return *populator;
}

void PagePopulator::request(const void* owner, void* data, size_t size) {
  if (size == 0)
    return;
  std::lock_guard lock(state_->mutex);
  if (state_->unsupported)
    return;
  if (!state_->started) {
    // A thread that cannot start leaves the owner to fault its pages in itself.
    try {
      std::thread([state = state_] { state->serve(); }).detach();
    } catch (const std::system_error&) {
      state_->unsupported = true;
      return;
    }
    state_->started = true;
  }
  state_->pending.push_back(State::Request{owner, data, size});
  state_->wake.notify_one();
}

void PagePopulator::cancel(const void* owner) {
  std::unique_lock lock(state_->mutex);
  std::erase_if(state_->pending,
                [&](const State::Request& request) { return request.owner == owner; });
  state_->served.wait(lock, [&] { return state_->serving != owner; });
}

size_t PagePopulator::populatedBytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->populated;
}

} // namespace declone
